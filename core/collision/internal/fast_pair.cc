#include "core/collision/internal/fast_pair.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "core/collision/internal/box_box.h"
#include "core/collision/internal/gjk.h"
#include "core/collision/internal/round_shapes.h"
#include "core/collision/internal/segment_box.h"

namespace motion {
namespace {

using Kind = CollisionShape::Kind;

bool IsRound(const Primitive& p) { return p.kind == Kind::kSphere || p.kind == Kind::kCapsule; }

// The core segment of a sphere (both ends its centre) or a capsule.
std::pair<Eigen::Vector3d, Eigen::Vector3d> CoreSegment(const Primitive& p) {
  const Eigen::Vector3d half = p.rotation.col(2) * p.half.z();
  return {p.centre - half, p.centre + half};
}

PairOutcome RoundBox(const Primitive& round, const Primitive& box, double margin) {
  auto [p, q] = CoreSegment(round);
  const Eigen::Matrix3d to_box = box.rotation.transpose();
  p = to_box * (p - box.centre);
  q = to_box * (q - box.centre);
  const double penetration = SegmentBoxPenetration(p, q, box.half);
  if (penetration > 0) return OutcomeAt(-penetration - round.radius, margin);
  return OutcomeAt(SegmentBoxDistance(p, q, box.half) - round.radius, margin);
}

}  // namespace

std::optional<PairOutcome> FastPair(const Primitive& a, const Primitive& b, bool want_distance,
                                    double margin) {
  if (a.kind == Kind::kMesh || b.kind == Kind::kMesh) return std::nullopt;
  if (IsRound(a) && IsRound(b)) {
    const auto [pa, qa] = CoreSegment(a);
    const auto [pb, qb] = CoreSegment(b);
    return OutcomeAt(SegmentDistance(pa, qa, pb, qb) - a.radius - b.radius, margin);
  }
  if (IsRound(a) && b.kind == Kind::kBox) return RoundBox(a, b, margin);
  if (IsRound(b) && a.kind == Kind::kBox) return RoundBox(b, a, margin);
  // The rest by GJK on the cores, less the radii. Without a distance it
  // stops once the pair is surely beyond the margin (the distance reported
  // is then that lower bound).
  const double radii = a.radius + b.radius;
  const double enough =
      want_distance ? std::numeric_limits<double>::infinity() : radii + std::max(margin, 0.0);
  if (a.kind == Kind::kBox && b.kind == Kind::kBox) {
    const double penetration = BoxBoxPenetration(a, b);
    if (penetration > 0) return OutcomeAt(-penetration, margin);
    if (!want_distance && !(margin > 0)) return PairOutcome();
    return OutcomeAt(CoreDistance(a, b, enough), margin);
  }
  // A cylinder with anything.
  const double core = CoreDistance(a, b, enough);
  if (core <= 0.0) return std::nullopt;
  return OutcomeAt(core - radii, margin);
}

}  // namespace motion
