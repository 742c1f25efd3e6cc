#include "core/planning/internal/path_shortcutting.h"

#include <algorithm>
#include <utility>

namespace motion {

double JointPathLength(const std::vector<Eigen::VectorXd>& path) {
  double length = 0.0;
  for (std::size_t i = 1; i < path.size(); ++i) length += (path[i] - path[i - 1]).norm();
  return length;
}

namespace {

// The point at arc length s along `path` (cumulative lengths `at`): its
// edge and the point itself.
std::pair<std::size_t, Eigen::VectorXd> PointAt(const std::vector<Eigen::VectorXd>& path,
                                                const std::vector<double>& at, double s) {
  std::size_t i = std::upper_bound(at.begin(), at.end(), s) - at.begin();
  i = std::min(std::max<std::size_t>(i, 1), path.size() - 1) - 1;
  const double edge = at[i + 1] - at[i];
  const double t = edge > 0.0 ? std::clamp((s - at[i]) / edge, 0.0, 1.0) : 0.0;
  return {i, path[i] + t * (path[i + 1] - path[i])};
}

}  // namespace

int ShortcutPath(MotionChecker& checker, std::vector<Eigen::VectorXd>& path, int rounds,
                 int patience, RandomStream& random, SearchInterrupt& interrupt) {
  int applied = 0;
  int idle = 0;
  std::vector<double> at;
  for (int round = 0; round < rounds && path.size() > 2 && idle < patience; ++round, ++idle) {
    if (interrupt.Poll() != SearchInterrupt::Reason::kNone) break;
    at.assign(1, 0.0);
    for (std::size_t i = 1; i < path.size(); ++i)
      at.push_back(at.back() + (path[i] - path[i - 1]).norm());
    double s1 = random.Uniform(0.0, at.back()), s2 = random.Uniform(0.0, at.back());
    if (s1 > s2) std::swap(s1, s2);
    auto [i, p1] = PointAt(path, at, s1);
    auto [j, p2] = PointAt(path, at, s2);
    // On one edge there is nothing to cut.
    if (i == j) continue;
    if (!checker.MotionIsClear(p1, p2)) continue;
    // The kept pieces of edges i and j need no check of their own: each is
    // part of an edge the checker cleared, and its clearance is a proof
    // about every configuration on that edge (conservative advancement),
    // so it holds for every part. The trajectory's own check, which cuts
    // the path at its samples anyway, finds them clear for the same reason.
    const bool keep_p1 = p1 != path[i];
    const bool keep_p2 = p2 != path[j + 1];
    std::vector<Eigen::VectorXd> cut(path.begin(), path.begin() + i + 1);
    if (keep_p1) cut.push_back(p1);
    if (keep_p2) cut.push_back(p2);
    cut.insert(cut.end(), path.begin() + j + 1, path.end());
    path = std::move(cut);
    ++applied;
    idle = -1;  // the loop's increment makes it 0
  }
  return applied;
}

void RemoveRedundantWaypoints(MotionChecker& checker, std::vector<Eigen::VectorXd>& path,
                              SearchInterrupt& interrupt) {
  std::size_t i = 1;
  while (i + 1 < path.size()) {
    if (interrupt.Poll() != SearchInterrupt::Reason::kNone) return;
    if (checker.MotionIsClear(path[i - 1], path[i + 1])) {
      path.erase(path.begin() + i);
    } else {
      ++i;
    }
  }
}

}  // namespace motion
