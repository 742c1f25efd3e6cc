#include "core/geometry/pose.h"

#include <cmath>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace motion {

Pose Pose::FromIsometry(const Eigen::Isometry3d& t) {
  Pose pose;
  pose.position = t.translation();
  pose.orientation = Eigen::Quaterniond(t.rotation());
  pose.orientation.normalize();
  return pose;
}

Eigen::Isometry3d Pose::ToIsometry() const {
  Eigen::Isometry3d t = Eigen::Isometry3d::Identity();
  t.linear() = orientation.toRotationMatrix();
  t.translation() = position;
  return t;
}

absl::StatusOr<Pose> MakePose(const Eigen::Vector3d& position, double qx, double qy, double qz,
                              double qw, absl::string_view field) {
  if (!position.allFinite()) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ".position: every coordinate must be finite, got (", position.x(), ", ",
                     position.y(), ", ", position.z(), ")"));
  }
  if (!std::isfinite(qx) || !std::isfinite(qy) || !std::isfinite(qz) || !std::isfinite(qw)) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ".orientation: quaternion components must be finite"));
  }
  const double norm = std::sqrt(qx * qx + qy * qy + qz * qz + qw * qw);
  if (norm < 1e-9) {
    return absl::InvalidArgumentError(absl::StrCat(
        field, ".orientation: zero quaternion (x=y=z=w=0) is not a rotation; identity is w=1"));
  }
  Pose pose;
  pose.position = position;
  pose.orientation = Eigen::Quaterniond(qw / norm, qx / norm, qy / norm, qz / norm);
  return pose;
}

double RotationAngleBetween(const Eigen::Quaterniond& a, const Eigen::Quaterniond& b) {
  // 2*atan2(|v|, |w|) of the relative quaternion is accurate near 0 and pi,
  // unlike acos of the dot product (which loses half the digits near 0).
  const Eigen::Quaterniond d = a.conjugate() * b;
  return 2.0 * std::atan2(d.vec().norm(), std::abs(d.w()));
}

}  // namespace motion
