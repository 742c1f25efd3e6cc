#pragma once

#include <cstddef>
#include <vector>

#include "core/motion/trajectory.h"

namespace motion {

/// \brief The samples of `t` from sample `from` on (same dof).
Trajectory TrajectoryFrom(const Trajectory& t, std::size_t from);

/// \brief `t` cut back to its first `keep` samples, then `tail` appended
/// (empty: only cut).
void ReplaceTrajectoryTail(Trajectory& t, std::size_t keep, const Trajectory& tail);

/// \brief What a path result holds past some point (its last samples,
/// reports and diagnostics), kept aside so that the planner can try one
/// way of planning what follows, then another, and keep the better.
struct ResultTail {
  std::size_t samples = 0, segments = 0, diagnostics = 0;  ///< what stays before it
  Trajectory trajectory;                                   ///< samples from `samples` on
  std::vector<SegmentReport> reports;                      ///< from `segments` on
  std::vector<Diagnostic> diagnostic_list;                 ///< from `diagnostics` on
};

/// \brief A copy of `result` from those points on.
ResultTail CopyTail(const PathResult& result, std::size_t samples, std::size_t segments,
                    std::size_t diagnostics);

/// \brief `result` cut back to `tail`'s points and `tail` put in its place.
void PutTail(const ResultTail& tail, PathResult& result);

}  // namespace motion
