#pragma once

#include <functional>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/cache/chain_data_cache.h"
#include "core/model/chain_model.h"
#include "core/motion/motion_request.h"
#include "core/motion/trajectory.h"
#include "motion/v1/motion_planner.pb.h"
#include "server/observability/server_metrics.h"
#include "server/runtime/collision_model_cache.h"
#include "server/runtime/robot_registry.h"
#include "server/runtime/scene_registry.h"

// The planning sequence behind PlanPath and ValidatePath, without gRPC:
// resolve the robot's chain and convert the program (ResolveProgram), then
// plan it and record its metrics (PlanProgram). The stream reactors only
// decode, enqueue, call these and write what they return.
namespace motion::server {

/// \brief Whether a link of the chain has real collision geometry: URDF
/// primitives, or meshes the client sent (not the capsules that stand for
/// meshes not sent, too coarse to fail a request on by default). What turns
/// self-collision on when a request does not say.
bool ChainHasCollisionGeometry(const RobotModel& robot, const MeshSupply& meshes,
                               const ChainModel& chain);

/// \brief A program ready to plan: the chain it runs on, in core types.
struct ProgramToPlan {
  std::string robot_id;
  std::shared_ptr<const ChainModel> chain;
  PathRequest path;
};

/// \brief Resolves `request.robot` (errors name it under `robot_field`,
/// e.g. "path.robot"), converts the program and resolves its defaults
/// (core's ResolveProgramDefaults); malformed shapes are InvalidArgument
/// naming the field. Nothing is planned yet; PlanProgram validates every
/// value of the program before its first segment.
///
/// Collision checking: with a `scene` in the request, or self-collision on
/// (check_self_collision, or absent and the robot has URDF primitives or
/// meshes that were sent), the chain's collision model comes from `collision_models` and the
/// scene is resolved from `scenes` or validated and stored there (errors
/// name "scene..." under the request's path), and so are the safety margin
/// and the allowed pairs.
absl::StatusOr<ProgramToPlan> ResolveProgram(RobotRegistry& registry,
                                             CollisionModelCache& collision_models,
                                             SceneRegistry& scenes,
                                             const v1::PlanPathRequest& request,
                                             absl::string_view robot_field = "robot");

/// \brief Plans `program` with this thread's chain data `cache` within `limits`,
/// stopping early when `cancelled()` turns true, and records the solve
/// times, points and diagnostics in `metrics`.
absl::StatusOr<PathResult> PlanProgram(const ProgramToPlan& program, ChainDataCache& cache,
                                       const PathLimits& limits, ServerMetrics& metrics,
                                       const std::function<bool()>& cancelled);

}  // namespace motion::server
