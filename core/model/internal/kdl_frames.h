#pragma once

#include <Eigen/Geometry>
#include <kdl/frames.hpp>

namespace motion {

/// \brief A KDL frame as an Eigen isometry (same rotation and translation).
inline Eigen::Isometry3d ToEigen(const KDL::Frame& f) {
  Eigen::Isometry3d t = Eigen::Isometry3d::Identity();
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) t.linear()(r, c) = f.M(r, c);
    t.translation()(r) = f.p(r);
  }
  return t;
}

}  // namespace motion
