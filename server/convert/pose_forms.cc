#include "server/convert/pose_forms.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "core/geometry/pose_algebra.h"

namespace motion::server {

absl::StatusOr<Pose> PoseFromMatrixProto(const v1::Matrix4& matrix, absl::string_view field) {
  if (matrix.values_size() != 16) {
    return absl::InvalidArgumentError(absl::StrCat(field, ".values: ", matrix.values_size(),
                                                   " values; a 4 x 4 matrix has 16 (row-major)"));
  }
  Eigen::Matrix4d m;
  for (int i = 0; i < 16; ++i) {
    const double v = matrix.values(i);
    if (!std::isfinite(v)) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ".values[", i, "]: ", v, " is not finite"));
    }
    m(i / 4, i % 4) = v;
  }
  if (m(3, 0) != 0 || m(3, 1) != 0 || m(3, 2) != 0 || m(3, 3) != 1) {
    return absl::InvalidArgumentError(absl::StrCat(field, ": the last row must be 0 0 0 1, got ",
                                                   m(3, 0), " ", m(3, 1), " ", m(3, 2), " ",
                                                   m(3, 3)));
  }
  const Eigen::Matrix3d r = m.topLeftCorner<3, 3>();
  const double off_orthonormal =
      (r.transpose() * r - Eigen::Matrix3d::Identity()).cwiseAbs().maxCoeff();
  if (off_orthonormal > 1e-6) {
    return absl::InvalidArgumentError(absl::StrCat(
        field, ": the rotation block is not orthonormal (R^T R differs from I by up to ",
        off_orthonormal, "; at most 1e-6)"));
  }
  if (r.determinant() < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ": the rotation block is a reflection (determinant -1)"));
  }
  const Eigen::Quaterniond q(r);
  return MakePose(m.topRightCorner<3, 1>(), q.x(), q.y(), q.z(), q.w(), field);
}

void MatrixToProto(const Eigen::Isometry3d& transform, v1::Matrix4* out) {
  out->clear_values();
  const Eigen::Matrix4d m = transform.matrix();
  for (int i = 0; i < 16; ++i)
    out->add_values(i / 4 == 3 ? (i == 15 ? 1.0 : 0.0) : m(i / 4, i % 4));
}

void RpyToProto(const Eigen::Quaterniond& rotation, v1::AngleUnit unit, v1::Rpy* out) {
  const Eigen::Vector3d rpy = RpyFromQuaternion(rotation);
  const double scale = unit == v1::DEGREES ? 180.0 / M_PI : 1.0;
  out->set_roll(rpy.x() * scale);
  out->set_pitch(rpy.y() * scale);
  out->set_yaw(rpy.z() * scale);
  out->set_unit(unit);
}

Pose CanonicalSign(Pose pose) {
  if (pose.orientation.w() < 0) pose.orientation.coeffs() = -pose.orientation.coeffs();
  return pose;
}

}  // namespace motion::server
