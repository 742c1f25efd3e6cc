#include "core/planning/internal/rrt_connect.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "core/planning/internal/joint_kd_tree.h"

namespace motion {
namespace {

// Nodes with their parents; the nearest neighbour through a k-d tree (a
// linear scan was most of the search's time once trees reach thousands of
// nodes).
class Tree {
 public:
  Tree(const Eigen::VectorXd& root) : nodes_(static_cast<int>(root.size())) { Add(root, -1); }

  int Add(const Eigen::VectorXd& q, int parent) {
    parents_.push_back(parent);
    return nodes_.Add(q.data());
  }
  int size() const { return nodes_.size(); }
  int parent(int i) const { return parents_[i]; }
  Eigen::Map<const Eigen::VectorXd> At(int i) const { return nodes_.At(i); }
  int Nearest(const Eigen::VectorXd& q) const { return nodes_.Nearest(q.data()); }

  // Root -> i.
  std::vector<Eigen::VectorXd> Branch(int i) const {
    std::vector<Eigen::VectorXd> branch;
    for (; i >= 0; i = parents_[i]) branch.emplace_back(At(i));
    std::reverse(branch.begin(), branch.end());
    return branch;
  }

 private:
  JointKdTree nodes_;
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
