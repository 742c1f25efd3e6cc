#include "core/collision/internal/gjk.h"

#include <algorithm>
#include <cmath>

namespace motion {
namespace {

constexpr int kMaxIterations = 128;
constexpr double kRelativeGap = 1e-12;

Eigen::Vector3d Support(const Primitive& p, const Eigen::Vector3d& d) {
  switch (p.kind) {
    case CollisionShape::Kind::kBox: {
      const Eigen::Vector3d local = p.rotation.transpose() * d;
      const Eigen::Vector3d corner((local.x() >= 0 ? 1.0 : -1.0) * p.half.x(),
                                   (local.y() >= 0 ? 1.0 : -1.0) * p.half.y(),
                                   (local.z() >= 0 ? 1.0 : -1.0) * p.half.z());
      return p.centre + p.rotation * corner;
    }
    case CollisionShape::Kind::kCylinder: {
      const Eigen::Vector3d local = p.rotation.transpose() * d;
      const double radial = std::hypot(local.x(), local.y());
      Eigen::Vector3d point(0.0, 0.0, (local.z() >= 0 ? 1.0 : -1.0) * p.half.z());
      if (radial > 0.0) {
        point.x() = p.half.x() * local.x() / radial;
        point.y() = p.half.x() * local.y() / radial;
      }
      return p.centre + p.rotation * point;
    }
    case CollisionShape::Kind::kCapsule: {
      const Eigen::Vector3d axis = p.rotation.col(2) * p.half.z();
      return axis.dot(d) >= 0 ? Eigen::Vector3d(p.centre + axis) : Eigen::Vector3d(p.centre - axis);
    }
    case CollisionShape::Kind::kSphere:
    case CollisionShape::Kind::kMesh:
      break;
  }
  return p.centre;
}

// The simplex of Minkowski-difference points and the point of it nearest
// the origin; Reduce keeps the smallest face that holds that point
// (Voronoi-region tests, Ericson, Real-Time Collision Detection 5.1).
struct Simplex {
  Eigen::Vector3d w[4];
  int size = 0;

  void Keep(std::initializer_list<int> which) {
    Eigen::Vector3d kept[4];
    int n = 0;
    for (int i : which) kept[n++] = w[i];
    for (int i = 0; i < n; ++i) w[i] = kept[i];
    size = n;
  }

  // Nearest point of segment (w[i], w[j]); keeps its support.
  Eigen::Vector3d Segment(int i, int j, bool keep) {
    const Eigen::Vector3d a = w[i], ab = w[j] - w[i];
    const double denominator = ab.squaredNorm();
    const double t = denominator > 0 ? std::clamp(-a.dot(ab) / denominator, 0.0, 1.0) : 0.0;
    if (keep) {
      if (t <= 0.0) {
        Keep({i});
      } else if (t >= 1.0) {
        Keep({j});
      } else {
        Keep({i, j});
      }
    }
    return a + t * ab;
  }

  // Nearest point of triangle (w[i], w[j], w[k]) to the origin.
  Eigen::Vector3d Triangle(int i, int j, int k, bool keep) {
    const Eigen::Vector3d a = w[i], b = w[j], c = w[k];
    const Eigen::Vector3d ab = b - a, ac = c - a, ap = -a;
    const double d1 = ab.dot(ap), d2 = ac.dot(ap);
    if (d1 <= 0 && d2 <= 0) {
      if (keep) Keep({i});
      return a;
    }
    const Eigen::Vector3d bp = -b;
    const double d3 = ab.dot(bp), d4 = ac.dot(bp);
    if (d3 >= 0 && d4 <= d3) {
      if (keep) Keep({j});
      return b;
    }
    const double vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0) {
      const double v = d1 / (d1 - d3);
      if (keep) Keep({i, j});
      return a + v * ab;
    }
    const Eigen::Vector3d cp = -c;
    const double d5 = ab.dot(cp), d6 = ac.dot(cp);
    if (d6 >= 0 && d5 <= d6) {
      if (keep) Keep({k});
      return c;
    }
    const double vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0) {
      const double v = d2 / (d2 - d6);
      if (keep) Keep({i, k});
      return a + v * ac;
    }
    const double va = d3 * d6 - d5 * d4;
    if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
      const double v = (d4 - d3) / ((d4 - d3) + (d5 - d6));
      if (keep) Keep({j, k});
      return b + v * (c - b);
    }
    const double denominator = va + vb + vc;
    if (!(denominator > 0)) return Segment(i, j, keep);  // degenerate: a sliver
    const double v = vb / denominator, u = vc / denominator;
    if (keep) Keep({i, j, k});
    return a + ab * v + ac * u;
  }

  // Nearest point of the tetrahedron; `inside` when it holds the origin.
  Eigen::Vector3d Tetrahedron(bool& inside) {
    static constexpr int kFaces[4][4] = {{0, 1, 2, 3}, {0, 2, 3, 1}, {0, 3, 1, 2}, {1, 3, 2, 0}};
    const double volume = (w[1] - w[0]).dot((w[2] - w[0]).cross(w[3] - w[0]));
    const double scale = std::max(
        {(w[1] - w[0]).squaredNorm(), (w[2] - w[0]).squaredNorm(), (w[3] - w[0]).squaredNorm()});
    const bool flat = std::abs(volume) <= 1e-14 * scale * std::sqrt(scale);
    inside = !flat;
    double best = std::numeric_limits<double>::infinity();
    int best_face = -1;
    Eigen::Vector3d nearest = Eigen::Vector3d::Zero();
    for (int f = 0; f < 4; ++f) {
      const int i = kFaces[f][0], j = kFaces[f][1], k = kFaces[f][2], other = kFaces[f][3];
      const Eigen::Vector3d n = (w[j] - w[i]).cross(w[k] - w[i]);
      const double origin_side = -w[i].dot(n), other_side = (w[other] - w[i]).dot(n);
      // The origin beyond this face's plane (or a flat simplex: every face).
      if (!flat && origin_side * other_side >= 0) continue;
      inside = false;
      const Eigen::Vector3d p = Triangle(i, j, k, false);
      if (p.squaredNorm() < best) {
        best = p.squaredNorm();
        best_face = f;
        nearest = p;
      }
    }
    if (inside || best_face < 0) {
      inside = true;
      return Eigen::Vector3d::Zero();
    }
    Triangle(kFaces[best_face][0], kFaces[best_face][1], kFaces[best_face][2], true);
    return nearest;
  }
};

}  // namespace

double CoreDistance(const Primitive& a, const Primitive& b, double enough) {
  Simplex simplex;
  Eigen::Vector3d v = a.centre - b.centre;
  if (v.isZero(0.0)) v = Eigen::Vector3d::UnitX();
  simplex.w[0] = Support(a, -v) - Support(b, v);
  simplex.size = 1;
  v = simplex.w[0];
  double vv = v.squaredNorm();
  // Closer than rounding can tell from touching (the origin on or in the
  // simplex, to ~1e-12 of the shapes' size): the cores meet.
  const double touching = kRelativeGap * (a.bounding_radius + b.bounding_radius);
  for (int iteration = 0; iteration < kMaxIterations; ++iteration) {
    if (vv <= touching * touching) return 0.0;
    const Eigen::Vector3d w = Support(a, -v) - Support(b, v);
    const double vw = v.dot(w);
    // v.w / |v| is a lower bound on the distance: the plane normal to v
    // through w has the whole Minkowski difference on one side.
    if (vw > 0 && vw * vw > enough * enough * vv) return vw / std::sqrt(vv);
    if (vv - vw <= kRelativeGap * vv) break;
    simplex.w[simplex.size++] = w;
    Eigen::Vector3d next;
    switch (simplex.size) {
      case 2:
        next = simplex.Segment(0, 1, true);
        break;
      case 3:
        next = simplex.Triangle(0, 1, 2, true);
        break;
      default: {
        bool inside = false;
        next = simplex.Tetrahedron(inside);
        if (inside) return 0.0;
      }
    }
    const double next_vv = next.squaredNorm();
    // No progress: rounding has the last answer as good as it gets.
    if (next_vv >= vv) break;
    v = next;
    vv = next_vv;
  }
  return std::sqrt(vv);
}

}  // namespace motion
