#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include <Eigen/Core>

#include "absl/status/statusor.h"
#include "core/ik/ik_data.h"
#include "core/model/chain_model.h"
#include "core/motion/internal/path_steps.h"
#include "core/motion/internal/result_checkpoint.h"
#include "core/motion/internal/segment_context.h"
#include "core/motion/motion_request.h"
#include "core/motion/path_planner.h"

namespace motion {

/// \brief The path result and cursor as they were before some segments
/// were planned (what a blend into them may still change included: the
/// report before them and its samples), so that they can be planned
/// another way.
struct Checkpoint {
  ResultTail tail;
  PathCursor cursor;
};
Checkpoint Keep(const PathResult& result, const PathCursor& cursor);
void Restore(const Checkpoint& checkpoint, PathResult& result, PathCursor& cursor);

/// \brief Plans a run of segments as one motion from a context at its
/// start: its reports, one per segment, and where it ends (PlanBlendedRun,
/// PlanMoveJRun).
using RunPlanner = std::function<absl::StatusOr<bool>(
    SegmentContext& context, std::vector<SegmentReport>& reports, Eigen::VectorXd& end)>;

/// \brief Segments from `first` on as one run (blended_run.h,
/// move_j_run.h) from the cursor: true with their reports added (the zone
/// before the run blended into it in time) and the cursor at the run's end,
/// false with nothing changed when the run has to be planned segment by
/// segment.
absl::StatusOr<bool> PlanRun(const ChainModel& model, IkData& data, const PathRequest& request,
                             const PathLimits& limits, const std::function<bool()>& cancelled,
                             std::size_t first, PathCursor& cursor, PathResult& result,
                             const RunPlanner& plan);

/// \brief A Cartesian run that needed the fastest timing somewhere (the
/// programmed one is faster than fine stops by construction) against its
/// segments with fine stops: true, the run kept, when it is no slower
/// (FineStopsLowerBound first, then planning them one by one); false, with
/// `before` restored, when it is (its corners are too tight for the speed:
/// the caller blends them in time instead, never slower than fine).
absl::StatusOr<bool> RunBeatsFineStops(const ChainModel& model, IkData& data,
                                       const PathRequest& request, const PathLimits& limits,
                                       const std::function<bool()>& cancelled, std::size_t first,
                                       std::size_t last, const Checkpoint& before,
                                       PathCursor& cursor, PathResult& result);

/// \brief Segments first..last (a MoveJ run, MoveJRunEnd) planned one by
/// one, their corners overlapped in time; where a corner could not be
/// rounded as large as its zone asks, again as one curve with its corners
/// rounded through the same targets (PlanMoveJRun), and the faster is
/// kept. Overlapping keeps each motion's exact profile but cannot round a
/// corner where a joint turns back; the curve can. False, with nothing
/// changed, when a segment fails one by one: the caller plans them so, and
/// says why.
absl::StatusOr<bool> PlanMoveJRunOrSegments(const ChainModel& model, IkData& data,
                                            const PathRequest& request, const PathLimits& limits,
                                            const std::function<bool()>& cancelled,
                                            std::size_t first, std::size_t last, PathCursor& cursor,
                                            PathResult& result);

}  // namespace motion
