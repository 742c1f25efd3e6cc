#include "core/motion/internal/orientation_through_via.h"

#include <cmath>

#include "core/geometry/pose.h"

namespace motion {
namespace {

// Rotation vector (axis * angle, angle in [0, pi]) of a unit quaternion.
Eigen::Vector3d Log(Eigen::Quaterniond q) {
  if (q.w() < 0) q.coeffs() = -q.coeffs();  // the shorter way round
  const Eigen::AngleAxisd aa(q);
  return aa.axis() * aa.angle();
}

Eigen::Quaterniond Exp(const Eigen::Vector3d& w) {
  const double angle = w.norm();
  if (angle < 1e-300) return Eigen::Quaterniond::Identity();
  return Eigen::Quaterniond(Eigen::AngleAxisd(angle, w / angle));
}

}  // namespace

OrientationThroughVia::OrientationThroughVia(const Eigen::Quaterniond& start,
                                             const Eigen::Quaterniond& via,
                                             const Eigen::Quaterniond& end, double via_share)
    : start_(start.normalized()),
      to_via_(Log(start_.conjugate() * via.normalized())),
      to_end_(Log(start_.conjugate() * end.normalized())),
      via_share_(via_share) {}

Eigen::Quaterniond OrientationThroughVia::At(double sigma) const {
  const double v = via_share_;
  // Lagrange basis of the nodes 0, v, 1 (the one of node 0 multiplies 0).
  const double at_via = sigma * (sigma - 1.0) / (v * (v - 1.0));
  const double at_end = sigma * (sigma - v) / (1.0 - v);
  return (start_ * Exp(at_via * to_via_ + at_end * to_end_)).normalized();
}

double OrientationThroughVia::TurnedAngle() const {
  constexpr int kChords = 256;
  double angle = 0.0;
  Eigen::Quaterniond previous = At(0.0);
  for (int i = 1; i <= kChords; ++i) {
    const Eigen::Quaterniond next = At(static_cast<double>(i) / kChords);
    angle += RotationAngleBetween(previous, next);
    previous = next;
  }
  return angle;
}

}  // namespace motion
