#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace motion {

using Vector6d = Eigen::Matrix<double, 6, 1>;

/// \brief The 6-D error between a current and a target pose, in the base
/// frame: e = [p_t - p; log(R_t R^T)] (the rotation vector taking R to R_t),
/// so that for a small joint step e ~ J dq with the geometric Jacobian.
struct PoseError {
  Vector6d vector;
  double position = 0.0;  ///< |p_t - p|, m
  double rotation = 0.0;  ///< angle of R_t R^T in [0, pi], rad
};

PoseError ComputePoseError(const Eigen::Isometry3d& current, const Eigen::Isometry3d& target);

}  // namespace motion
