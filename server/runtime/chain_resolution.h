#pragma once

#include <memory>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/model/chain_model.h"
#include "motion/v1/common.pb.h"
#include "server/runtime/robot_registry.h"

namespace motion::server {

/// \brief A robot and the chain a request selected on it.
struct ResolvedChain {
  RegisteredRobot robot;
  std::shared_ptr<const ChainModel> chain;
};

/// \brief RobotRef -> model (registering an inline URDF) -> chain. Errors
/// name the field under `field` ("robot.tip_link: ...").
absl::StatusOr<ResolvedChain> ResolveChain(RobotRegistry& registry, const v1::RobotRef& ref,
                                           absl::string_view field = "robot");

}  // namespace motion::server
