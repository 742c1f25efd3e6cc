#pragma once

#include <vector>

#include <Eigen/Geometry>

#include "core/model/body_inertia.h"
#include "core/model/chain_model.h"

namespace motion {

/// \brief Per-thread scratch space of the dynamics algorithms for one ChainModel (the model/data
/// split of ChainData and IkData): sized once, so InverseDynamics allocates nothing. Never shared
/// between threads. Everything per joint k is expressed in F_k.
struct DynamicsData {
  explicit DynamicsData(const ChainModel& model)
      : rotation(model.joints.size(), Eigen::Matrix3d::Identity()),
        translation(model.joints.size(), Eigen::Vector3d::Zero()),
        angular_velocity(model.joints.size(), Eigen::Vector3d::Zero()),
        linear_velocity(model.joints.size(), Eigen::Vector3d::Zero()),
        angular_acceleration(model.joints.size(), Eigen::Vector3d::Zero()),
        linear_acceleration(model.joints.size(), Eigen::Vector3d::Zero()),
        moment(model.joints.size(), Eigen::Vector3d::Zero()),
        force(model.joints.size(), Eigen::Vector3d::Zero()),
        dof_zeros(Eigen::VectorXd::Zero(model.dof())),
        velocity_scratch(Eigen::VectorXd::Zero(model.dof())),
        acceleration_scratch(Eigen::VectorXd::Zero(model.dof())),
        torque_scratch(Eigen::VectorXd::Zero(model.dof())) {}

  /// X_{k-1,k} = origin_k * Motion(theta_k): rotation and translation of F_k in F_{k-1}.
  std::vector<Eigen::Matrix3d> rotation;
  std::vector<Eigen::Vector3d> translation;
  /// Spatial velocity and acceleration of body k at the origin of F_k (Featherstone's
  /// convention: the linear parts are those of the body-fixed point at the origin).
  std::vector<Eigen::Vector3d> angular_velocity, linear_velocity;
  std::vector<Eigen::Vector3d> angular_acceleration, linear_acceleration;
  /// The wrench joint k transmits to body k (and everything after it), about the origin of F_k.
  std::vector<Eigen::Vector3d> moment, force;
  /// The last body with the payload added, rebuilt per call.
  BodyInertia last_body;

  // Scratch of the helpers built on InverseDynamics (path_dynamics.h, trajectory_torque.h).
  Eigen::VectorXd dof_zeros;
  Eigen::VectorXd velocity_scratch, acceleration_scratch;
  Eigen::VectorXd torque_scratch;
};

}  // namespace motion
