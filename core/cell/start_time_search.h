#pragma once

#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/cell/cell_program.h"
#include "core/collision/collision_scene.h"

namespace motion {

/// \brief Start times that make a cell collision-free, or why there are none.
struct StartTimeSuggestion {
  bool found = false;
  std::vector<double> start_times;  ///< s, per robot in input order, when found
  std::string reason;               ///< when not found
};

/// \brief The smallest start delays, robot by robot in the robots' order,
/// for which the cell is collision-free.
///
/// The order is kept: robot 0 keeps its start time; robot k starts at the
/// first instant t = t0 + m * sample_time, m = 0, 1, ..., with t0 = max(its
/// own start time, robot k-1's suggested start), for which it meets none
/// of robots 0..k-1 (with their suggested starts), scanned up to the
/// horizon H = the latest given start time + the sum of every program's
/// duration (by then every robot before it has long finished; if its
/// start configuration is in the way of their final ones no delay helps).
/// Greedy: each robot's delay is the smallest given the ones before it,
/// so the suggestion is exact to one sample for two robots and the
/// lexicographically smallest for more. A robot in contact with the scene
/// or itself cannot be helped by any delay: not found, with the reason.
/// The suggestion is validated (ValidateCell) before it is returned.
///
/// Errors as ValidateCell's; InvalidArgument when the horizon holds more
/// than options.max_start_candidates sample times.
absl::StatusOr<StartTimeSuggestion> SuggestStartTimes(const std::vector<CellRobotProgram>& robots,
                                                      const CollisionScene& scene,
                                                      const CellOptions& options,
                                                      const std::function<bool()>& cancelled = {});

}  // namespace motion
