#include "core/model/body_inertia.h"

namespace motion {
namespace {

// Inertia of a point mass m at offset d about the reference point.
Eigen::Matrix3d Steiner(double m, const Eigen::Vector3d& d) {
  return m * (d.squaredNorm() * Eigen::Matrix3d::Identity() - d * d.transpose());
}

}  // namespace

BodyInertia ExpressedIn(const BodyInertia& body_B, const Eigen::Isometry3d& X_AB) {
  BodyInertia out;
  out.mass = body_B.mass;
  out.center_of_mass = X_AB * body_B.center_of_mass;
  out.inertia = X_AB.linear() * body_B.inertia * X_AB.linear().transpose();
  return out;
}

BodyInertia Combined(const BodyInertia& a, const BodyInertia& b) {
  BodyInertia out;
  out.mass = a.mass + b.mass;
  if (out.mass > 0) {
    out.center_of_mass = (a.mass * a.center_of_mass + b.mass * b.center_of_mass) / out.mass;
  }
  out.inertia = a.inertia + Steiner(a.mass, a.center_of_mass - out.center_of_mass) + b.inertia +
                Steiner(b.mass, b.center_of_mass - out.center_of_mass);
  return out;
}

}  // namespace motion
