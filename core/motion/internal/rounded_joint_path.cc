#include "core/motion/internal/rounded_joint_path.h"

#include <algorithm>

namespace motion {

RoundedJointPath RoundCorners(const std::vector<Eigen::VectorXd>& waypoints,
                              const std::vector<double>& reach) {
  const std::size_t legs = waypoints.size() - 1;
  std::vector<double> length(legs);
  std::vector<Eigen::VectorXd> unit(legs);
  double total = 0.0;
  for (std::size_t i = 0; i < legs; ++i) {
    const Eigen::VectorXd d = waypoints[i + 1] - waypoints[i];
    length[i] = d.norm();
    unit[i] = d / length[i];
    total += length[i];
  }
  const int dof = static_cast<int>(waypoints.front().size());
  const Eigen::VectorXd flat = Eigen::VectorXd::Zero(dof);
  RoundedJointPath out;
  out.curve = JointCurve(JointCurve::Knot{0.0, waypoints.front(), total * unit.front(), flat});
  double along = 0.0;  // joint-space length to the corner
  for (std::size_t k = 1; k < legs; ++k) {
    along += length[k - 1];
    const double r = std::min(reach[k - 1], kMaxRoundingShare * std::min(length[k - 1], length[k]));
    out.reach.push_back(r);
    out.corner_s.push_back(along / total);
    out.curve.Append(JointCurve::Knot{(along - r) / total, waypoints[k] - r * unit[k - 1],
                                      total * unit[k - 1], flat});
    out.curve.Append(
        JointCurve::Knot{(along + r) / total, waypoints[k] + r * unit[k], total * unit[k], flat});
  }
  out.curve.Append(JointCurve::Knot{1.0, waypoints.back(), total * unit.back(), flat});
  return out;
}

}  // namespace motion
