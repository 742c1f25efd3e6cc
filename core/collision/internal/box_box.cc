#include "core/collision/internal/box_box.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace motion {

double BoxBoxPenetration(const Primitive& a, const Primitive& b) {
  // Everything in a's frame: b's axes are the columns of r.
  const Eigen::Matrix3d r = a.rotation.transpose() * b.rotation;
  const Eigen::Vector3d t = a.rotation.transpose() * (b.centre - a.centre);
  const Eigen::Matrix3d abs_r = r.cwiseAbs();
  double depth = std::numeric_limits<double>::infinity();
  for (int i = 0; i < 3; ++i) {
    depth = std::min(depth, a.half[i] + abs_r.row(i).dot(b.half) - std::abs(t[i]));
    if (depth <= 0.0) return depth;
  }
  for (int j = 0; j < 3; ++j) {
    depth = std::min(depth, abs_r.col(j).dot(a.half) + b.half[j] - std::abs(r.col(j).dot(t)));
    if (depth <= 0.0) return depth;
  }
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      const Eigen::Vector3d axis = Eigen::Vector3d::Unit(i).cross(r.col(j));
      const double norm = axis.norm();
      // Parallel edges: no face of that kind. Any unit axis bounds the
      // depth from above, so an imprecise near-parallel one is harmless.
      if (norm == 0.0) continue;
      const Eigen::Vector3d n = axis / norm;
      const double ra = a.half.dot(n.cwiseAbs());
      const double rb = b.half.dot((r.transpose() * n).cwiseAbs());
      depth = std::min(depth, ra + rb - std::abs(n.dot(t)));
      if (depth <= 0.0) return depth;
    }
  }
  return depth;
}

}  // namespace motion
