// ArcThroughPoints against circles built here: a chosen centre, radius,
// normal and start angle, with start / via / target generated on them.

#include "core/motion/internal/circle_geometry.h"

#include <cmath>
#include <random>

#include <gtest/gtest.h>

namespace motion {
namespace {

constexpr double kPi = 3.14159265358979323846;

struct HandCircle {
  Eigen::Vector3d center, normal, e1, e2;  // e1, e2, normal right-handed
  double radius;
  Eigen::Vector3d At(double angle) const {
    return center + radius * (std::cos(angle) * e1 + std::sin(angle) * e2);
  }
};

HandCircle MakeCircle(const Eigen::Vector3d& center, const Eigen::Vector3d& normal, double radius,
                      double start_angle) {
  HandCircle c;
  c.center = center;
  c.normal = normal.normalized();
  // Any unit vector perpendicular to the normal, turned by start_angle.
  Eigen::Vector3d helper =
      std::abs(c.normal.x()) < 0.9 ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitY();
  const Eigen::Vector3d a = (helper - helper.dot(c.normal) * c.normal).normalized();
  const Eigen::Vector3d b = c.normal.cross(a);
  c.e1 = std::cos(start_angle) * a + std::sin(start_angle) * b;
  c.e2 = c.normal.cross(c.e1);
  c.radius = radius;
  return c;
}

TEST(ArcThroughPointsTest, RecoversHandBuiltCircles) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> unit(0.0, 1.0), sym(-1.0, 1.0);
  for (int i = 0; i < 2000; ++i) {
    const Eigen::Vector3d normal(sym(rng), sym(rng), sym(rng));
    if (normal.norm() < 0.1) continue;
    const HandCircle c = MakeCircle(Eigen::Vector3d(sym(rng), sym(rng), sym(rng)), normal,
                                    0.01 + unit(rng), 2 * kPi * unit(rng));
    // Target anywhere in (0.05, 2 pi - 0.05), via strictly between.
    const double target_angle = 0.05 + (2 * kPi - 0.1) * unit(rng);
    const double via_angle = target_angle * (0.1 + 0.8 * unit(rng));
    const Eigen::Vector3d start = c.At(0), via = c.At(via_angle), end = c.At(target_angle);
    auto arc = ArcThroughPoints(start, via, end);
    ASSERT_TRUE(arc.ok()) << arc.status();
    const double tol = 1e-9 / std::sin(std::min(target_angle, 2 * kPi - target_angle) / 2);
    EXPECT_LT((arc->geometry.center - c.center).norm(), tol);
    EXPECT_NEAR(arc->geometry.radius, c.radius, tol);
    EXPECT_LT((arc->geometry.normal - c.normal).norm(), tol) << "sweep is ccw about the normal";
    EXPECT_NEAR(arc->geometry.angle, target_angle, tol);
    EXPECT_LT((arc->PointAt(0) - start).norm(), tol);
    EXPECT_LT((arc->PointAt(via_angle) - via).norm(), tol);
    EXPECT_LT((arc->PointAt(arc->geometry.angle) - end).norm(), tol);
  }
}

TEST(ArcThroughPointsTest, ClockwiseInputFlipsTheNormal) {
  // Unit circle in the xy plane: start (1,0), via at -90 deg, target at
  // 180 deg, i.e. clockwise seen from +z: normal -z, angle pi.
  auto arc = ArcThroughPoints({1, 0, 0}, {0, -1, 0}, {-1, 0, 0});
  ASSERT_TRUE(arc.ok()) << arc.status();
  EXPECT_LT(arc->geometry.center.norm(), 1e-15);
  EXPECT_NEAR(arc->geometry.radius, 1.0, 1e-15);
  EXPECT_LT((arc->geometry.normal - Eigen::Vector3d(0, 0, -1)).norm(), 1e-15);
  EXPECT_NEAR(arc->geometry.angle, kPi, 1e-15);
  // Major arc: start (1,0), via at 200 deg, target at 90 deg going ccw:
  // 0 -> 200 -> 90 is only possible clockwise, sweeping 270 deg.
  auto major = ArcThroughPoints(
      {1, 0, 0}, {std::cos(200 * kPi / 180), std::sin(200 * kPi / 180), 0}, {0, 1, 0});
  ASSERT_TRUE(major.ok()) << major.status();
  EXPECT_LT((major->geometry.normal - Eigen::Vector3d(0, 0, -1)).norm(), 1e-12);
  EXPECT_NEAR(major->geometry.angle, 1.5 * kPi, 1e-12);
}

TEST(ArcThroughPointsTest, DegenerateInputsFail) {
  const Eigen::Vector3d s(0.4, 0.1, 0.3), v(0.5, 0.2, 0.3), t(0.4, 0.3, 0.3);
  for (auto [start, via, end] :
       {std::make_tuple(s, s, t), std::make_tuple(s, v, s), std::make_tuple(s, t, t),
        std::make_tuple(s, s, s), std::make_tuple(s, Eigen::Vector3d(0.5 * (s + t)), t),
        std::make_tuple(s, Eigen::Vector3d(2 * t - s), t)}) {
    auto arc = ArcThroughPoints(start, via, end);
    ASSERT_FALSE(arc.ok()) << start.transpose() << " | " << via.transpose() << " | "
                           << end.transpose();
    EXPECT_EQ(arc.status().code(), absl::StatusCode::kFailedPrecondition);
  }
}

}  // namespace
}  // namespace motion
