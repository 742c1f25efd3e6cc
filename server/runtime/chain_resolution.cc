#include "server/runtime/chain_resolution.h"

#include "absl/strings/str_cat.h"
#include "core/model/joint_limit_overrides.h"
#include "server/convert/dynamics_conversion.h"

namespace motion::server {

std::vector<MeshFileBytes> MeshFilesOf(const v1::RobotRef& ref) {
  std::vector<MeshFileBytes> meshes;
  meshes.reserve(ref.meshes_size());
  for (const v1::MeshFile& m : ref.meshes()) meshes.push_back({m.filename(), m.data()});
  return meshes;
}

absl::StatusOr<ResolvedChain> ResolveChain(RobotRegistry& registry, const v1::RobotRef& ref,
                                           absl::string_view field) {
  absl::StatusOr<RegisteredRobot> robot =
      registry.Resolve(ref.robot_id(), ref.urdf(), MeshFilesOf(ref), field);
  if (!robot.ok()) return robot.status();
  absl::StatusOr<std::shared_ptr<const ChainModel>> chain =
      robot->model->Chain(ref.base_link(), ref.tip_link());
  if (!chain.ok()) {
    return absl::Status(chain.status().code(), FieldPath(field, chain.status().message()));
  }
  std::vector<JointLimitOverride> overrides;
  overrides.reserve(ref.joint_limits_size());
  for (const v1::JointLimitOverride& o : ref.joint_limits()) {
    overrides.push_back(
        {o.joint_name(), o.max_velocity(), o.max_acceleration(), o.max_jerk(), o.max_torque()});
  }
  absl::StatusOr<std::vector<JointLimits>> limits =
      ApplyJointLimitOverrides(**chain, overrides, absl::StrCat(field, ".joint_limits"));
  if (!limits.ok()) return limits.status();
  std::optional<Payload> payload;
  if (ref.has_payload()) {
    absl::StatusOr<Payload> converted =
        PayloadFromProto(ref.payload(), absl::StrCat(field, ".payload"));
    if (!converted.ok()) return converted.status();
    payload = *converted;
  }
  return ResolvedChain{*std::move(robot), *std::move(chain), *std::move(limits),
                       std::move(payload)};
}

}  // namespace motion::server
