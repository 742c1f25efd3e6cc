#include "core/dynamics/path_dynamics.h"

#include "core/dynamics/inverse_dynamics.h"

namespace motion {

void PathTorqueCoefficients(const ChainModel& model, DynamicsData& data,
                            const Eigen::Ref<const Eigen::VectorXd>& q,
                            const Eigen::Ref<const Eigen::VectorXd>& dq_ds,
                            const Eigen::Ref<const Eigen::VectorXd>& d2q_ds2,
                            const Eigen::Vector3d& gravity, const Payload& payload,
                            Eigen::VectorXd& a, Eigen::VectorXd& b, Eigen::VectorXd& c) {
  const Eigen::Vector3d no_gravity = Eigen::Vector3d::Zero();
  const Eigen::VectorXd& zeros = data.dof_zeros;
  InverseDynamics(model, data, q, zeros, zeros, gravity, payload, c);
  InverseDynamics(model, data, q, zeros, dq_ds, no_gravity, payload, a);
  InverseDynamics(model, data, q, dq_ds, d2q_ds2, no_gravity, payload, b);
}

}  // namespace motion
