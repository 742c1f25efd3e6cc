// Start delays for two (three) sliding spheres facing each other on one
// line, each going out 1 m and back in 2 s (x(t) = 1 - |t - 1|): with b
// delayed by s <= 1 the largest x_a + x_b is 2 - s, so bases D apart meet
// exactly when 2 - s > D - 2 r. The smallest safe delay is written down by
// hand.

#include <cmath>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/Geometry>

#include "core/cell/cell_validation.h"
#include "core/cell/start_time_search.h"
#include "sliding_sphere.h"

namespace motion {
namespace {

using motion_test::kSphereRadius;
using motion_test::Sample;
using motion_test::SlidingSphere;

CellRobotProgram OutAndBack(const std::string& name, const Eigen::Isometry3d& X_CB, double dt) {
  CellRobotProgram r = SlidingSphere(name, "1 0 0");
  Sample(r, 2.0, dt, [](double t) { return 1.0 - std::abs(t - 1.0); });
  r.X_CB = X_CB;
  return r;
}

Eigen::Isometry3d At(double x, bool facing_back) {
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  X.translation() = Eigen::Vector3d(x, 0, 0);
  if (facing_back)
    X.linear() = Eigen::AngleAxisd(M_PI, Eigen::Vector3d::UnitZ()).toRotationMatrix();
  return X;
}

TEST(StartTimeSearchTest, TheSmallestDelayToWithinOneSample) {
  const double dt = 0.01;
  const double d = 2.0;  // 2 - s > 1.8 while s < 0.2
  std::vector<CellRobotProgram> cell = {OutAndBack("a", At(0, false), dt),
                                        OutAndBack("b", At(d, true), dt)};
  CellOptions options;
  options.sample_time = dt;
  const CollisionScene& empty = *CollisionScene::Empty();
  const absl::StatusOr<CellVerdict> together = ValidateCell(cell, empty, options);
  ASSERT_TRUE(together.ok());
  EXPECT_FALSE(together->collision_free);
  const absl::StatusOr<StartTimeSuggestion> s = SuggestStartTimes(cell, empty, options);
  ASSERT_TRUE(s.ok()) << s.status();
  ASSERT_TRUE(s->found) << s->reason;
  ASSERT_EQ(s->start_times.size(), 2u);
  EXPECT_EQ(s->start_times[0], 0.0);
  const double exact = 2.0 - (d - 2 * kSphereRadius);
  EXPECT_GE(s->start_times[1], exact - dt - 1e-9);
  EXPECT_LE(s->start_times[1], exact + dt + 1e-9);
  // The suggestion is clear, and one sample earlier is not (it is the
  // smallest on the grid).
  cell[1].start_time = s->start_times[1];
  const absl::StatusOr<CellVerdict> clear = ValidateCell(cell, empty, options);
  ASSERT_TRUE(clear.ok());
  EXPECT_TRUE(clear->collision_free);
  // Clearance at the plateau: D - 2 r - (2 - s).
  EXPECT_NEAR(clear->min_clearance, d - 2 * kSphereRadius - (2.0 - s->start_times[1]), 1e-9);
  cell[1].start_time = s->start_times[1] - dt;
  const absl::StatusOr<CellVerdict> early = ValidateCell(cell, empty, options);
  ASSERT_TRUE(early.ok());
  EXPECT_FALSE(early->collision_free);
}

TEST(StartTimeSearchTest, TheOrderIsKeptRobotByRobot) {
  // c slides along y from (1.4, -1) to (1.4, 0) and back, across b's line
  // but never within 0.4 m of a: b's delay is the two-robot one (greedy, a
  // and b alone), c's start no earlier than b's, and the whole clear.
  const double dt = 0.01;
  CellRobotProgram c = SlidingSphere("c", "0 1 0");
  Sample(c, 2.0, dt, [](double t) { return 1.0 - std::abs(t - 1.0); });
  c.X_CB.translation() = Eigen::Vector3d(1.4, -1.0, 0);
  std::vector<CellRobotProgram> cell = {OutAndBack("a", At(0, false), dt),
                                        OutAndBack("b", At(2.0, true), dt), c};
  CellOptions options;
  options.sample_time = dt;
  const absl::StatusOr<StartTimeSuggestion> s =
      SuggestStartTimes(cell, *CollisionScene::Empty(), options);
  ASSERT_TRUE(s.ok()) << s.status();
  ASSERT_TRUE(s->found) << s->reason;
  EXPECT_EQ(s->start_times[0], 0.0);
  EXPECT_NEAR(s->start_times[1], 0.2, dt + 1e-9);
  EXPECT_LE(s->start_times[1], s->start_times[2]);
  for (std::size_t k = 0; k < cell.size(); ++k) cell[k].start_time = s->start_times[k];
  const absl::StatusOr<CellVerdict> v = ValidateCell(cell, *CollisionScene::Empty(), options);
  ASSERT_TRUE(v.ok());
  EXPECT_TRUE(v->collision_free);
}

TEST(StartTimeSearchTest, NoDelayHelpsAStartInTheWay) {
  // b's sphere starts 0.15 m from a's path: a reaches it whenever b starts.
  const double dt = 0.02;
  std::vector<CellRobotProgram> cell = {OutAndBack("a", At(0, false), dt),
                                        OutAndBack("b", At(1.15, true), dt)};
  CellOptions options;
  options.sample_time = dt;
  const absl::StatusOr<StartTimeSuggestion> s =
      SuggestStartTimes(cell, *CollisionScene::Empty(), options);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_FALSE(s->found);
  EXPECT_NE(s->reason.find("horizon"), std::string::npos) << s->reason;
}

}  // namespace
}  // namespace motion
