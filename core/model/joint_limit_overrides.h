#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/model/chain_model.h"
#include "core/model/joint_limits.h"

namespace motion {

/// \brief A caller's limits for one joint of a chain; 0 keeps the chain's
/// value (from the URDF or the documented default).
struct JointLimitOverride {
  std::string joint_name;         ///< a DOF name of the chain (ChainModel::dof_names)
  double max_velocity = 0.0;      ///< rad/s or m/s
  double max_acceleration = 0.0;  ///< rad/s^2 or m/s^2
  double max_jerk = 0.0;          ///< rad/s^3 or m/s^3
  double max_torque = 0.0;        ///< N*m or N
};

/// \brief The chain's limits with `overrides` applied (sources become
/// "override"). Overrides never touch the model, so they change no robot id
/// and no cached chain. InvalidArgument naming `field` and the index
/// (e.g. "robot.joint_limits[2].max_jerk") for an empty, unknown or repeated
/// joint name, and for a negative or non-finite value.
absl::StatusOr<std::vector<JointLimits>> ApplyJointLimitOverrides(
    const ChainModel& model, const std::vector<JointLimitOverride>& overrides,
    absl::string_view field);

}  // namespace motion
