#pragma once

#include <Eigen/Geometry>

namespace motion {

/// \file
/// \brief The Paden-Kahan subproblems the closed-form IK is made of, in
/// IK-Geo's formulation (Elias & Wen, "IK-Geo: Unified robot inverse
/// kinematics using subproblem decomposition", 2022). k is a unit axis;
/// rot(k, theta) p = p cos + (k x p) sin + k (k . p)(1 - cos) (Rodrigues).

/// \brief rot(k, theta) p.
Eigen::Vector3d Rotate(const Eigen::Vector3d& k, double theta, const Eigen::Vector3d& p);

/// \brief Subproblem 1: theta with rot(k, theta) p1 = p2 (least squares:
/// the angle between the parts of p1 and p2 normal to k). False when either
/// part is shorter than `min_length` (any theta does).
bool Subproblem1(const Eigen::Vector3d& p1, const Eigen::Vector3d& p2, const Eigen::Vector3d& k,
                 double min_length, double* theta);

/// \brief Subproblem 4: theta with h . rot(k, theta) p = d, i.e.
/// A cos + B sin = d - C. Writes up to two solutions and returns how many:
/// 2 in general, 1 where they meet or where |d - C| exceeds sqrt(A^2 + B^2)
/// by at most `slack` (the nearest angle, for targets on the boundary), 0
/// beyond. Sets *degenerate (and returns 0) when A = B = 0 (no dependence
/// on theta).
int Subproblem4(const Eigen::Vector3d& h, const Eigen::Vector3d& p, const Eigen::Vector3d& k,
                double d, double slack, double theta[2], bool* degenerate);

/// \brief The 2R arm in the plane normal to the parallel axes k2 || k3:
/// rot(k2, t2) (b + rot(k3, t3) a) = t, with a, b, t normal to k2
/// (subproblem 3 for t3, then subproblem 1 for t2). Up to two (t2, t3)
/// pairs; `seed2` is t2 when t is on axis 2 (any t2 does).
int SolvePlanar2R(const Eigen::Vector3d& k2, const Eigen::Vector3d& k3, const Eigen::Vector3d& b,
                  const Eigen::Vector3d& a, const Eigen::Vector3d& t, double seed2, double t2[2],
                  double t3[2]);

/// \brief A unit vector normal to the unit axis k (a reference direction
/// to measure rotations about k from).
Eigen::Vector3d UnitNormalTo(const Eigen::Vector3d& k);

/// \brief theta wrapped to (-pi, pi].
double WrapAngle(double theta);

}  // namespace motion
