#include "core/planning/internal/rrt_connect.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace motion {
namespace {

// Nodes stored contiguously (dof values each): the nearest neighbour is a
// linear scan, faster than a tree index at a few thousand nodes.
class Tree {
 public:
  Tree(const Eigen::VectorXd& root) : dof_(static_cast<int>(root.size())) { Add(root, -1); }

  int Add(const Eigen::VectorXd& q, int parent) {
    values_.insert(values_.end(), q.data(), q.data() + dof_);
    parents_.push_back(parent);
    return size() - 1;
  }
  int size() const { return static_cast<int>(parents_.size()); }
  int parent(int i) const { return parents_[i]; }
  Eigen::Map<const Eigen::VectorXd> At(int i) const {
    return Eigen::Map<const Eigen::VectorXd>(values_.data() + static_cast<std::size_t>(i) * dof_,
                                             dof_);
  }

  int Nearest(const Eigen::VectorXd& q) const {
    int best = 0;
    double best_squared = std::numeric_limits<double>::infinity();
    const double* v = values_.data();
    for (int i = 0; i < size(); ++i, v += dof_) {
      double d = 0.0;
      for (int k = 0; k < dof_ && d < best_squared; ++k) d += (v[k] - q[k]) * (v[k] - q[k]);
      if (d < best_squared) {
        best_squared = d;
        best = i;
      }
    }
    return best;
  }

  // Root -> i.
  std::vector<Eigen::VectorXd> Branch(int i) const {
    std::vector<Eigen::VectorXd> branch;
    for (; i >= 0; i = parents_[i]) branch.emplace_back(At(i));
    std::reverse(branch.begin(), branch.end());
    return branch;
  }

 private:
  int dof_;
  std::vector<double> values_;
  std::vector<int> parents_;
};

enum class Step { kTrapped, kAdvanced, kReached, kStopped };

class Search {
 public:
  Search(MotionChecker& checker, const RrtConnectSettings& settings, SearchInterrupt& interrupt)
      : checker_(checker), settings_(settings), interrupt_(interrupt) {}

  // One step of `tree` from its node nearest `target` towards it; `node`
  // is the node reached (the new one, or an existing one equal to target).
  Step Extend(Tree& tree, const Eigen::VectorXd& target, int& node) {
    if (iterations_ >= settings_.max_iterations ||
        interrupt_.Poll() != SearchInterrupt::Reason::kNone) {
      return Step::kStopped;
    }
    ++iterations_;
    const int near = tree.Nearest(target);
    const Eigen::VectorXd from = tree.At(near);
    const double distance = (target - from).norm();
    if (distance == 0.0) {
      node = near;
      return Step::kReached;
    }
    const bool reaches = distance <= settings_.step;
    Eigen::VectorXd to = target;
    if (!reaches) {
      to = from + (target - from) * (settings_.step / distance);
      // Rounding must not leave the box the samples come from.
      to = to.cwiseMax(settings_.lower).cwiseMin(settings_.upper);
    }
    if (!checker_.MotionIsClear(from, to)) return Step::kTrapped;
    node = tree.Add(to, near);
    return reaches ? Step::kReached : Step::kAdvanced;
  }

  Step Connect(Tree& tree, const Eigen::VectorXd& target, int& node) {
    Step s;
    do {
      s = Extend(tree, target, node);
    } while (s == Step::kAdvanced);
    return s;
  }

  int iterations() const { return iterations_; }

 private:
  MotionChecker& checker_;
  const RrtConnectSettings& settings_;
  SearchInterrupt& interrupt_;
  int iterations_ = 0;
};

}  // namespace

RrtConnectOutcome RrtConnect(MotionChecker& checker, const Eigen::VectorXd& start,
                             const Eigen::VectorXd& goal, const RrtConnectSettings& settings,
                             RandomStream& random, SearchInterrupt& interrupt) {
  Tree start_tree(start), goal_tree(goal);
  Tree* a = &start_tree;
  Tree* b = &goal_tree;
  Search search(checker, settings, interrupt);
  RrtConnectOutcome out;
  const int dof = static_cast<int>(start.size());
  Eigen::VectorXd sample(dof);
  for (;;) {
    if (settings.goal_bias > 0.0 && random.Uniform() < settings.goal_bias) {
      sample = b->At(0);
    } else {
      for (int k = 0; k < dof; ++k)
        sample[k] = random.Uniform(settings.lower[k], settings.upper[k]);
    }
    int node_a = -1, node_b = -1;
    const Step extended = search.Extend(*a, sample, node_a);
    if (extended == Step::kStopped) break;
    if (extended != Step::kTrapped) {
      const Eigen::VectorXd target = a->At(node_a);
      const Step connected = search.Connect(*b, target, node_b);
      if (connected == Step::kStopped) break;
      if (connected == Step::kReached) {
        // Both branches end at the same joint vector: keep it once.
        const bool a_is_start = a == &start_tree;
        std::vector<Eigen::VectorXd> from_start =
            (a_is_start ? *a : *b).Branch(a_is_start ? node_a : node_b);
        std::vector<Eigen::VectorXd> from_goal =
            (a_is_start ? *b : *a).Branch(a_is_start ? node_b : node_a);
        out.path = std::move(from_start);
        for (auto it = from_goal.rbegin() + 1; it != from_goal.rend(); ++it) {
          out.path.push_back(*it);
        }
        out.connected = true;
        break;
      }
    }
    std::swap(a, b);
  }
  out.start_tree_nodes = start_tree.size();
  out.goal_tree_nodes = goal_tree.size();
  out.iterations = search.iterations();
  return out;
}

}  // namespace motion
