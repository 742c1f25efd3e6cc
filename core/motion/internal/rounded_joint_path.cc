#include "core/motion/internal/rounded_joint_path.h"

#include <algorithm>

namespace motion {
namespace {

// Where a rounding leaves (sign -1: before the corner along `direction`)
// or rejoins (+1) its leg, at `s`, moving `speed` per unit s with no
// second derivative: a straight piece meets it there to that order.
JointCurve::Knot LegPoint(const Eigen::VectorXd& corner, const Eigen::VectorXd& direction,
                          double sign, double reach, double s, double speed) {
  return JointCurve::Knot{s, corner + sign * reach * direction, speed * direction,
                          Eigen::VectorXd::Zero(corner.size())};
}

}  // namespace

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
    out.curve.Append(LegPoint(waypoints[k], unit[k - 1], -1, r, (along - r) / total, total));
    out.curve.Append(LegPoint(waypoints[k], unit[k], +1, r, (along + r) / total, total));
  }
  out.curve.Append(JointCurve::Knot{1.0, waypoints.back(), total * unit.back(), flat});
  return out;
}

Eigen::VectorXd RoundingAt(const Eigen::VectorXd& corner, const Eigen::VectorXd& u_in,
                           const Eigen::VectorXd& u_out, double reach, double u) {
  // Over s in [0, 1] the rounding covers the 2 reach of legs it replaces.
  return JointCurve::PieceAt(LegPoint(corner, u_in, -1, reach, 0.0, 2 * reach),
                             LegPoint(corner, u_out, +1, reach, 1.0, 2 * reach), u);
}

}  // namespace motion
