#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/dynamics/payload.h"
#include "core/model/chain_model.h"
#include "motion/v1/common.pb.h"
#include "server/runtime/robot_registry.h"

namespace motion::server {

/// \brief A robot, the chain a request selected on it, and the limits the
/// request plans with.
struct ResolvedChain {
  RegisteredRobot robot;
  std::shared_ptr<const ChainModel> chain;
  /// chain->dof_limits with RobotRef.joint_limits applied (the chain itself
  /// is shared and never changed by a request).
  std::vector<JointLimits> limits;
  /// RobotRef.payload, validated; absent when the request gives none.
  std::optional<Payload> payload;
};

/// \brief Views of the mesh files a RobotRef carries.
std::vector<MeshFileBytes> MeshFilesOf(const v1::RobotRef& ref);

/// \brief RobotRef -> model (registering an inline URDF) -> chain -> limits.
/// Errors name the field under `field` ("robot.tip_link: ...",
/// "robot.joint_limits[1].max_jerk: ...", "robot.payload.mass: ...").
absl::StatusOr<ResolvedChain> ResolveChain(RobotRegistry& registry, const v1::RobotRef& ref,
                                           absl::string_view field = "robot");

}  // namespace motion::server
