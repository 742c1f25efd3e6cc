#include "core/collision/internal/round_shapes.h"

#include <algorithm>
#include <cmath>

#include <fcl/geometry/shape/capsule.h>
#include <fcl/geometry/shape/sphere.h>

namespace motion {
namespace {

struct Round {
  Eigen::Vector3d p, q;  // core segment ends (equal for a sphere)
  double radius = 0.0;
};

bool AsRound(const fcl::CollisionObjectd& o, Round& out) {
  const fcl::CollisionGeometryd* g = o.collisionGeometry().get();
  const Eigen::Isometry3d& t = o.getTransform();
  if (o.getNodeType() == fcl::GEOM_SPHERE) {
    out.p = out.q = t.translation();
    out.radius = static_cast<const fcl::Sphered*>(g)->radius;
    return true;
  }
  if (o.getNodeType() == fcl::GEOM_CAPSULE) {
    const auto* c = static_cast<const fcl::Capsuled*>(g);
    const Eigen::Vector3d half = t.linear().col(2) * (0.5 * c->lz);
    out.p = t.translation() - half;
    out.q = t.translation() + half;
    out.radius = c->radius;
    return true;
  }
  return false;
}

}  // namespace

double SegmentDistance(const Eigen::Vector3d& p1, const Eigen::Vector3d& q1,
                       const Eigen::Vector3d& p2, const Eigen::Vector3d& q2) {
  constexpr double kEpsilon = 1e-18;
  const Eigen::Vector3d d1 = q1 - p1, d2 = q2 - p2, r = p1 - p2;
  const double a = d1.squaredNorm(), e = d2.squaredNorm(), f = d2.dot(r);
  double s = 0.0, t = 0.0;
  if (a <= kEpsilon && e <= kEpsilon) return r.norm();
  if (a <= kEpsilon) {
    t = std::clamp(f / e, 0.0, 1.0);
  } else {
    const double c = d1.dot(r);
    if (e <= kEpsilon) {
      s = std::clamp(-c / a, 0.0, 1.0);
    } else {
      const double b = d1.dot(d2), denominator = a * e - b * b;
      s = denominator > kEpsilon ? std::clamp((b * f - c * e) / denominator, 0.0, 1.0) : 0.0;
      t = (b * s + f) / e;
      if (t < 0.0) {
        t = 0.0;
        s = std::clamp(-c / a, 0.0, 1.0);
      } else if (t > 1.0) {
        t = 1.0;
        s = std::clamp((b - c) / a, 0.0, 1.0);
      }
    }
  }
  return ((p1 + d1 * s) - (p2 + d2 * t)).norm();
}

std::optional<PairOutcome> RoundShapesPair(const fcl::CollisionObjectd& a,
                                           const fcl::CollisionObjectd& b, double margin) {
  Round ra, rb;
  if (!AsRound(a, ra) || !AsRound(b, rb)) return std::nullopt;
  return OutcomeAt(SegmentDistance(ra.p, ra.q, rb.p, rb.q) - ra.radius - rb.radius, margin);
}

}  // namespace motion
