#pragma once

#include <functional>
#include <vector>

#include "absl/status/statusor.h"
#include "core/cell/cell_program.h"
#include "core/collision/collision_scene.h"

namespace motion {

/// \brief Checks a cell as it runs: every robot against `scene` (objects
/// in the cell frame) and itself, and every pair of robots against each
/// other, at every instant where one of them has a sample and between
/// instants.
///
/// Between instants every robot's joints move linearly, so every point of
/// a link moves at most its conservative advancement bound
/// (RobotPlacer::LinkMotionBounds); two links whose clearances c0, c1 at an
/// interval's ends satisfy c0 + c1 > bound_a + bound_b cannot meet inside
/// it, otherwise the interval is halved, down to options.resolution. Broad
/// phase: pairs of robots whose swept boxes over a window of instants
/// (inflated by the motion bounds) stay apart beyond the margin are not
/// checked instant by instant there.
///
/// Contacts at consecutive instants (or halvings between them) form one
/// interval per pair; a robot's contact with the scene or itself that
/// holds at its first (last) sample lasts from the cell's zero (to the
/// cell's end), since the robot holds still there.
///
/// InvalidArgument naming "robots[i]..." or the option for a program that
/// is empty, not increasing or the wrong size, a non-finite or negative
/// start time, a non-positive sample time, a negative margin, or more
/// instants than options.max_instants. `cancelled` is polled (may be
/// empty); Cancelled when it fires.
absl::StatusOr<CellVerdict> ValidateCell(const std::vector<CellRobotProgram>& robots,
                                         const CollisionScene& scene, const CellOptions& options,
                                         const std::function<bool()>& cancelled = {});

}  // namespace motion
