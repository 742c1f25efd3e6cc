#include "core/kinematics/jacobian.h"

#include <limits>

#include <Eigen/SVD>

#include "core/kinematics/forward_kinematics.h"

namespace motion {

void ComputeJacobian(const ChainModel& model, ChainData& data,
                     const Eigen::Ref<const Eigen::VectorXd>& q, const Eigen::Isometry3d& tool,
                     Jacobian& jacobian) {
  const Eigen::Vector3d reference = (ForwardKinematics(model, data, q) * tool).translation();
  JacobianFromFrames(model, data, reference, jacobian);
}

void JacobianFromFrames(const ChainModel& model, const ChainData& data,
                        const Eigen::Vector3d& reference, Jacobian& jacobian) {
  jacobian.setZero(6, model.dof());
  for (std::size_t k = 0; k < model.joints.size(); ++k) {
    const ChainJoint& joint = model.joints[k];
    const Eigen::Isometry3d& frame = data.joint_frames[k];
    const Eigen::Vector3d axis = frame.linear() * joint.axis;
    auto column = jacobian.col(joint.dof);
    if (joint.type == JointType::kPrismatic) {
      column.head<3>() += joint.multiplier * axis;
    } else {
      // The joint's origin is F_k's origin: Motion rotates about it.
      column.head<3>() += joint.multiplier * axis.cross(reference - frame.translation());
      column.tail<3>() += joint.multiplier * axis;
    }
  }
}

JacobianMeasures MeasureJacobian(const Jacobian& jacobian) {
  JacobianMeasures m;
  Eigen::JacobiSVD<Eigen::MatrixXd> svd(jacobian);
  m.singular_values = svd.singularValues();
  m.manipulability = 1.0;
  for (Eigen::Index i = 0; i < m.singular_values.size(); ++i) {
    m.manipulability *= m.singular_values[i];
  }
  const double smallest = m.singular_values.size() ? m.singular_values.tail<1>()[0] : 0.0;
  m.condition_number =
      smallest > 0 ? m.singular_values[0] / smallest : std::numeric_limits<double>::infinity();
  return m;
}

}  // namespace motion
