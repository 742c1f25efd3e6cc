#pragma once

#include <cstddef>
#include <vector>

#include <Eigen/Core>

#include "absl/status/statusor.h"
#include "core/motion/internal/segment_context.h"
#include "core/motion/motion_request.h"
#include "core/motion/trajectory.h"

namespace motion {

/// \brief The last segment of the MoveJ run that starts at `first`: plain
/// MoveJs (straight, no avoid_collisions) whose zones ask for a blend into
/// the next plain MoveJ with the same joint_fraction and tool and no new
/// payload (`first` itself when there is none).
std::size_t MoveJRunEnd(const PathRequest& request, std::size_t first);

/// \brief Plans segments first..last (a MoveJ run, MoveJRunEnd) as one
/// motion through `waypoints` (the start, then each segment's target
/// joints): the joint path with every corner rounded on one curve
/// (RoundCorners), timed by the fastest timing along it (SampleFastestTiming)
/// within every joint's velocity, acceleration and jerk limit x
/// joint_fraction x speed_override and its torque limit. The arm passes
/// every corner without stopping, also where a joint turns back there.
///
/// Each corner's rounding from its zone, in joint space from the corner
/// along both legs, at most kMaxRoundingShare of the shorter leg:
/// - CNT p: p % of that; CONTINUOUS: all of it.
/// - DISTANCE r: the largest (in steps of 0.8) whose TCP stays within r of
///   the corner's TCP all along the rounding; ZONE_REDUCED when even all of
///   it leaves the path closer than r.
///
/// The samples are shared out as a blended Cartesian run's are: each
/// segment's run to the end of its rounding, which its BlendReport
/// describes (time_saved: what a stop in the middle of the rounding would
/// cost the same timing); each diagnostic to the segment whose samples it
/// names.
///
/// False, with context.out as it was, when a corner cannot be rounded
/// inside its sphere, when a leg has no length, or when the timing cannot
/// keep the samples within their limits: the caller plans the segments
/// one by one. Cancelled when context.cancelled fires.
absl::StatusOr<bool> PlanMoveJRun(const PathRequest& request, std::size_t first, std::size_t last,
                                  const std::vector<Eigen::VectorXd>& waypoints,
                                  SegmentContext& context, std::vector<SegmentReport>& reports,
                                  Eigen::VectorXd& end_joints);

}  // namespace motion
