#include "server/rpc/ik_collision.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "server/convert/collision_conversion.h"
#include "server/planning/program_planning.h"

namespace motion::server {

absl::StatusOr<std::optional<IkCollisionSetup>> IkCollisionFromProto(ServiceEnv& env,
                                                                     const ResolvedChain& resolved,
                                                                     const v1::IkOptions& options,
                                                                     absl::string_view field) {
  if (!options.avoid_collisions()) return std::nullopt;
  if (!(std::isfinite(options.safety_margin()) && options.safety_margin() >= 0)) {
    return absl::InvalidArgumentError(absl::StrCat(field,
                                                   ".safety_margin: must be a finite "
                                                   "number >= 0 (m), got ",
                                                   options.safety_margin()));
  }
  IkCollisionSetup setup;
  absl::StatusOr<std::shared_ptr<const CollisionScene>> scene =
      ResolveScene(env.scenes, options.scene(), absl::StrCat(field, ".scene"));
  if (!scene.ok()) return scene.status();
  setup.scene = *std::move(scene);
  setup.robot =
      env.collision_models.For(*resolved.robot.model, *resolved.robot.meshes, resolved.chain);
  setup.query.self_collision =
      ChainHasCollisionGeometry(*resolved.robot.model, *resolved.robot.meshes, *resolved.chain);
  setup.query.safety_margin = options.safety_margin();
  return setup;
}

absl::StatusOr<IkResult> SolveRequestedIk(const ChainModel& chain, IkData& data, const Pose& target,
                                          const Pose& tool, const std::vector<double>& seed,
                                          const IkOptions& options,
                                          const std::optional<IkCollisionSetup>& collision) {
  if (collision)
    return SolveCollisionFreeIk(chain, data, target, tool, seed, options, collision->Check());
  return SolveIk(chain, data, target, tool, seed, options);
}

}  // namespace motion::server
