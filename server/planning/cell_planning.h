#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "core/collision/collision_scene.h"
#include "core/motion/trajectory.h"
#include "motion/v1/motion_planner.pb.h"
#include "server/convert/cell_conversion.h"
#include "server/planning/program_planning.h"

// The cell check behind ValidateCell, without gRPC: each robot's program
// resolved and planned on its own (PlanCellProgram, one per solver task),
// then the cell checked as it runs (CheckPlannedCell).
namespace motion::server {

/// \brief One robot's program, planned in its own base frame.
struct PlannedCellProgram {
  ProgramToPlan program;
  std::shared_ptr<const RobotCollisionModel> collision;
  PathResult result;
};

/// \brief Resolves and plans `request` (robot errors name `robot_field`, e.g.
/// "robots[2].robot", the program's "robots[2].program..."), with the robot's collision model built
/// or taken from the cache whether or not the program itself checks collisions.
absl::StatusOr<PlannedCellProgram> PlanCellProgram(
    RobotRegistry& registry, CollisionModelCache& collision_models, SceneRegistry& scenes,
    const v1::PlanPathRequest& request, const std::string& robot_field, ChainDataCache& cache,
    const PathLimits& limits, ServerMetrics& metrics, const std::function<bool()>& cancelled);

/// \brief Every robot's result, the cell check (core's ValidateCell) and,
/// when asked, its start time suggestion, into `out`. Robots whose program
/// yielded no samples make the cell not collision-free, unchecked.
absl::Status CheckPlannedCell(const v1::ValidateCellRequest& request, const CellRequest& cell,
                              const std::vector<PlannedCellProgram>& planned,
                              const CollisionScene& scene, const std::function<bool()>& cancelled,
                              v1::ValidateCellResponse* out);

}  // namespace motion::server
