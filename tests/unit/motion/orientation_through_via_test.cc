// The orientation curve of a MoveC with orientation_mode VIA, against closed
// forms: through the three orientations exactly; about one fixed axis it is
// the rotation by the quadratic through the three angles; its angular
// velocity has no corner at the via (unlike slerping start -> via -> end).

#include <cmath>

#include <gtest/gtest.h>
#include <Eigen/Geometry>

#include "core/geometry/pose.h"
#include "core/motion/internal/orientation_through_via.h"

namespace motion {
namespace {

Eigen::Quaterniond About(const Eigen::Vector3d& axis, double angle) {
  return Eigen::Quaterniond(Eigen::AngleAxisd(angle, axis.normalized()));
}

// Angular velocity (rotation vector per unit sigma, in the start frame) by
// a one-sided difference of step h.
Eigen::Vector3d Rate(const OrientationThroughVia& curve, double sigma, double h) {
  const Eigen::Quaterniond d = curve.At(sigma).conjugate() * curve.At(sigma + h);
  const Eigen::AngleAxisd aa(d);
  return aa.axis() * aa.angle() / h;
}

TEST(OrientationThroughViaTest, PassesThroughStartViaAndEndExactly) {
  const Eigen::Quaterniond start = About({0.2, -0.5, 1.0}, 0.7);
  const Eigen::Quaterniond via = start * About({1.0, 0.3, 0.0}, 0.9);
  const Eigen::Quaterniond end = start * About({-0.4, 1.0, 0.6}, 1.4);
  for (double share : {0.2, 0.5, 0.83}) {
    const OrientationThroughVia curve(start, via, end, share);
    EXPECT_LT(RotationAngleBetween(curve.At(0.0), start), 1e-12);
    EXPECT_LT(RotationAngleBetween(curve.At(share), via), 1e-12);
    EXPECT_LT(RotationAngleBetween(curve.At(1.0), end), 1e-12);
  }
}

TEST(OrientationThroughViaTest, AboutOneAxisItIsTheQuadraticThroughTheThreeAngles) {
  const Eigen::Vector3d axis(0.3, 0.4, -0.87);
  const Eigen::Quaterniond start = About({1, 0, 0}, 0.4);
  const double a = 0.8, b = 0.3, v = 0.35;  // turn to 0.8 rad at the via, back to 0.3
  const OrientationThroughVia curve(start, start * About(axis, a), start * About(axis, b), v);
  for (int i = 0; i <= 100; ++i) {
    const double s = i / 100.0;
    // Lagrange through (0, 0), (v, a), (1, b), written out by hand.
    const double angle = a * s * (s - 1) / (v * (v - 1)) + b * s * (s - v) / (1 - v);
    EXPECT_LT(RotationAngleBetween(curve.At(s), start * About(axis, angle)), 1e-12) << s;
  }
  // Turned angle: up to the peak of the quadratic and back down to b.
  const double c2 = a / (v * (v - 1)) + b / (1 - v);  // s^2 coefficient
  const double c1 = -a / (v * (v - 1)) - b * v / (1 - v);
  const double s_peak = -c1 / (2 * c2);
  const double peak = c2 * s_peak * s_peak + c1 * s_peak;
  EXPECT_NEAR(curve.TurnedAngle(), peak + (peak - b), 1e-4);
}

TEST(OrientationThroughViaTest, AngularVelocityHasNoCornerAtTheVia) {
  const Eigen::Quaterniond start = Eigen::Quaterniond::Identity();
  const Eigen::Quaterniond via = About({0, 0, 1}, 0.6);
  const Eigen::Quaterniond end = via * About({1, 0, 0}, 0.6);
  const double v = 0.5, h = 1e-6;
  const OrientationThroughVia curve(start, via, end, v);
  const Eigen::Vector3d left = Rate(curve, v - h, h), right = Rate(curve, v, h);
  // Continuous: the two one-sided rates differ by O(h).
  EXPECT_LT((left - right).norm(), 1e-4);
  // Slerping start -> via, then via -> end, turns the rate by ~90 degrees.
  const Eigen::Vector3d slerp_left = Eigen::Vector3d(0, 0, 0.6) / v;
  const Eigen::Vector3d slerp_right = Eigen::Vector3d(0.6, 0, 0) / (1 - v);
  EXPECT_GT((slerp_left - slerp_right).norm(), 1.0);
}

}  // namespace
}  // namespace motion
