// RoundCorners judged by geometry alone: outside its roundings the curve is
// on the straight legs (distance to the line, computed here), inside them it
// stays in the triangle of the corner and the two points where it leaves and
// rejoins the legs; it is continuous to its second derivative at every knot
// (one-sided divided differences of positions, the curve's own derivatives
// not used); |dq/ds| is the polyline's length on every straight piece; the
// deepest point of a rounding is the closed form 0.1875 r |u_out - u_in|
// from the corner.

#include "core/motion/internal/rounded_joint_path.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/QR>
#include "unit_test_support.h"

namespace motion {
namespace {

using motion_test::Vec;

Eigen::VectorXd At(const JointCurve& curve, double s) {
  Eigen::VectorXd q;
  curve.Evaluate(s, q);
  return q;
}

double DistanceToSegment(const Eigen::VectorXd& p, const Eigen::VectorXd& a,
                         const Eigen::VectorXd& b) {
  const double t = std::clamp((p - a).dot(b - a) / (b - a).squaredNorm(), 0.0, 1.0);
  return (a + t * (b - a) - p).norm();
}

// Three legs in 3 joints; the middle corner turns joint 0 back.
const std::vector<Eigen::VectorXd> kWaypoints = {Vec({0.0, 0.0, 0.0}), Vec({1.0, 0.2, 0.0}),
                                                 Vec({0.3, 0.9, 0.4}), Vec({0.5, 1.5, -0.2})};

TEST(RoundedJointPathTest, StraightOnTheLegsAndInsideTheCornerElsewhere) {
  const std::vector<double> reach = {0.2, 10.0};  // the second clamped to 0.45 of a leg
  const RoundedJointPath path = RoundCorners(kWaypoints, reach);
  ASSERT_EQ(path.corner_s.size(), 2u);
  double total = 0.0;
  std::vector<double> length;
  for (std::size_t i = 1; i < kWaypoints.size(); ++i) {
    length.push_back((kWaypoints[i] - kWaypoints[i - 1]).norm());
    total += length.back();
  }
  EXPECT_DOUBLE_EQ(path.reach[0], 0.2);
  EXPECT_NEAR(path.reach[1], 0.45 * std::min(length[1], length[2]), 1e-15);
  EXPECT_TRUE(At(path.curve, 0.0) == kWaypoints.front());
  EXPECT_LT((At(path.curve, 1.0) - kWaypoints.back()).norm(), 1e-14);
  EXPECT_TRUE(path.curve.last().q == kWaypoints.back());
  double along = 0.0;
  for (std::size_t k = 0; k < 2; ++k) {
    along += length[k];
    EXPECT_NEAR(path.corner_s[k], along / total, 1e-15);
  }
  for (int i = 0; i <= 4000; ++i) {
    const double s = i / 4000.0;
    const Eigen::VectorXd q = At(path.curve, s);
    bool rounding = false;
    for (std::size_t k = 0; k < 2; ++k) {
      const double half = path.reach[k] / total;
      if (std::abs(s - path.corner_s[k]) >= half) continue;
      rounding = true;
      // Inside the triangle (leave point, corner, rejoin point): the
      // barycentric weights of q are in [0, 1] (the three points span a
      // plane; q is in it to rounding).
      const Eigen::VectorXd& c = kWaypoints[k + 1];
      const Eigen::VectorXd a = c - path.reach[k] * (c - kWaypoints[k]).normalized();
      const Eigen::VectorXd b = c + path.reach[k] * (kWaypoints[k + 2] - c).normalized();
      Eigen::MatrixXd m(3, 2);
      m << a - c, b - c;
      const Eigen::Vector2d w = m.colPivHouseholderQr().solve(q - c);
      EXPECT_LT((m * w - (q - c)).norm(), 1e-12) << "in the corner's plane, s = " << s;
      EXPECT_GE(w[0], -1e-12);
      EXPECT_GE(w[1], -1e-12);
      EXPECT_LE(w[0] + w[1], 1 + 1e-12);
    }
    if (rounding) continue;
    double off = 1e9;
    for (std::size_t l = 0; l + 1 < kWaypoints.size(); ++l) {
      off = std::min(off, DistanceToSegment(q, kWaypoints[l], kWaypoints[l + 1]));
    }
    EXPECT_LT(off, 1e-12) << "on a leg at s = " << s;
  }
  // The deepest point of each rounding, at its middle.
  for (std::size_t k = 0; k < 2; ++k) {
    const Eigen::VectorXd u_in = (kWaypoints[k + 1] - kWaypoints[k]).normalized();
    const Eigen::VectorXd u_out = (kWaypoints[k + 2] - kWaypoints[k + 1]).normalized();
    EXPECT_NEAR((At(path.curve, path.corner_s[k]) - kWaypoints[k + 1]).norm(),
                0.1875 * path.reach[k] * (u_out - u_in).norm(), 1e-12);
  }
}

TEST(RoundedJointPathTest, ContinuousToTheSecondDerivativeWithConstantSpeedOnTheLegs) {
  const RoundedJointPath path = RoundCorners(kWaypoints, {0.3, 0.25});
  double total = 0.0;
  for (std::size_t i = 1; i < kWaypoints.size(); ++i) {
    total += (kWaypoints[i] - kWaypoints[i - 1]).norm();
  }
  const double h = 1e-4;
  // One-sided differences on each side of every knot agree: first
  // derivative to O(h), second to O(h) as well (third is bounded).
  for (double s : path.curve.knots()) {
    if (s - 3 * h < 0 || s + 3 * h > 1) continue;
    const Eigen::VectorXd q0 = At(path.curve, s);
    const Eigen::VectorXd l1 = At(path.curve, s - h), l2 = At(path.curve, s - 2 * h);
    const Eigen::VectorXd r1 = At(path.curve, s + h), r2 = At(path.curve, s + 2 * h);
    const Eigen::VectorXd left_d1 = (3 * q0 - 4 * l1 + l2) / (2 * h);
    const Eigen::VectorXd right_d1 = (-3 * q0 + 4 * r1 - r2) / (2 * h);
    EXPECT_LT((left_d1 - right_d1).norm(), 1e-3 * total) << "s = " << s;
    const Eigen::VectorXd left_d2 = (q0 - 2 * l1 + l2) / (h * h);
    const Eigen::VectorXd right_d2 = (q0 - 2 * r1 + r2) / (h * h);
    // |q''| reaches total^2 / reach in a rounding: a jump would show at
    // that scale.
    EXPECT_LT((left_d2 - right_d2).norm(), 1e-2 * total * total / 0.25) << "s = " << s;
    // Every knot borders a straight piece, where the speed in s is the
    // polyline's length, and the rounding on its other side matches it.
    EXPECT_NEAR(left_d1.norm(), total, 1e-4 * total) << "s = " << s;
    EXPECT_NEAR(right_d1.norm(), total, 1e-4 * total) << "s = " << s;
  }
}

}  // namespace
}  // namespace motion

namespace motion {
namespace {

// RoundingAt is the rounding RoundCorners puts into the curve (evaluated at
// the same point of both), and that is the closed form worked out by hand
// from the Hermite conditions: c - r u_in + 2 r u u_in + r (2u^3 - u^4) (u_out - u_in).
TEST(RoundedJointPathTest, RoundingAtIsTheCurvesRoundingAndItsClosedForm) {
  const RoundedJointPath path = RoundCorners(kWaypoints, {0.2, 0.25});
  double total = 0.0;
  for (std::size_t i = 1; i < kWaypoints.size(); ++i) {
    total += (kWaypoints[i] - kWaypoints[i - 1]).norm();
  }
  for (std::size_t k = 0; k < 2; ++k) {
    const Eigen::VectorXd& c = kWaypoints[k + 1];
    const Eigen::VectorXd u_in = (c - kWaypoints[k]).normalized();
    const Eigen::VectorXd u_out = (kWaypoints[k + 2] - c).normalized();
    const double r = path.reach[k];
    for (double u : {0.0, 0.1, 0.37, 0.5, 0.8, 1.0}) {
      const Eigen::VectorXd closed =
          c - r * u_in + 2 * r * u * u_in + r * (2 * u * u * u - u * u * u * u) * (u_out - u_in);
      EXPECT_LT((RoundingAt(c, u_in, u_out, r, u) - closed).norm(), 1e-13) << k << " " << u;
      const double s = path.corner_s[k] + (2 * u - 1) * r / total;
      EXPECT_LT((At(path.curve, s) - closed).norm(), 1e-12) << k << " " << u;
    }
  }
}

}  // namespace
}  // namespace motion
