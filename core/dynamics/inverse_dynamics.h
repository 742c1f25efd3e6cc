#pragma once

#include <Eigen/Core>

#include "core/dynamics/dynamics_data.h"
#include "core/dynamics/payload.h"
#include "core/model/chain_model.h"

namespace motion {

/// \brief Inverse dynamics by the recursive Newton-Euler algorithm: the joint torques
/// tau = M(q) qdd + C(q, qd) qd + g(q) that move the chain through (q, qd, qdd).
///
/// Bodies are ChainModel::bodies (URDF inertials, fixed links folded in), plus `payload` rigidly
/// attached to the tip link. Gravity is handled as an acceleration -gravity of the base, so
/// `gravity` is the gravitational acceleration in the base frame (m/s^2; kDefaultGravity points
/// along base -z). Joint k moves by theta_k = multiplier_k * q[dof_k] + offset_k, so a mimic
/// joint moves with its DOF and tau is the generalized force of each DOF:
/// tau[i] = sum over the joints k of DOF i of multiplier_k * (torque or force at joint k).
/// Units: N*m for rotary DOF, N for prismatic ones. Joint friction and motor inertia are not
/// modelled (URDF has no standard for them).
///
/// \param[in] q, qd, qdd   size model.dof(): rad, rad/s, rad/s^2 (m, m/s, m/s^2 prismatic)
/// \param[out] tau         size model.dof() (resized if it is not; allocation-free when it is)
/// Preconditions: `data` was built for `model`; the vectors have model.dof() entries.
void InverseDynamics(const ChainModel& model, DynamicsData& data,
                     const Eigen::Ref<const Eigen::VectorXd>& q,
                     const Eigen::Ref<const Eigen::VectorXd>& qd,
                     const Eigen::Ref<const Eigen::VectorXd>& qdd, const Eigen::Vector3d& gravity,
                     const Payload& payload, Eigen::VectorXd& tau);

}  // namespace motion
