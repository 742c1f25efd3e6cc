#pragma once

#include <vector>

#include <Eigen/Geometry>

#include "core/model/chain_model.h"

namespace motion {

/// \brief Per-thread scratch space for one ChainModel (Pinocchio's
/// model/data split): sized once, reused by every FK and Jacobian call so the
/// inner loops allocate nothing. Never shared between threads.
struct ChainData {
  explicit ChainData(const ChainModel& model)
      : joint_frames(model.joints.size(), Eigen::Isometry3d::Identity()),
        joint_values(model.joints.size(), 0.0) {}

  /// F_k of every movable joint (child link frame) in the base frame, after
  /// the last ForwardKinematics call.
  std::vector<Eigen::Isometry3d> joint_frames;
  /// theta_k = multiplier * q[dof] + offset of every movable joint.
  std::vector<double> joint_values;
};

}  // namespace motion
