#include "core/motion/internal/circle_geometry.h"

#include <algorithm>

#include <cmath>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace motion {

Eigen::Vector3d Arc::PointAt(double angle) const {
  return geometry.center + geometry.radius * (std::cos(angle) * u + std::sin(angle) * v);
}

absl::StatusOr<Arc> ArcThroughPoints(const Eigen::Vector3d& start, const Eigen::Vector3d& via,
                                     const Eigen::Vector3d& end, double min_distance) {
  const Eigen::Vector3d a = via - start;
  const Eigen::Vector3d b = end - start;
  if (a.norm() < min_distance) {
    return absl::FailedPreconditionError(absl::StrCat("via coincides with the start (", a.norm(),
                                                      " m apart): no circle through them"));
  }
  if (b.norm() < min_distance) {
    return absl::FailedPreconditionError(absl::StrCat("target coincides with the start (", b.norm(),
                                                      " m apart): a full circle is ambiguous"));
  }
  if ((end - via).norm() < min_distance) {
    return absl::FailedPreconditionError(
        absl::StrCat("target coincides with via (", (end - via).norm(), " m apart)"));
  }
  const Eigen::Vector3d n = a.cross(b);
  const double sine = n.norm() / (a.norm() * b.norm());
  if (sine < 1e-6) {
    return absl::FailedPreconditionError(absl::StrCat(
        "start, via and target are collinear (sine of their angle ", sine, "): no circle"));
  }
  Arc arc;
  arc.geometry.center =
      start + (a.squaredNorm() * b - b.squaredNorm() * a).cross(n) / (2.0 * n.squaredNorm());
  arc.geometry.normal = n.normalized();
  arc.geometry.radius = (start - arc.geometry.center).norm();
  const double longest = std::max({a.norm(), b.norm(), (end - via).norm()});
  if (arc.geometry.radius > kMaxRadiusPerChord * longest) {
    return absl::FailedPreconditionError(
        absl::StrCat("start, via and target are nearly collinear: their circle has radius ",
                     arc.geometry.radius, " m for points at most ", longest, " m apart (more than ",
                     kMaxRadiusPerChord, " times); program a MoveL, or move the via off the line"));
  }
  arc.u = (start - arc.geometry.center) / arc.geometry.radius;
  arc.v = arc.geometry.normal.cross(arc.u);
  const Eigen::Vector3d e = end - arc.geometry.center;
  double angle = std::atan2(arc.v.dot(e), arc.u.dot(e));
  if (angle <= 0) angle += 2.0 * M_PI;
  arc.geometry.angle = angle;
  return arc;
}

}  // namespace motion
