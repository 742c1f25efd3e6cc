#include "core/collision/internal/segment_box.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <Eigen/Geometry>

namespace motion {
namespace {

// Overlap of the segment's and the box's projections on unit axis n: the
// shorter way apart (negative when the projections are disjoint).
double Overlap(const Eigen::Vector3d& p, const Eigen::Vector3d& q, const Eigen::Vector3d& half,
               const Eigen::Vector3d& n) {
  const double box = half.dot(n.cwiseAbs());
  const double a = p.dot(n), b = q.dot(n);
  return std::min(box - std::min(a, b), std::max(a, b) + box);
}

}  // namespace

double SegmentBoxDistance(const Eigen::Vector3d& p, const Eigen::Vector3d& q,
                          const Eigen::Vector3d& half) {
  const Eigen::Vector3d d = q - p;
  // Parameters in (0, 1) where the segment crosses a face plane.
  double breaks[8];
  int n = 0;
  breaks[n++] = 0.0;
  for (int k = 0; k < 3; ++k) {
    if (d[k] == 0.0) continue;
    for (double side : {-half[k], half[k]}) {
      const double t = (side - p[k]) / d[k];
      if (!(t > 0.0 && t < 1.0)) continue;
      int i = n++;  // insertion: at most six
      for (; i > 1 && breaks[i - 1] > t; --i) breaks[i] = breaks[i - 1];
      breaks[i] = t;
    }
  }
  breaks[n++] = 1.0;
  // Half the derivative of the squared distance is sum_k d_k e_k(t), e_k
  // the excess of the point over face k (0 inside its slab): on one piece
  // that is A + B t, with the axes outside their slab at the piece's middle.
  double t_best = 1.0;
  for (int i = 0; i + 1 < n; ++i) {
    const double ta = breaks[i], tb = breaks[i + 1];
    if (!(tb > ta)) continue;
    const double mid = 0.5 * (ta + tb);
    double a = 0.0, b = 0.0;
    for (int k = 0; k < 3; ++k) {
      const double x = p[k] + mid * d[k];
      if (x > half[k]) {
        a += d[k] * (p[k] - half[k]);
        b += d[k] * d[k];
      } else if (x < -half[k]) {
        a += d[k] * (p[k] + half[k]);
        b += d[k] * d[k];
      }
    }
    if (a + b * ta >= 0.0) {  // nondecreasing from this piece's start
      t_best = ta;
      break;
    }
    if (a + b * tb >= 0.0) {
      t_best = std::clamp(-a / b, ta, tb);
      break;
    }
  }
  const Eigen::Vector3d x = p + t_best * d;
  return (x - x.cwiseMax(-half).cwiseMin(half)).norm();
}

double SegmentBoxPenetration(const Eigen::Vector3d& p, const Eigen::Vector3d& q,
                             const Eigen::Vector3d& half) {
  double depth = std::numeric_limits<double>::infinity();
  for (int k = 0; k < 3; ++k) {
    depth = std::min(depth, Overlap(p, q, half, Eigen::Vector3d::Unit(k)));
    if (depth <= 0.0) return depth;
  }
  const Eigen::Vector3d d = q - p;
  if (d.isZero(0.0)) return depth;
  for (int k = 0; k < 3; ++k) {
    const Eigen::Vector3d axis = Eigen::Vector3d::Unit(k).cross(d);
    const double norm = axis.norm();
    // Parallel to box axis k: no face of that kind. Any unit axis bounds
    // the depth from above, so an imprecise near-parallel one is harmless.
    if (norm == 0.0) continue;
    depth = std::min(depth, Overlap(p, q, half, axis / norm));
    if (depth <= 0.0) return depth;
  }
  return depth;
}

}  // namespace motion
