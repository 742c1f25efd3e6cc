#include "core/cell/internal/cell_timeline.h"

#include <algorithm>
#include <cmath>

namespace motion {

std::size_t CellInstantsBound(const std::vector<const CellRobotProgram*>& robots) {
  std::size_t n = 1;
  for (const CellRobotProgram* r : robots) n += r->times.size();
  return n;
}

std::vector<double> CellInstants(const std::vector<const CellRobotProgram*>& robots,
                                 const std::vector<double>& start_times) {
  std::vector<double> t;
  t.reserve(CellInstantsBound(robots));
  t.push_back(0.0);
  for (std::size_t i = 0; i < robots.size(); ++i) {
    for (double s : robots[i]->times) t.push_back(start_times[i] + s);
  }
  std::sort(t.begin(), t.end());
  // Instants closer than rounding are one: two robots on the same grid
  // give the grid, not pairs of instants 1e-16 s apart.
  std::vector<double> merged;
  merged.reserve(t.size());
  for (double x : t) {
    if (merged.empty() || x - merged.back() > 1e-9 * std::max(1.0, std::abs(x))) {
      merged.push_back(x);
    }
  }
  return merged;
}

void JointsAt(const CellRobotProgram& robot, double start, double t, Eigen::VectorXd& q) {
  const int dof = robot.chain->dof();
  const std::vector<double>& times = robot.times;
  auto row = [&](std::size_t k) {
    return Eigen::Map<const Eigen::VectorXd>(robot.positions.data() + k * dof, dof);
  };
  const double local = t - start;
  if (local <= times.front()) {
    q = row(0);
    return;
  }
  if (local >= times.back()) {
    q = row(times.size() - 1);
    return;
  }
  const std::size_t k =
      static_cast<std::size_t>(std::upper_bound(times.begin(), times.end(), local) - times.begin());
  const double s = (local - times[k - 1]) / (times[k] - times[k - 1]);
  q = (1.0 - s) * row(k - 1) + s * row(k);
}

}  // namespace motion
