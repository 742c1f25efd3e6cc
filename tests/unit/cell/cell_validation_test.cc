// Cells of sliding spheres (sliding_sphere.h): two robots facing each other
// on one line, so the distance between their spheres is D - x_a(t) - x_b(t)
// - 2 r, and the instant they touch is written down by hand; a crossing so
// fast that no sample sees it; and the input errors.

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/Geometry>

#include "core/cell/cell_validation.h"
#include "sliding_sphere.h"

namespace motion {
namespace {

using motion_test::kSphereRadius;
using motion_test::Sample;
using motion_test::SlidingSphere;

// Robot b's base at (d, 0, 0) turned half a turn about z: its joint's
// positive direction points back at robot a.
Eigen::Isometry3d Facing(double d) {
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  X.translation() = Eigen::Vector3d(d, 0, 0);
  X.linear() = Eigen::AngleAxisd(M_PI, Eigen::Vector3d::UnitZ()).toRotationMatrix();
  return X;
}

// a: x = t over 1 s; b: still at 0, 1.1 m away, for 2 s. Centres
// 1.1 - min(t, 1) apart.
std::vector<CellRobotProgram> ReachingTheStillOne(double dt) {
  std::vector<CellRobotProgram> cell = {SlidingSphere("a", "1 0 0"), SlidingSphere("b", "1 0 0")};
  Sample(cell[0], 1.0, dt, [](double t) { return t; });
  Sample(cell[1], 2.0, dt, [](double) { return 0.0; });
  cell[1].X_CB = Facing(1.1);
  return cell;
}

TEST(CellValidationTest, ARobotReachingAStillOneTouchesItWhenTheGapCloses) {
  // They touch from t = 0.9 (1.1 - t < 2 r) and a holds at 1 m to the
  // cell's end (2 s), 0.1 m deep.
  const double dt = 0.01;
  const std::vector<CellRobotProgram> cell = ReachingTheStillOne(dt);
  CellOptions options;
  options.sample_time = dt;
  const absl::StatusOr<CellVerdict> v = ValidateCell(cell, *CollisionScene::Empty(), options);
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_FALSE(v->collision_free);
  ASSERT_EQ(v->contacts.size(), 1u);
  const CellContact& c = v->contacts[0];
  EXPECT_EQ(c.robot_a, "a");
  EXPECT_EQ(c.link_a, "slide");
  EXPECT_EQ(c.robot_b, "b");
  EXPECT_EQ(c.other, "slide");
  EXPECT_NEAR(c.start_time, 0.9, dt + 1e-9);
  EXPECT_GE(c.start_time, 0.9 - 1e-9);
  EXPECT_NEAR(c.end_time, 2.0, 1e-9);
  EXPECT_NEAR(c.depth, 2 * kSphereRadius - 0.1, 1e-9);
  EXPECT_NEAR(v->min_clearance, 0.1 - 2 * kSphereRadius, 1e-9);
}

TEST(CellValidationTest, TheClearanceAtEveryInstantIsTheGap) {
  // 1.1 - min(t, 1) - 2 r between the spheres at every instant.
  const double dt = 0.05;
  const std::vector<CellRobotProgram> cell = ReachingTheStillOne(dt);
  CellOptions options;
  options.sample_time = dt;
  options.record_clearance = true;
  const absl::StatusOr<CellVerdict> v = ValidateCell(cell, *CollisionScene::Empty(), options);
  ASSERT_TRUE(v.ok()) << v.status();
  ASSERT_EQ(v->clearance_times.size(), 41u);  // 0, 0.05, ..., 2
  ASSERT_EQ(v->clearance.size(), v->clearance_times.size());
  for (std::size_t k = 0; k < v->clearance.size(); ++k) {
    const double t = v->clearance_times[k];
    EXPECT_NEAR(t, k * dt, 1e-9);
    EXPECT_NEAR(v->clearance[k], 1.1 - std::min(t, 1.0) - 2 * kSphereRadius, 1e-9) << t;
  }
}

TEST(CellValidationTest, TwoRobotsMovingTogetherTouchWhenTheirSumCloses) {
  // Both x = 0.5 t over 2 s, bases 2 m apart: centres 2 - t apart, touching
  // from t = 1.8; both hold at 1 m after 2 s, and the cell ends there.
  const double dt = 0.02;
  std::vector<CellRobotProgram> cell = {SlidingSphere("a", "1 0 0"), SlidingSphere("b", "1 0 0")};
  for (CellRobotProgram& r : cell) Sample(r, 2.0, dt, [](double t) { return 0.5 * t; });
  cell[1].X_CB = Facing(2.0);
  CellOptions options;
  options.sample_time = dt;
  const absl::StatusOr<CellVerdict> v = ValidateCell(cell, *CollisionScene::Empty(), options);
  ASSERT_TRUE(v.ok()) << v.status();
  ASSERT_EQ(v->contacts.size(), 1u);
  EXPECT_NEAR(v->contacts[0].start_time, 1.8, dt + 1e-9);
  EXPECT_GE(v->contacts[0].start_time, 1.8 - 1e-9);
  EXPECT_NEAR(v->contacts[0].end_time, 2.0, 1e-9);
  // Started 0.3 s later, b is at 0.5 (2 - 0.3) = 0.85 m when a stops at
  // 1 m and reaches 1 m itself at 2.3 s: centres 0 m apart then.
  cell[1].start_time = 0.3;
  const absl::StatusOr<CellVerdict> late = ValidateCell(cell, *CollisionScene::Empty(), options);
  ASSERT_TRUE(late.ok());
  ASSERT_EQ(late->contacts.size(), 1u);
  EXPECT_NEAR(late->contacts[0].end_time, 2.3, 1e-9);
  // a's first 0.3 s alone close the gap by 0.15 m: contact from 1.95 s
  // (2 - 0.5 t - 0.5 (t - 0.3) = 0.2).
  EXPECT_NEAR(late->contacts[0].start_time, 1.95, dt + 1e-9);
}

TEST(CellValidationTest, FarApartTheBroadPhaseSkipsButTheMinimumStaysExact) {
  // Bases 5 m apart: a out to 1 m and back over 2 s, b out to 0.5 m over
  // 1 s from t = 0.6. x_a + x_b is 1.5 t - 0.3 on [0.6, 1] and 1.7 - 0.5 t
  // on [1, 1.6]: at most 1.2, at t = 1, so the nearest is 5 - 1.2 - 2 r.
  // No window's boxes meet: the broad phase skips all but the nearest.
  const double dt = 0.01;
  std::vector<CellRobotProgram> cell = {SlidingSphere("a", "1 0 0"), SlidingSphere("b", "1 0 0")};
  auto xa = [](double t) { return 1.0 - std::abs(t - 1.0); };
  auto xb = [](double t) { return 0.5 * std::min(t, 1.0); };
  Sample(cell[0], 2.0, dt, xa);
  Sample(cell[1], 1.0, dt, xb);
  cell[1].X_CB = Facing(5.0);
  cell[1].start_time = 0.6;
  CellOptions options;
  options.sample_time = dt;
  options.window = 8;
  const absl::StatusOr<CellVerdict> v = ValidateCell(cell, *CollisionScene::Empty(), options);
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_TRUE(v->collision_free);
  EXPECT_NEAR(v->min_clearance, 5.0 - 1.2 - 2 * kSphereRadius, 1e-9);
}

TEST(CellValidationTest, ACrossingBetweenTwoSamplesIsCaught) {
  // a slides along y from -1 to 1 at x = 0, b along y from 1 to -1 at
  // x = 0.05, both in one 0.1 s interval: at the samples 2 m apart, at
  // 0.05 s their centres are 0.05 m apart (< 2 r).
  std::vector<CellRobotProgram> cell = {SlidingSphere("a", "0 1 0"), SlidingSphere("b", "0 1 0")};
  Sample(cell[0], 0.1, 0.1, [](double t) { return -1.0 + 20.0 * t; });
  Sample(cell[1], 0.1, 0.1, [](double t) { return 1.0 - 20.0 * t; });
  ASSERT_EQ(cell[0].times.size(), 2u);
  cell[1].X_CB.translation() = Eigen::Vector3d(0.05, 0, 0);
  CellOptions options;
  options.sample_time = 0.1;
  const absl::StatusOr<CellVerdict> v = ValidateCell(cell, *CollisionScene::Empty(), options);
  ASSERT_TRUE(v.ok()) << v.status();
  ASSERT_EQ(v->contacts.size(), 1u);
  EXPECT_GT(v->contacts[0].start_time, 0.0);
  EXPECT_LT(v->contacts[0].end_time, 0.1);
  // Centres |40 t - 2| apart in y, 0.05 in x: in contact while
  // (40 t - 2)^2 < 0.2^2 - 0.05^2, i.e. |t - 0.05| < 0.00484 s.
  const double half = std::sqrt(0.04 - 0.0025) / 40.0;
  EXPECT_GE(v->contacts[0].start_time, 0.05 - half - 1e-9);
  EXPECT_LE(v->contacts[0].end_time, 0.05 + half + 1e-9);
  // 0.25 m apart in x: the spheres pass each other 0.05 m apart.
  cell[1].X_CB.translation() = Eigen::Vector3d(0.25, 0, 0);
  const absl::StatusOr<CellVerdict> apart = ValidateCell(cell, *CollisionScene::Empty(), options);
  ASSERT_TRUE(apart.ok());
  EXPECT_TRUE(apart->collision_free);
  EXPECT_GE(apart->min_clearance, 0.05 - 1e-9);
}

TEST(CellValidationTest, TheSceneIsInTheCellFrame) {
  // b's base 3 m along x and turned: its sphere is at (3 - 0.9 t, 0, 0). A
  // box at (2, 0, 0), 0.2 m wide, is touched once 3 - 0.9 t - 0.1 < 2.1,
  // i.e. t > 0.8 / 0.9; a, at 0.5 t at most 0.5 m out, never reaches it.
  const double dt = 0.01;
  std::vector<CellRobotProgram> cell = {SlidingSphere("a", "1 0 0"), SlidingSphere("b", "1 0 0")};
  Sample(cell[0], 1.0, dt, [](double t) { return 0.5 * t; });
  Sample(cell[1], 1.0, dt, [](double t) { return 0.9 * t; });
  cell[1].X_CB = Facing(3.0);
  CollisionObject box;
  box.id = "post";
  box.pose.position = Eigen::Vector3d(2.0, 0, 0);
  box.shape = CollisionShape::Box(Eigen::Vector3d(0.2, 0.2, 0.2));
  const std::shared_ptr<const CollisionScene> scene = *CollisionScene::Build({box});
  CellOptions options;
  options.sample_time = dt;
  const absl::StatusOr<CellVerdict> v = ValidateCell(cell, *scene, options);
  ASSERT_TRUE(v.ok()) << v.status();
  ASSERT_EQ(v->contacts.size(), 1u);
  EXPECT_EQ(v->contacts[0].robot_a, "b");
  EXPECT_EQ(v->contacts[0].robot_b, "");
  EXPECT_EQ(v->contacts[0].other, "post");
  EXPECT_NEAR(v->contacts[0].start_time, 0.8 / 0.9, dt + 1e-9);
  EXPECT_NEAR(v->contacts[0].end_time, 1.0, 1e-9);
  // The deepest: at 1 s the centre is on the box's face, 0.1 m deep.
  EXPECT_NEAR(v->contacts[0].depth, 0.1, 1e-6);
  EXPECT_NEAR(v->min_clearance, -0.1, 1e-6);
}

TEST(CellValidationTest, MalformedInputIsRefusedNamingTheField) {
  std::vector<CellRobotProgram> cell = {SlidingSphere("a", "1 0 0")};
  Sample(cell[0], 1.0, 0.1, [](double t) { return t; });
  CellOptions options;
  options.sample_time = 0.1;
  const CollisionScene& empty = *CollisionScene::Empty();
  auto message = [&](const std::vector<CellRobotProgram>& c, const CellOptions& o) {
    const absl::StatusOr<CellVerdict> v = ValidateCell(c, empty, o);
    EXPECT_EQ(v.status().code(), absl::StatusCode::kInvalidArgument);
    return std::string(v.status().message());
  };
  std::vector<CellRobotProgram> bad = cell;
  bad[0].start_time = -1.0;
  EXPECT_NE(message(bad, options).find("robots[0].start_time"), std::string::npos);
  bad[0].start_time = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(message(bad, options).find("robots[0].start_time"), std::string::npos);
  bad = cell;
  bad[0].times.clear();
  bad[0].positions.clear();
  EXPECT_NE(message(bad, options).find("robots[0].program"), std::string::npos);
  CellOptions o = options;
  o.sample_time = 0.0;
  EXPECT_NE(message(cell, o).find("sample_time"), std::string::npos);
  o = options;
  o.safety_margin = -0.1;
  EXPECT_NE(message(cell, o).find("safety_margin"), std::string::npos);
  o = options;
  o.max_instants = 5;
  EXPECT_NE(message(cell, o).find("instants"), std::string::npos);
}

}  // namespace
}  // namespace motion
