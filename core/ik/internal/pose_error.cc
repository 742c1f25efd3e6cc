#include "core/ik/internal/pose_error.h"

#include <cmath>

namespace motion {

PoseError ComputePoseError(const Eigen::Isometry3d& current, const Eigen::Isometry3d& target) {
  PoseError error;
  error.vector.head<3>() = target.translation() - current.translation();
  error.position = error.vector.head<3>().norm();
  Eigen::Quaterniond q(target.linear() * current.linear().transpose());
  if (q.w() < 0) q.coeffs() = -q.coeffs();  // the short way round
  const double s = q.vec().norm();
  // angle = 2 atan2(|v|, w) is accurate near 0 and pi; log = angle * v / |v|,
  // whose limit for small |v| is 2 v.
  error.rotation = 2.0 * std::atan2(s, q.w());
  error.vector.tail<3>() = s > 1e-12 ? (error.rotation / s) * q.vec() : 2.0 * q.vec();
  return error;
}

}  // namespace motion
