#pragma once

#include <Eigen/Core>

#include "core/dynamics/dynamics_data.h"
#include "core/dynamics/payload.h"
#include "core/model/chain_model.h"

namespace motion {

/// \brief The torque along a path q(s) as a function of the path speed, for time-optimal
/// parameterisation (TOPP-RA's dynamics constraint):
///   tau = a * sdd + b * sd^2 + c, with qd = q' sd and qdd = q' sdd + q'' sd^2,
/// a = M(q) q', b = M(q) q'' + C(q, q') q', c = g(q).
///
/// Three InverseDynamics calls (C is quadratic in the velocity): c = ID(q, 0, 0, gravity),
/// a = ID(q, 0, q', 0) and b = ID(q, q', q'', 0), all with the payload. Allocation-free.
///
/// \param[in] q          path point (rad / m), size model.dof()
/// \param[in] dq_ds      q' = dq/ds
/// \param[in] d2q_ds2    q'' = d^2q/ds^2
/// \param[out] a, b, c   size model.dof() (N*m or N; a and b per unit sdd and sd^2)
void PathTorqueCoefficients(const ChainModel& model, DynamicsData& data,
                            const Eigen::Ref<const Eigen::VectorXd>& q,
                            const Eigen::Ref<const Eigen::VectorXd>& dq_ds,
                            const Eigen::Ref<const Eigen::VectorXd>& d2q_ds2,
                            const Eigen::Vector3d& gravity, const Payload& payload,
                            Eigen::VectorXd& a, Eigen::VectorXd& b, Eigen::VectorXd& c);

}  // namespace motion
