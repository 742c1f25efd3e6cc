#pragma once

#include <cstddef>
#include <vector>

#include <Eigen/Core>

#include "absl/status/statusor.h"
#include "core/motion/internal/segment_context.h"
#include "core/motion/motion_request.h"
#include "core/motion/trajectory.h"

namespace motion {

/// \brief The last segment of the blended run that starts at `first`: the
/// MoveL/MoveC segments from `first` on whose zones ask for a blend into
/// the next MoveL/MoveC with the same tool and speed, no new payload and
/// no collision search (`first` itself when there is none).
std::size_t BlendedRunEnd(const PathRequest& request, std::size_t first);

/// \brief Plans segments first..last (a blended run, BlendedRunEnd) as one
/// motion: their paths with every corner blended inside its zone
/// (BlendedRunPath) become one joint curve, timed once by the fastest
/// timing along it (TrackCartesianPath), so that the TCP never stops in a
/// zone unless a limit makes it. The samples are then shared out: each
/// segment's run to the end of the blend of its zone, which its report
/// describes (BlendReport; time_saved is what a stop in the middle of the
/// blend would cost the same timing, StopCosts), and each diagnostic goes
/// to the segment whose samples it names. A DISTANCE zone larger than half
/// of either motion is reduced to that (ZONE_REDUCED).
///
/// The run stops short of `last` (which then says where) at the first
/// corner that cannot be blended on the path (BlendsOnPath: a turn of more
/// than about 120 degrees, a motion that only turns the tool) or at a
/// motion without a path (a degenerate arc); that corner is left to the
/// planner's blend in time.
///
/// `as_programmed` says whether the run kept the programmed timing (then
/// it is faster than the same segments with fine stops by construction).
///
/// Returns false, with context.out as it was, when the run cannot be
/// planned as one (a degenerate arc, a path the arm cannot follow, a limit
/// or tolerance broken): the caller plans its segments one by one, which
/// says what and where. Cancelled when context.cancelled fires.
absl::StatusOr<bool> PlanBlendedRun(const PathRequest& request, std::size_t first,
                                    std::size_t& last, SegmentContext& context,
                                    std::vector<SegmentReport>& reports,
                                    Eigen::VectorXd& end_joints, bool& as_programmed);

}  // namespace motion
