#pragma once

#include <vector>

#include <Eigen/Core>

#include "core/motion/internal/joint_curve.h"

namespace motion {

/// \brief The longest share of a leg one corner's rounding may take, so
/// that the roundings at both ends of a leg leave a straight piece between
/// them.
inline constexpr double kMaxRoundingShare = 0.45;

/// \brief A joint polyline with its corners rounded: `waypoints` (at least
/// two, consecutive ones distinct) joined by straight legs, the corner at
/// each interior waypoint k replaced by a quintic from the point `reach[k-1]`
/// (rad, joint-space distance) before it on the leg in to the point as far
/// after it on the leg out (reach > 0, at most kMaxRoundingShare of either
/// leg: clamped to that), as one JointCurve over s in [0, 1].
///
/// s runs in proportion to joint-space length along the legs, a rounding
/// counting as the 2 reach it replaces, so |dq/ds| is the same on every
/// straight piece and at both ends of each rounding. The rounding matches
/// position, direction and speed in s and has zero second derivative at both
/// of its ends: the curve is continuous to its second derivative. Its
/// Bezier control points all lie on the two legs within `reach` of the
/// corner, so it stays inside their convex hull (inside the joint limits
/// when the waypoints are) and passes within 0.1875 reach |u_out - u_in| of
/// the corner (u: the legs' unit directions).
struct RoundedJointPath {
  JointCurve curve;
  std::vector<double> corner_s;  ///< s of the middle of each rounding
  std::vector<double> reach;     ///< as used (after clamping), per corner
};
RoundedJointPath RoundCorners(const std::vector<Eigen::VectorXd>& waypoints,
                              const std::vector<double>& reach);

/// \brief The point at fraction u in [0, 1] of the rounding RoundCorners
/// puts at `corner` over `reach` (u_in, u_out: the legs' unit directions),
/// without building a curve.
Eigen::VectorXd RoundingAt(const Eigen::VectorXd& corner, const Eigen::VectorXd& u_in,
                           const Eigen::VectorXd& u_out, double reach, double u);

}  // namespace motion
