// PlanJointPath finding paths: around a wall in front of a UR5, around a
// box that a planar arm can only pass in a way closed-form geometry gives,
// straight when nothing is in the way, and the same path for the same seed.
// Every path is judged by the test's own dense sampling (planning_test_support.h).

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "core/planning/joint_path_planner.h"
#include "planning_test_support.h"
#include "unit_test_support.h"

namespace motion {
namespace {

using motion_test::Box;
using motion_test::Vec;

motion_test::CollisionRobot Ur5() {
  return motion_test::LoadCollisionRobot(motion_test::ReadRobotFile("ur5.urdf"));
}
motion_test::CollisionRobot PlanarArm() {
  return motion_test::LoadCollisionRobot(motion_test::kPlanarArm);
}

// The UR5 reaching forward-right and forward-left at tool height ~0.23 m; a
// wall 4 cm thick stands between the two in the plane y = 0.
struct Ur5Wall {
  motion_test::CollisionRobot robot = Ur5();
  std::shared_ptr<const CollisionScene> scene =
      motion_test::Scene({{"wall", {0.55, 0.0, 0.3}, {0.4, 0.04, 0.6}}});
  Eigen::VectorXd start = Vec({-1.0, -1.0, 1.6, -2.2, -1.57, 0.0});
  Eigen::VectorXd goal = Vec({1.0, -1.0, 1.6, -2.2, -1.57, 0.0});
};

TEST(JointPathPlannerTest, GoesAroundAWallInFrontOfAUr5) {
  const Ur5Wall p;
  ChainData data(*p.robot.chain);
  // The straight motion hits the wall (dense samples, trajectory checker).
  const std::vector<TrajectoryContact> straight = motion_test::ContactsAlong(
      p.robot, *p.scene, motion_test::DenseSamples(p.start, p.goal, 1e-3), {});
  ASSERT_FALSE(straight.empty());
  EXPECT_EQ(straight[0].other, "wall");

  const auto result =
      PlanJointPath(*p.robot.chain, data, *p.robot.collision, *p.scene, p.start, p.goal, {});
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_EQ(result->outcome, JointPathOutcome::kFound) << JointPathOutcomeName(result->outcome);
  motion_test::ExpectValidPath(p.robot, *p.scene, p.start, p.goal, result->waypoints, {});
  const JointPathStats& s = result->stats;
  EXPECT_GT(s.start_tree_nodes, 0);
  EXPECT_GT(s.goal_tree_nodes, 0);
  EXPECT_GT(s.iterations, 0);
  EXPECT_GT(s.edge_checks, 0);
  EXPECT_GT(s.configuration_checks, s.start_tree_nodes);
  // Shortcutting never lengthens a path, and no path beats the straight line.
  EXPECT_LE(s.length_after_shortcut, s.length_before_shortcut + 1e-12);
  EXPECT_GE(s.length_after_shortcut, (p.goal - p.start).norm());
}

TEST(JointPathPlannerTest, ASafetyMarginIsKeptAlongTheWholePath) {
  const Ur5Wall p;
  ChainData data(*p.robot.chain);
  JointPathOptions options;
  options.safety_margin = 0.02;
  const auto result =
      PlanJointPath(*p.robot.chain, data, *p.robot.collision, *p.scene, p.start, p.goal, options);
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_EQ(result->outcome, JointPathOutcome::kFound) << JointPathOutcomeName(result->outcome);
  CollisionQuery query;
  query.safety_margin = 0.02;
  motion_test::ExpectValidPath(p.robot, *p.scene, p.start, p.goal, result->waypoints, query);
}

// The planar arm from elbow-left (0, 1.2) to elbow-right (0, -1.2) with a
// box x in [0.6, 1.0], |y| <= 0.1 in front of it. q2 must pass 0 (its
// limits are +-2.5, it cannot go round), and when it does the arm is one
// straight segment of 0.9 m at angle q1: it misses the box's corner
// (0.6, +-0.1) by more than the capsule radius 0.05 only when
//   |q1| >= atan2(0.1, 0.6) + asin(0.05 / hypot(0.6, 0.1)) = 0.2474 rad.
struct PlanarDetour {
  motion_test::CollisionRobot robot = PlanarArm();
  std::shared_ptr<const CollisionScene> scene =
      motion_test::Scene({{"block", {0.8, 0.0, 0.0}, {0.4, 0.2, 0.4}}});
  Eigen::VectorXd start = Vec({0.0, 1.2});
  Eigen::VectorXd goal = Vec({0.0, -1.2});
};

const double kSmallestSwing =
    std::atan2(0.1, 0.6) + std::asin(motion_test::kCapsuleRadius / std::hypot(0.6, 0.1));

// |q1| wherever the path crosses q2 = 0 (linearly interpolated on the edge).
std::vector<double> SwingsAtStraightElbow(const std::vector<Eigen::VectorXd>& path) {
  std::vector<double> swings;
  for (std::size_t i = 0; i + 1 < path.size(); ++i) {
    const Eigen::VectorXd &a = path[i], &b = path[i + 1];
    if ((a[1] > 0) == (b[1] > 0) && a[1] != 0) continue;
    const double t = a[1] / (a[1] - b[1]);
    swings.push_back(std::abs(a[0] + t * (b[0] - a[0])));
  }
  return swings;
}

TEST(JointPathPlannerTest, APlanarArmSwingsAsFarAsTheGeometryDemands) {
  const PlanarDetour p;
  ChainData data(*p.robot.chain);
  ASSERT_GT(kSmallestSwing, 0.247);
  ASSERT_LT(kSmallestSwing, 0.248);
  const auto result =
      PlanJointPath(*p.robot.chain, data, *p.robot.collision, *p.scene, p.start, p.goal, {});
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_EQ(result->outcome, JointPathOutcome::kFound) << JointPathOutcomeName(result->outcome);
  motion_test::ExpectValidPath(p.robot, *p.scene, p.start, p.goal, result->waypoints, {}, 5e-4);
  const std::vector<double> swings = SwingsAtStraightElbow(result->waypoints);
  ASSERT_FALSE(swings.empty());
  for (double swing : swings) EXPECT_GE(swing, kSmallestSwing);
}

TEST(JointPathPlannerTest, TheSameSeedGivesTheSamePathBitForBit) {
  const PlanarDetour p;
  ChainData data(*p.robot.chain);
  JointPathOptions options;
  options.seed = 42;
  const auto first =
      PlanJointPath(*p.robot.chain, data, *p.robot.collision, *p.scene, p.start, p.goal, options);
  const auto second =
      PlanJointPath(*p.robot.chain, data, *p.robot.collision, *p.scene, p.start, p.goal, options);
  options.seed = 43;
  const auto other =
      PlanJointPath(*p.robot.chain, data, *p.robot.collision, *p.scene, p.start, p.goal, options);
  ASSERT_TRUE(first.ok() && second.ok() && other.ok());
  ASSERT_EQ(first->outcome, JointPathOutcome::kFound);
  ASSERT_EQ(other->outcome, JointPathOutcome::kFound);
  ASSERT_EQ(first->waypoints.size(), second->waypoints.size());
  for (std::size_t i = 0; i < first->waypoints.size(); ++i) {
    for (int k = 0; k < 2; ++k) {
      EXPECT_EQ(first->waypoints[i][k], second->waypoints[i][k]) << i << " " << k;
    }
  }
  EXPECT_EQ(first->stats.iterations, second->stats.iterations);
  EXPECT_EQ(first->stats.configuration_checks, second->stats.configuration_checks);
  // Another seed: another path (for these two seeds), as valid.
  bool differs = first->waypoints.size() != other->waypoints.size();
  for (std::size_t i = 0; !differs && i < first->waypoints.size(); ++i) {
    differs = first->waypoints[i] != other->waypoints[i];
  }
  EXPECT_TRUE(differs);
  motion_test::ExpectValidPath(p.robot, *p.scene, p.start, p.goal, other->waypoints, {}, 5e-4);
}

TEST(JointPathPlannerTest, AClearStraightMotionIsReturnedAsItIs) {
  const PlanarDetour p;
  ChainData data(*p.robot.chain);
  // Both ends elbow-left: q2 stays 1.2, the box is never near.
  const Eigen::VectorXd goal = Vec({0.8, 1.2});
  const auto result =
      PlanJointPath(*p.robot.chain, data, *p.robot.collision, *p.scene, p.start, goal, {});
  ASSERT_TRUE(result.ok());
  ASSERT_EQ(result->outcome, JointPathOutcome::kStraightLineClear);
  ASSERT_EQ(result->waypoints.size(), 2u);
  EXPECT_EQ(result->waypoints[0], p.start);
  EXPECT_EQ(result->waypoints[1], goal);
  EXPECT_EQ(result->stats.iterations, 0);
  motion_test::ExpectValidPath(p.robot, *p.scene, p.start, goal, result->waypoints, {});
}

}  // namespace
}  // namespace motion
