#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>

#include "core/kinematics/chain_data.h"
#include "core/model/chain_model.h"

namespace motion {

using Jacobian = Eigen::Matrix<double, 6, Eigen::Dynamic>;

/// \brief Geometric Jacobian of the chain, in the base frame, with the
/// reference point at tip * tool (the flange when tool is identity).
///
/// Rows: linear velocity (vx, vy, vz) of the reference point, then angular
/// velocity (wx, wy, wz); columns: the DOF in chain order. For joint k with
/// axis z_k (base frame) through p_k: revolute column = [z_k x (p_ref - p_k);
/// z_k], prismatic = [z_k; 0]. A mimic joint adds multiplier * its column to
/// its DOF's column (chain rule). Runs ForwardKinematics on `data`.
void ComputeJacobian(const ChainModel& model, ChainData& data,
                     const Eigen::Ref<const Eigen::VectorXd>& q, const Eigen::Isometry3d& tool,
                     Jacobian& jacobian);

/// \brief The same Jacobian from the joint frames already in `data` (of the
/// last ForwardKinematics call), for a reference point given in the base
/// frame. Lets an iterative solver reuse the FK it just evaluated.
void JacobianFromFrames(const ChainModel& model, const ChainData& data,
                        const Eigen::Vector3d& reference, Jacobian& jacobian);

/// \brief Singular-value measures of a Jacobian.
///
/// `manipulability` is the product of the min(6, n) singular values: Yoshikawa's
/// sqrt(det(J J^T)) for n >= 6, and sqrt(det(J^T J)) for n < 6 (where
/// det(J J^T) is always 0). `condition_number` is sigma_max / sigma_min over
/// the same values, +inf when sigma_min is 0. Rows mix metres and radians, so
/// both depend on the unit of length; they compare poses of one robot.
struct JacobianMeasures {
  Eigen::VectorXd singular_values;  ///< descending
  double manipulability = 0.0;
  double condition_number = 0.0;
};

JacobianMeasures MeasureJacobian(const Jacobian& jacobian);

}  // namespace motion
