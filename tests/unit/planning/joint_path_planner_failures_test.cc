// PlanJointPath saying why it has no path: start or goal in collision (and
// with what), outside the limits, a goal no path reaches (caged), a cancel,
// a timeout, and bad input as InvalidArgument.

#include <cmath>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "absl/status/status.h"
#include "core/planning/joint_path_planner.h"
#include "planning_test_support.h"
#include "unit_test_support.h"

namespace motion {
namespace {

using motion_test::Vec;

struct Planar {
  motion_test::CollisionRobot robot = motion_test::LoadCollisionRobot(motion_test::kPlanarArm);
  ChainData data{*robot.chain};

  absl::StatusOr<JointPathResult> Plan(const CollisionScene& scene, const Eigen::VectorXd& start,
                                       const Eigen::VectorXd& goal,
                                       const JointPathOptions& options = {}) {
    return PlanJointPath(*robot.chain, data, *robot.collision, scene, start, goal, options);
  }
};

// At q = (0, 0) the arm lies along +x to 0.9 m; a pillar at x = 0.7 is in it.
const std::vector<motion_test::Box> kPillar = {{"pillar", {0.7, 0.0, 0.0}, {0.1, 0.1, 0.4}}};

TEST(JointPathPlannerFailuresTest, AGoalInsideAnObstacleNamesIt) {
  Planar p;
  const auto scene = motion_test::Scene(kPillar);
  const auto result = p.Plan(*scene, Vec({1.5, 0.0}), Vec({0.0, 0.0}));
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->outcome, JointPathOutcome::kGoalInCollision);
  ASSERT_EQ(result->contacts.size(), 1u);
  EXPECT_EQ(result->contacts[0].link, "link2");
  EXPECT_EQ(result->contacts[0].other, "pillar");
  // link2's axis runs through the pillar's centre: 0.05 + 0.05 deep.
  EXPECT_NEAR(result->contacts[0].depth, 0.1, 1e-6);
  EXPECT_TRUE(result->waypoints.empty());
}

TEST(JointPathPlannerFailuresTest, AStartInCollisionNamesThePair) {
  Planar p;
  const auto scene = motion_test::Scene(kPillar);
  const auto result = p.Plan(*scene, Vec({0.0, 0.0}), Vec({1.5, 0.0}));
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->outcome, JointPathOutcome::kStartInCollision);
  ASSERT_EQ(result->contacts.size(), 1u);
  EXPECT_EQ(result->contacts[0].link, "link2");
  EXPECT_EQ(result->contacts[0].other, "pillar");
}

TEST(JointPathPlannerFailuresTest, JointsBeyondTheirLimitsAreOutcomes) {
  Planar p;
  const auto scene = motion_test::Scene({});
  auto result = p.Plan(*scene, Vec({0.0, 0.5}), Vec({0.0, 2.6}));  // joint2 up to 2.5
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->outcome, JointPathOutcome::kGoalOutsideLimits);
  EXPECT_EQ(result->joint_outside_limits, 1);
  result = p.Plan(*scene, Vec({-3.2, 0.5}), Vec({0.0, 0.5}));
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->outcome, JointPathOutcome::kStartOutsideLimits);
  EXPECT_EQ(result->joint_outside_limits, 0);
}

TEST(JointPathPlannerFailuresTest, BadInputIsInvalidArgument) {
  Planar p;
  const auto scene = motion_test::Scene({});
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto r = p.Plan(*scene, Vec({0.0}), Vec({0.0, 0.5}));
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("start"), absl::string_view::npos);
  r = p.Plan(*scene, Vec({0.0, 0.5}), Vec({nan, 0.5}));
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("goal[0]"), absl::string_view::npos);
  JointPathOptions options;
  options.step = 0.0;
  r = p.Plan(*scene, Vec({0.0, 0.5}), Vec({1.0, 0.5}), options);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("options.step"), absl::string_view::npos);
  options = {};
  options.resolution = nan;
  r = p.Plan(*scene, Vec({0.0, 0.5}), Vec({1.0, 0.5}), options);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  options = {};
  options.shortcut_patience = 0;
  r = p.Plan(*scene, Vec({0.0, 0.5}), Vec({1.0, 0.5}), options);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("options.shortcut_patience"), absl::string_view::npos);
}

// The goal (0, -1.2) with link2 in a slot: walls 5 mm either side of its
// capsule from 0.08 m along it to past the tool, and an end wall. Link2's
// line can only move if the elbow moves, and the elbow (on a circle of
// 0.5 m about the base) cannot move 1.5 cm without link2 touching a wall:
// the goal is caged, while it and the start are clear.
std::vector<motion_test::Box> Cage() {
  const double angle = -1.2;
  const Eigen::Vector3d elbow(0.5, 0.0, 0.0);
  const Eigen::Vector3d along(std::cos(angle), std::sin(angle), 0.0);
  const Eigen::Vector3d across(-along.y(), along.x(), 0.0);
  std::vector<motion_test::Box> boxes;
  // Boxes are axis-aligned: the walls are rows of cubes 1 cm apart along
  // the slot, 1.41 cm wide, so that they overlap into a wall at any angle.
  const double offset = motion_test::kCapsuleRadius + 0.005 + 0.01;
  int n = 0;
  for (double s = 0.08; s <= 0.47; s += 0.01) {
    for (double side : {-1.0, 1.0}) {
      boxes.push_back({"cage" + std::to_string(n++), elbow + s * along + side * offset * across,
                       Eigen::Vector3d(0.02, 0.02, 0.2) * (1.0 / std::sqrt(2.0))});
    }
  }
  for (double w = -offset; w <= offset; w += 0.01) {
    boxes.push_back({"cage" + std::to_string(n++), elbow + 0.47 * along + w * across,
                     Eigen::Vector3d(0.02, 0.02, 0.2)});
  }
  return boxes;
}

TEST(JointPathPlannerFailuresTest, ACagedGoalIsNoPathWithinBudget) {
  Planar p;
  const auto scene = motion_test::Scene(Cage());
  JointPathOptions options;
  options.max_iterations = 2000;
  options.timeout = 30.0;  // the iteration budget, not the clock, ends it
  const auto result = p.Plan(*scene, Vec({1.5, 1.0}), Vec({0.0, -1.2}), options);
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_EQ(result->outcome, JointPathOutcome::kNoPathWithinBudget)
      << JointPathOutcomeName(result->outcome);
  EXPECT_FALSE(result->stats.timed_out);
  EXPECT_EQ(result->stats.iterations, 2000);
  EXPECT_GT(result->stats.start_tree_nodes, 10);
  EXPECT_GE(result->stats.goal_tree_nodes, 1);
  EXPECT_GT(result->stats.configuration_checks, 2000);
  EXPECT_GT(result->stats.edge_checks, 1000);
  EXPECT_TRUE(result->waypoints.empty());
}

TEST(JointPathPlannerFailuresTest, ACancelStopsTheSearch) {
  Planar p;
  const auto scene = motion_test::Scene(Cage());
  JointPathOptions options;
  options.max_iterations = 1000000;
  options.timeout = 60.0;
  int polls = 0;
  options.cancelled = [&polls] { return ++polls >= 3; };
  const auto result = p.Plan(*scene, Vec({1.5, 1.0}), Vec({0.0, -1.2}), options);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->outcome, JointPathOutcome::kCancelled);
  EXPECT_EQ(polls, 3);
  EXPECT_LE(result->stats.iterations, 3 * 32);
  EXPECT_LT(result->stats.total_seconds, 1.0);
}

TEST(JointPathPlannerFailuresTest, ATimeoutEndsTheSearchAndSaysSo) {
  Planar p;
  const auto scene = motion_test::Scene(Cage());
  JointPathOptions options;
  options.max_iterations = 100000000;
  options.timeout = 0.02;
  const auto result = p.Plan(*scene, Vec({1.5, 1.0}), Vec({0.0, -1.2}), options);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->outcome, JointPathOutcome::kNoPathWithinBudget);
  EXPECT_TRUE(result->stats.timed_out);
  EXPECT_LT(result->stats.iterations, 100000000);
  EXPECT_LT(result->stats.total_seconds, 0.5);
}

}  // namespace
}  // namespace motion
