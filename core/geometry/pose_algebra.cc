#include "core/geometry/pose_algebra.h"

#include <cmath>

namespace motion {

Eigen::Quaterniond QuaternionFromRpy(double roll, double pitch, double yaw) {
  return Eigen::Quaterniond(Eigen::AngleAxisd(yaw, Eigen::Vector3d::UnitZ()) *
                            Eigen::AngleAxisd(pitch, Eigen::Vector3d::UnitY()) *
                            Eigen::AngleAxisd(roll, Eigen::Vector3d::UnitX()));
}

Eigen::Vector3d RpyFromQuaternion(const Eigen::Quaterniond& q) {
  const Eigen::Matrix3d r = q.normalized().toRotationMatrix();
  const double pitch = std::atan2(-r(2, 0), std::hypot(r(0, 0), r(1, 0)));
  if (std::abs(std::cos(pitch)) < 1e-12) {
    return Eigen::Vector3d(0.0, pitch, std::atan2(-r(0, 1), r(1, 1)));
  }
  // Near gimbal lock r21 and r22 shrink with cos(pitch) and atan2 of them
  // loses digits; rotating back by the yaw first keeps roll and pitch
  // accurate from entries of size one.
  const double yaw = std::atan2(r(1, 0), r(0, 0));
  const double cy = std::cos(yaw), sy = std::sin(yaw);
  return Eigen::Vector3d(std::atan2(sy * r(0, 2) - cy * r(1, 2), cy * r(1, 1) - sy * r(0, 1)),
                         std::atan2(-r(2, 0), cy * r(0, 0) + sy * r(1, 0)), yaw);
}

Pose Compose(const Pose& a, const Pose& b) {
  Pose out;
  out.position = a.position + a.orientation * b.position;
  out.orientation = (a.orientation * b.orientation).normalized();
  return out;
}

Pose Inverse(const Pose& a) {
  Pose out;
  out.orientation = a.orientation.conjugate();
  out.position = -(out.orientation * a.position);
  return out;
}

Pose ResolveTarget(const Pose& target_in_frame, const Pose& frame, const Pose& offset,
                   OffsetFrame offset_frame) {
  auto about_origin = [&offset](const Pose& t) {
    Pose out;
    out.position = t.position + offset.position;
    out.orientation = (offset.orientation * t.orientation).normalized();
    return out;
  };
  switch (offset_frame) {
    case OffsetFrame::kTool:
      return Compose(frame, Compose(target_in_frame, offset));
    case OffsetFrame::kFrame:
      return Compose(frame, about_origin(target_in_frame));
    case OffsetFrame::kWorld:
      return about_origin(Compose(frame, target_in_frame));
  }
  return Compose(frame, target_in_frame);
}

}  // namespace motion
