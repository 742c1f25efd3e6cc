// AuditJointTrajectory: a trajectory the planner made passes it; one sample
// moved breaks the velocity limit of that joint at that point; a ramp at a
// known fraction of the limit reports that fraction (closed form); grids that
// are not uniform and positions outside the limits are named.

#include "core/motion/trajectory_audit.h"

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "core/ik/ik_data.h"
#include "core/motion/path_planner.h"
#include "motion_test_support.h"

namespace motion {
namespace {

using motion_test::LoadRobot;
using motion_test::Robot;

// A planned UR5 MoveJ across most of its joints' travel, at 4 ms.
Trajectory PlannedUr5Move(const Robot& robot) {
  PathRequest request;
  request.start_joints = {0.0, -1.5, 1.2, -0.8, 1.0, 0.0};
  MotionSegment segment;
  segment.joint_target = true;
  segment.target_joints = {1.4, -0.6, 0.3, -1.9, -0.5, 1.2};
  request.segments = {segment};
  IkData data(*robot.chain);
  auto result = PlanPath(*robot.chain, data, request, PathLimits{});
  EXPECT_TRUE(result.ok() && result->ok);
  return result->trajectory;
}

TEST(TrajectoryAuditTest, APlannedTrajectoryPassesWithTheRatiosThePlannerReported) {
  const Robot robot = LoadRobot("ur5.urdf");
  ASSERT_NE(robot.chain, nullptr);
  const Trajectory t = PlannedUr5Move(robot);
  auto audit = AuditJointTrajectory(*robot.chain, robot.chain->dof_limits, t.time, t.positions);
  ASSERT_TRUE(audit.ok()) << audit.status();
  EXPECT_TRUE(audit->ok) << audit->diagnostics[0].message;
  EXPECT_NEAR(audit->cycle_time, t.time.back(), 1e-12);
  EXPECT_NEAR(audit->sample_time, 0.004, 1e-12);
  // A time-optimal MoveJ runs its slowest joint at a limit.
  EXPECT_GT(std::max({audit->max_joint_velocity_ratio, audit->max_joint_acceleration_ratio,
                      audit->max_joint_jerk_ratio}),
            0.99);
  EXPECT_LE(audit->max_joint_velocity_ratio, 1 + 1e-6);
}

TEST(TrajectoryAuditTest, OneSampleMovedBreaksThatJointsVelocityAtThatPoint) {
  const Robot robot = LoadRobot("ur5.urdf");
  ASSERT_NE(robot.chain, nullptr);
  Trajectory t = PlannedUr5Move(robot);
  const int dof = 6, joint = 3;
  const std::size_t m = t.size() / 3;
  const double v = (t.positions[m * dof + joint] - t.positions[(m - 1) * dof + joint]) / 0.004;
  // Moved in the direction it travels, so the difference into m is the
  // worst: 2 x the limit over one sample.
  const double limit = robot.chain->dof_limits[joint].max_velocity;
  t.positions[m * dof + joint] += (v >= 0 ? 1 : -1) * 2.0 * limit * 0.004;
  auto audit = AuditJointTrajectory(*robot.chain, robot.chain->dof_limits, t.time, t.positions);
  ASSERT_TRUE(audit.ok()) << audit.status();
  EXPECT_FALSE(audit->ok);
  bool named = false;
  for (const Diagnostic& d : audit->diagnostics) {
    if (d.code != DiagnosticCode::kVelocityLimit) continue;
    EXPECT_EQ(d.joint_name, robot.chain->dof_names[joint]);
    EXPECT_EQ(d.point_index, static_cast<std::int64_t>(m));
    EXPECT_NEAR(d.time, t.time[m], 1e-12);
    EXPECT_EQ(d.limit, limit);
    named = true;
  }
  EXPECT_TRUE(named);
  EXPECT_GT(audit->max_joint_velocity_ratio, 2.0);
}

TEST(TrajectoryAuditTest, ARampAtHalfTheLimitReportsHalf) {
  const Robot robot = LoadRobot("ur5.urdf");
  ASSERT_NE(robot.chain, nullptr);
  // Joint 0 moves at half its velocity limit for 1 s; the others stand.
  const double v = 0.5 * robot.chain->dof_limits[0].max_velocity, dt = 0.01;
  std::vector<double> time, positions;
  for (int k = 0; k <= 100; ++k) {
    time.push_back(k * dt);
    for (int j = 0; j < 6; ++j) positions.push_back(j == 0 ? v * k * dt : -0.5);
  }
  auto audit = AuditJointTrajectory(*robot.chain, robot.chain->dof_limits, time, positions);
  ASSERT_TRUE(audit.ok()) << audit.status();
  EXPECT_NEAR(audit->max_joint_velocity_ratio, 0.5, 1e-9);
  EXPECT_NEAR(audit->cycle_time, 1.0, 1e-12);
  // Starting and stopping at once: v / dt of acceleration at both ends.
  EXPECT_NEAR(audit->max_joint_acceleration_ratio,
              v / dt / robot.chain->dof_limits[0].max_acceleration, 1e-6);
  EXPECT_FALSE(audit->ok);
}

TEST(TrajectoryAuditTest, UnevenGridsAndPositionsOutsideTheLimitsAreNamed) {
  const Robot robot = LoadRobot("ur5.urdf");
  ASSERT_NE(robot.chain, nullptr);
  std::vector<double> positions(3 * 6, 0.1);
  auto uneven =
      AuditJointTrajectory(*robot.chain, robot.chain->dof_limits, {0.0, 0.3, 1.0}, positions);
  ASSERT_FALSE(uneven.ok());
  EXPECT_NE(uneven.status().message().find("time[1]"), std::string::npos) << uneven.status();
  auto backwards =
      AuditJointTrajectory(*robot.chain, robot.chain->dof_limits, {0.0, 0.5, 0.5}, positions);
  ASSERT_FALSE(backwards.ok());
  EXPECT_NE(backwards.status().message().find("time[2]"), std::string::npos);

  const double upper = robot.chain->dof_limits[2].upper;
  positions[1 * 6 + 2] = upper + 0.01;
  auto outside =
      AuditJointTrajectory(*robot.chain, robot.chain->dof_limits, {0.0, 0.5, 1.0}, positions);
  ASSERT_TRUE(outside.ok()) << outside.status();
  ASSERT_FALSE(outside->diagnostics.empty());
  const Diagnostic& d = outside->diagnostics[0];
  EXPECT_EQ(d.code, DiagnosticCode::kJointLimit);
  EXPECT_EQ(d.joint_name, robot.chain->dof_names[2]);
  EXPECT_EQ(d.point_index, 1);
  EXPECT_EQ(d.limit, upper);
}

}  // namespace
}  // namespace motion
