#include "server/planning/program_planning.h"

#include <chrono>
#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/motion/path_planner.h"
#include "core/motion/program_validation.h"
#include "server/convert/collision_conversion.h"
#include "server/convert/path_conversion.h"
#include "server/runtime/chain_resolution.h"

namespace motion::server {

// Read from the URDF's elements, so a request that checks nothing never
// builds a collision model.
bool ChainHasCollisionGeometry(const RobotModel& robot, const MeshSupply& meshes,
                               const ChainModel& chain) {
  for (const ChainLink& link : chain.links) {
    auto it = robot.link_collisions().find(link.name);
    if (it == robot.link_collisions().end()) continue;
    for (const UrdfCollision& c : it->second) {
      if (c.kind != UrdfCollision::Kind::kMesh || meshes.count(c.mesh_filename) > 0) return true;
    }
  }
  return false;
}

absl::StatusOr<ProgramToPlan> ResolveProgram(RobotRegistry& registry,
                                             CollisionModelCache& collision_models,
                                             SceneRegistry& scenes,
                                             const v1::PlanPathRequest& request,
                                             absl::string_view robot_field) {
  absl::StatusOr<ResolvedChain> resolved = ResolveChain(registry, request.robot(), robot_field);
  if (!resolved.ok()) return resolved.status();
  absl::StatusOr<PathRequest> path = PathRequestFromProto(request);
  if (!path.ok()) return path.status();
  path->joint_limits = std::move(resolved->limits);
  path->payload = resolved->payload;
  // robot_field is "robot" or "path.robot": the scene sits beside it.
  const std::string prefix(robot_field.substr(0, robot_field.size() - 5));
  const std::string scene_field = prefix + "scene";
  if (request.has_scene()) {
    absl::StatusOr<std::shared_ptr<const CollisionScene>> scene =
        ResolveScene(scenes, request.scene(), scene_field);
    if (!scene.ok()) return scene.status();
    if (!(*scene)->objects().empty()) path->scene = *std::move(scene);
  }
  if (!(std::isfinite(request.safety_margin()) && request.safety_margin() >= 0)) {
    return absl::InvalidArgumentError(absl::StrCat(
        prefix, "safety_margin: must be a finite number >= 0 (m), got ", request.safety_margin()));
  }
  path->safety_margin = request.safety_margin();
  path->check_self_collision =
      request.has_check_self_collision()
          ? request.check_self_collision()
          : ChainHasCollisionGeometry(*resolved->robot.model, *resolved->robot.meshes,
                                      *resolved->chain);
  if (path->scene || path->check_self_collision) {
    path->collision_model =
        collision_models.For(*resolved->robot.model, *resolved->robot.meshes, resolved->chain);
    absl::StatusOr<std::shared_ptr<const AllowedCollisions>> allowed = AllowedCollisionsFromProto(
        request.allowed_collisions(), *path->collision_model,
        path->scene ? *path->scene : *CollisionScene::Empty(), prefix + "allowed_collisions");
    if (!allowed.ok()) return allowed.status();
    path->allowed_collisions = *std::move(allowed);
  }
  PathRequest resolved_path = ResolveProgramDefaults(*resolved->chain, *std::move(path));
  return ProgramToPlan{resolved->robot.robot_id, std::move(resolved->chain),
                       std::move(resolved_path)};
}

absl::StatusOr<PathResult> PlanProgram(const ProgramToPlan& program, ChainDataCache& cache,
                                       const PathLimits& limits, ServerMetrics& metrics,
                                       const std::function<bool()>& cancelled) {
  const auto started = std::chrono::steady_clock::now();
  absl::StatusOr<PathResult> result =
      PlanPath(*program.chain, cache.For(program.chain), program.path, limits, cancelled);
  if (!result.ok()) return result.status();
  metrics.RecordPath(
      *result, std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  return result;
}

}  // namespace motion::server
