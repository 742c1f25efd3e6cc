#pragma once

#include <functional>
#include <vector>

#include "absl/status/statusor.h"
#include "core/cell/cell_program.h"
#include "core/collision/collision_scene.h"

namespace motion {

/// \brief One robot of a cell against the scene (cell frame) and, with
/// robot.self_collision, itself: the single-robot check of
/// trajectory_collisions.h on its program with the scene moved into its
/// base frame, contacts in cell time (RobotContact). Start times only shift
/// these, so a cell's robots are checked alone once.
absl::StatusOr<std::vector<CellContact>> RobotAloneContacts(const CellRobotProgram& robot,
                                                            const CollisionScene& scene,
                                                            const CellOptions& options,
                                                            double cell_end,
                                                            const std::function<bool()>& cancelled);

}  // namespace motion
