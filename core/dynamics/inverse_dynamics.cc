#include "core/dynamics/inverse_dynamics.h"

#include <Eigen/Geometry>

namespace motion {

void InverseDynamics(const ChainModel& model, DynamicsData& data,
                     const Eigen::Ref<const Eigen::VectorXd>& q,
                     const Eigen::Ref<const Eigen::VectorXd>& qd,
                     const Eigen::Ref<const Eigen::VectorXd>& qdd, const Eigen::Vector3d& gravity,
                     const Payload& payload, Eigen::VectorXd& tau) {
  const std::size_t n = model.joints.size();
  if (tau.size() != model.dof()) tau.resize(model.dof());
  tau.setZero();
  if (n == 0) return;

  BodyInertia carried;
  carried.mass = payload.mass;
  carried.center_of_mass = payload.center_of_mass;
  carried.inertia = payload.inertia;
  data.last_body = Combined(model.bodies[n - 1], ExpressedIn(carried, model.tip_offset));

  // Forward pass, base to tip: velocities and accelerations of each body in its own frame.
  // The base is at rest but accelerates by -gravity, which adds gravity to every body at once.
  const Eigen::Vector3d zero = Eigen::Vector3d::Zero();
  for (std::size_t k = 0; k < n; ++k) {
    const ChainJoint& joint = model.joints[k];
    const double theta = joint.multiplier * q[joint.dof] + joint.offset;
    const double theta_d = joint.multiplier * qd[joint.dof];
    const double theta_dd = joint.multiplier * qdd[joint.dof];
    const bool prismatic = joint.type == JointType::kPrismatic;

    Eigen::Matrix3d& R = data.rotation[k];  // of F_k in F_{k-1}
    Eigen::Vector3d& p = data.translation[k];
    R = joint.origin.linear();
    p = joint.origin.translation();
    if (prismatic) {
      p += R * (theta * joint.axis);
    } else {
      R = R * Eigen::AngleAxisd(theta, joint.axis).toRotationMatrix();
    }

    const Eigen::Vector3d& w_parent = k == 0 ? zero : data.angular_velocity[k - 1];
    const Eigen::Vector3d& v_parent = k == 0 ? zero : data.linear_velocity[k - 1];
    const Eigen::Vector3d& dw_parent = k == 0 ? zero : data.angular_acceleration[k - 1];
    const Eigen::Vector3d a_parent =
        k == 0 ? Eigen::Vector3d(-gravity) : data.linear_acceleration[k - 1];

    // Motion vectors move to the child origin: v' = R^T (v + w x p).
    Eigen::Vector3d w = R.transpose() * w_parent;
    Eigen::Vector3d v = R.transpose() * (v_parent + w_parent.cross(p));
    Eigen::Vector3d dw = R.transpose() * dw_parent;
    Eigen::Vector3d a = R.transpose() * (a_parent + dw_parent.cross(p));
    // The joint's own motion S theta_d, and the velocity-product term v x (S theta_d), with
    // v the body's velocity (Featherstone, Rigid Body Dynamics Algorithms, Table 5.1).
    if (prismatic) {
      const Eigen::Vector3d s = joint.axis * theta_d;
      v += s;
      a += joint.axis * theta_dd + w.cross(s);
    } else {
      const Eigen::Vector3d s = joint.axis * theta_d;
      w += s;
      dw += joint.axis * theta_dd + w.cross(s);
      a += v.cross(s);
    }
    data.angular_velocity[k] = w;
    data.linear_velocity[k] = v;
    data.angular_acceleration[k] = dw;
    data.linear_acceleration[k] = a;

    // f = I a + v x* (I v), with I the spatial inertia of mass m, centre c, inertia Ic about c.
    const BodyInertia& body = k + 1 == n ? data.last_body : model.bodies[k];
    const double m = body.mass;
    const Eigen::Vector3d& c = body.center_of_mass;
    const Eigen::Vector3d h_linear = m * (v + w.cross(c));
    const Eigen::Vector3d h_angular = body.inertia * w + c.cross(h_linear);
    const Eigen::Vector3d ia_linear = m * (a + dw.cross(c));
    data.force[k] = ia_linear + w.cross(h_linear);
    data.moment[k] =
        body.inertia * dw + c.cross(ia_linear) + w.cross(h_angular) + v.cross(h_linear);
  }

  // Backward pass, tip to base: each joint carries its body's wrench and its children's.
  for (std::size_t k = n; k-- > 0;) {
    const ChainJoint& joint = model.joints[k];
    const double along_axis = joint.type == JointType::kPrismatic ? joint.axis.dot(data.force[k])
                                                                  : joint.axis.dot(data.moment[k]);
    tau[joint.dof] += joint.multiplier * along_axis;
    if (k > 0) {
      const Eigen::Matrix3d& R = data.rotation[k];
      const Eigen::Vector3d f_parent = R * data.force[k];
      data.force[k - 1] += f_parent;
      data.moment[k - 1] += R * data.moment[k] + data.translation[k].cross(f_parent);
    }
  }
}

}  // namespace motion
