#pragma once

// An axis-aligned box as 12 triangles, written by the tests themselves (as
// an STL file, or as a mesh), to compare with the box primitive.

#include <array>
#include <vector>

#include <Eigen/Core>

namespace motion_test {

using Triangle = std::array<Eigen::Vector3d, 3>;

/// The 12 triangles of the box with half sizes h centred at the origin.
inline std::vector<Triangle> BoxTriangles(const Eigen::Vector3d& h) {
  std::vector<Triangle> out;
  for (int axis = 0; axis < 3; ++axis) {
    for (double side : {-1.0, 1.0}) {
      const int u = (axis + 1) % 3, v = (axis + 2) % 3;
      auto corner = [&](double a, double b) {
        Eigen::Vector3d p;
        p[axis] = side * h[axis];
        p[u] = a * h[u];
        p[v] = b * h[v];
        return p;
      };
      out.push_back({corner(-1, -1), corner(1, -1), corner(1, 1)});
      out.push_back({corner(-1, -1), corner(1, 1), corner(-1, 1)});
    }
  }
  return out;
}

}  // namespace motion_test
