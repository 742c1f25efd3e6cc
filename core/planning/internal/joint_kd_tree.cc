#include "core/planning/internal/joint_kd_tree.h"

#include <algorithm>
#include <limits>

namespace motion {

int JointKdTree::Add(const double* q) {
  const int index = size();
  values_.insert(values_.end(), q, q + dof_);
  left_.push_back(-1);
  right_.push_back(-1);
  if (index == 0) {
    axis_.push_back(0);
    return index;
  }
  int node = 0;
  for (;;) {
    const int a = axis_[node];
    int& child =
        q[a] < values_[static_cast<std::size_t>(node) * dof_ + a] ? left_[node] : right_[node];
    if (child < 0) {
      child = index;
      axis_.push_back((a + 1) % dof_);
      return index;
    }
    node = child;
  }
}

double JointKdTree::SquaredDistance(int i, const double* q) const {
  const double* v = values_.data() + static_cast<std::size_t>(i) * dof_;
  double d = 0.0;
  for (int k = 0; k < dof_; ++k) d += (v[k] - q[k]) * (v[k] - q[k]);
  return d;
}

int JointKdTree::Nearest(const double* q) const {
  int best = -1;
  double best_squared = std::numeric_limits<double>::infinity();
  stack_.clear();
  stack_.push_back({0, 0.0});
  while (!stack_.empty()) {
    const Pending p = stack_.back();
    stack_.pop_back();
    // Not >=: a subtree as near as the best may hold an equal point of a
    // lower index, which the linear scan would have returned.
    if (p.lower > best_squared) continue;
    const double d = SquaredDistance(p.node, q);
    if (d < best_squared || (d == best_squared && p.node < best)) {
      best_squared = d;
      best = p.node;
    }
    const int a = axis_[p.node];
    const double gap = q[a] - values_[static_cast<std::size_t>(p.node) * dof_ + a];
    const int near = gap < 0 ? left_[p.node] : right_[p.node];
    const int far = gap < 0 ? right_[p.node] : left_[p.node];
    // Far first, so the near side is searched first and tightens the best.
    if (far >= 0) stack_.push_back({far, std::max(p.lower, gap * gap)});
    if (near >= 0) stack_.push_back({near, p.lower});
  }
  return best;
}

}  // namespace motion
