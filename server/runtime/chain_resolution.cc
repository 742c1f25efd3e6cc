#include "server/runtime/chain_resolution.h"

namespace motion::server {

absl::StatusOr<ResolvedChain> ResolveChain(RobotRegistry& registry, const v1::RobotRef& ref,
                                           absl::string_view field) {
  absl::StatusOr<RegisteredRobot> robot = registry.Resolve(ref.robot_id(), ref.urdf(), field);
  if (!robot.ok()) return robot.status();
  absl::StatusOr<std::shared_ptr<const ChainModel>> chain =
      robot->model->Chain(ref.base_link(), ref.tip_link());
  if (!chain.ok()) {
    return absl::Status(chain.status().code(), FieldPath(field, chain.status().message()));
  }
  return ResolvedChain{*std::move(robot), *std::move(chain)};
}

}  // namespace motion::server
