// JointKdTree: the nearest neighbour a linear scan in insertion order finds
// (first strictly nearer point), on random points, on points on a line (what
// RRT-Connect's connect steps add) and with duplicates and exact ties.

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "core/planning/internal/joint_kd_tree.h"

namespace motion {
namespace {

int ScanNearest(const std::vector<Eigen::VectorXd>& points, const Eigen::VectorXd& q) {
  int best = 0;
  double best_squared = std::numeric_limits<double>::infinity();
  for (int i = 0; i < static_cast<int>(points.size()); ++i) {
    double d = 0.0;
    for (int k = 0; k < q.size(); ++k) d += (points[i][k] - q[k]) * (points[i][k] - q[k]);
    if (d < best_squared) {
      best_squared = d;
      best = i;
    }
  }
  return best;
}

TEST(JointKdTreeTest, FindsWhatALinearScanFinds) {
  for (int dof : {1, 2, 6, 7}) {
    std::mt19937 rng(dof);
    std::uniform_real_distribution<double> u(-3.0, 3.0);
    JointKdTree tree(dof);
    std::vector<Eigen::VectorXd> points;
    auto add = [&](const Eigen::VectorXd& q) {
      EXPECT_EQ(tree.Add(q.data()), static_cast<int>(points.size()));
      points.push_back(q);
    };
    Eigen::VectorXd q(dof);
    for (int i = 0; i < 3000; ++i) {
      if (i % 100 == 50) {
        // A line of points, as connect steps lay them.
        Eigen::VectorXd from = points[i / 3], dir(dof);
        for (int k = 0; k < dof; ++k) dir[k] = u(rng);
        for (int s = 1; s <= 10; ++s) add(from + 0.05 * s * dir);
        continue;
      }
      // Duplicates and points on coarse grid values make exact ties.
      if (i % 7 == 0 && !points.empty()) {
        add(points[i / 2]);
        continue;
      }
      for (int k = 0; k < dof; ++k) q[k] = i % 5 == 0 ? std::round(u(rng)) : u(rng);
      add(q);
      for (int k = 0; k < dof; ++k) q[k] = i % 3 == 0 ? std::round(u(rng)) : u(rng);
      ASSERT_EQ(tree.Nearest(q.data()), ScanNearest(points, q)) << "dof " << dof << " i " << i;
    }
    EXPECT_EQ(tree.size(), static_cast<int>(points.size()));
    for (int i = 0; i < tree.size(); i += 97) {
      EXPECT_EQ(Eigen::VectorXd(tree.At(i)), points[i]);
      EXPECT_EQ(tree.Nearest(points[i].data()), ScanNearest(points, points[i]));
    }
  }
}

}  // namespace
}  // namespace motion
