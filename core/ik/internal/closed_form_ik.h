#pragma once

#include <Eigen/Geometry>

#include "core/ik/arm_geometry.h"

namespace motion {

/// Shared by both families: positions a few micrometres and angles a few
/// 1e-7 outside the exact workspace still get the boundary solution (the FK
/// check decides); below kWristSingular of sin(theta_5) the wrist is
/// singular and one wrist angle is taken from the seed.
inline constexpr double kClosedFormPositionSlack = 1e-5;
inline constexpr double kClosedFormAngleSlack = 1e-7;
inline constexpr double kClosedFormWristSingular = 1e-7;

using Vector6d = Eigen::Matrix<double, 6, 1>;

/// \brief At most this many branches: 2 (shoulder) x 2 (elbow) x 2 (wrist).
inline constexpr int kMaxClosedFormBranches = 8;

/// \brief Every branch solution (joint angles in (-pi, pi], unchecked) of a
/// spherical-wrist 6R arm for the tip pose `tip` in the base frame.
///
/// Pieper's decomposition in subproblems (IK-Geo's "spherical, two
/// parallel"): the wrist centre W = G W0 (G = tip T0^-1) depends on
/// theta_1..3 only. theta_1 keeps W's component along axis 2 (subproblem 4),
/// theta_3 the shoulder-wrist distance in the arm plane (subproblem 3),
/// theta_2 turns the elbow onto W (subproblem 1); theta_5 from
/// h4 . R_36 h6 (subproblem 4), theta_4 and theta_6 by subproblem 1.
/// Singular poses (W on axis 1, axes 4 and 6 aligned) take the free angle
/// from `seed` instead of returning NaN (and set *free_angle). Returns the
/// number of branches.
int SolveSphericalWrist(const ArmGeometry& geometry, const Eigen::Isometry3d& tip,
                        const Eigen::VectorXd& seed, Vector6d out[kMaxClosedFormBranches],
                        bool* free_angle);

/// \brief The same for the UR family (axes 2, 3, 4 parallel, axes 5 and 6
/// meeting at P): theta_1 keeps P's component along the parallel axes
/// (subproblem 4), theta_5 the component of axis 6 along them (subproblem
/// 4), theta_6 and theta_2 + theta_3 + theta_4 from the orientation
/// (subproblem 1), then the planar 2R of axes 2, 3 onto axis 4.
int SolveUrFamily(const ArmGeometry& geometry, const Eigen::Isometry3d& tip,
                  const Eigen::VectorXd& seed, Vector6d out[kMaxClosedFormBranches],
                  bool* free_angle);

}  // namespace motion
