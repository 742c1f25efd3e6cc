#pragma once

#include <Eigen/Geometry>

namespace motion {

/// \brief Mass properties of one rigid body, expressed in a frame B that the
/// holder names (for ChainModel::bodies, B = F_k of the joint that moves it).
///
/// Units: kg, m, kg*m^2. `inertia` is the rotational inertia about the centre
/// of mass, along B's axes (the URDF `<inertia>` rotated by its `<origin rpy>`).
struct BodyInertia {
  double mass = 0.0;
  Eigen::Vector3d center_of_mass = Eigen::Vector3d::Zero();  ///< in B
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();         ///< about the centre of mass
};

/// \brief The same body expressed in frame A, given X_AB (the pose of B in A):
/// c_A = X_AB * c_B, I_A = R_AB I_B R_AB^T.
BodyInertia ExpressedIn(const BodyInertia& body_B, const Eigen::Isometry3d& X_AB);

/// \brief Two bodies, expressed in the same frame, rigidly joined: masses add,
/// the centre of mass is the mass-weighted mean and each inertia moves to it
/// by the parallel-axis theorem, I += m (|d|^2 1 - d d^T) with d = c_i - c.
/// Two massless bodies give a massless body with the inertias summed.
BodyInertia Combined(const BodyInertia& a, const BodyInertia& b);

}  // namespace motion
