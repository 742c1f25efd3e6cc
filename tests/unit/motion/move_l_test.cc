// MoveL on UR5, Panda and iiwa14 (default chains): the TCP of the returned
// joints, computed with the test-side URDF FK, must follow the commanded
// straight line in space and time (the sigma(t) trapezoid derived here), the
// orientation must follow a geodesic slerp written here, the cruise speed
// must be the requested one and the last sample must be the target.

#include "core/motion/internal/move_l.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/motion/path_planner.h"
#include "independent_fk.h"
#include "motion_test_support.h"

namespace motion {
namespace {

using motion_test::CheckJointRates;
using motion_test::Geodesic;
using motion_test::IndependentFk;
using motion_test::LoadRobot;
using motion_test::Robot;
using motion_test::RotationDistance;
using motion_test::Std;
using motion_test::UnitTrapezoid;
using motion_test::Vec;

struct LineCase {
  const char* file;
  const char* base;  // the default chain README.md lists for the robot
  const char* tip;
  Eigen::VectorXd q0;        // start joints
  Eigen::VectorXd q_target;  // the target pose is their (independent) FK
};

std::vector<LineCase> Cases() {
  return {
      {"ur5.urdf", "base_link", "tool0", Vec({0.3, -1.2, 1.5, -1.8, -1.5, 0.4}),
       Vec({0.55, -1.0, 1.2, -1.6, -1.3, 0.1})},
      {"panda.urdf", "panda_link0", "panda_link8", Vec({0.1, -0.5, 0.1, -2.0, 0.1, 1.6, 0.7}),
       Vec({0.3, -0.25, -0.05, -1.7, 0.3, 1.4, 1.0})},
      {"iiwa14.urdf", "base", "iiwa_link_ee_kuka", Vec({0.2, 0.5, 0.1, -1.2, 0.1, 0.8, 0.3}),
       Vec({0.45, 0.3, 0.3, -0.9, -0.1, 1.05, 0.0})},
  };
}

SpeedSpec CruiseSpeed() {
  SpeedSpec speed;
  speed.linear_velocity = 0.1;
  speed.linear_acceleration = 0.5;
  speed.angular_velocity = 3.0;  // high enough that the linear speed binds
  speed.angular_acceleration = 10.0;
  return speed;
}

struct LineCheck {
  double max_line_error = 0, max_time_error = 0, max_orientation_error = 0;
};

// Plans start -> target with `segment` (target filled in here) and checks the
// line, its timing, the orientation and the end.
LineCheck PlanAndCheckLine(const Robot& robot, const LineCase& c, MotionSegment segment,
                           double speed_override = 1.0) {
  LineCheck out;
  const Eigen::Isometry3d tool = segment.tool.ToIsometry();
  const Eigen::Isometry3d start = IndependentFk(robot.ichain, c.q0) * tool;
  const Eigen::Isometry3d goal = IndependentFk(robot.ichain, c.q_target) * tool;
  const Eigen::Vector3d p0 = start.translation(), p1 = goal.translation();
  const Eigen::Matrix3d r0 = start.linear();
  const Eigen::Matrix3d r1 =
      segment.orientation == OrientationMode::kFixed ? r0 : Eigen::Matrix3d(goal.linear());
  segment.kind = MotionKind::kMoveL;
  segment.target = Pose::FromIsometry(goal);

  const double dt = 0.004;
  IkData ws(*robot.chain);
  PathRequest request;
  request.start_joints = Std(c.q0);
  request.segments = {segment};
  request.sample_time = dt;
  request.speed_override = speed_override;
  // These cases check the trapezoid timing law of the path parameter.
  request.profile = ProfileKind::kTrapezoid;
  auto planned = PlanPath(*robot.chain, ws, request, PathLimits{});
  EXPECT_TRUE(planned.ok()) << planned.status();
  if (!planned.ok()) return out;
  const PathResult& result = *planned;
  EXPECT_TRUE(result.ok);
  for (const Diagnostic& d : result.diagnostics) {
    EXPECT_NE(d.severity, Severity::kError) << d.message;
  }
  const Trajectory& t = result.trajectory;
  EXPECT_GT(t.size(), 10u);
  if (t.size() < 2) return out;
  EXPECT_TRUE(t.Position(0) == c.q0);

  // The profile over sigma: sigma'_max = min(v / L, w / angle), likewise
  // for sigma''. The test speeds make the linear limits bind.
  const double length = (p1 - p0).norm();
  const double angle = RotationDistance(r0, r1);
  // speed_override f is a time scaling of the fastest timing (issue 26):
  // velocities x f, accelerations x f^2.
  const double f = speed_override;
  const double v = segment.speed.linear_velocity * f;
  const double a = segment.speed.linear_acceleration * f * f;
  EXPECT_LT(v / length, segment.speed.angular_velocity * f / std::max(angle, 1e-9));
  EXPECT_LT(a / length, segment.speed.angular_acceleration * f * f / std::max(angle, 1e-9));
  const UnitTrapezoid sigma(v / length, a / length, dt);
  EXPECT_NEAR(result.duration, sigma.duration(), 1e-9 * sigma.duration());
  EXPECT_EQ(t.time.back(), result.duration);
  EXPECT_NEAR(result.segments[0].path_length, length, 1e-9);

  const Eigen::Vector3d d = (p1 - p0) / length;
  const double cruise_from = sigma.accel_time() + dt;
  const double cruise_to = sigma.duration() - sigma.accel_time() - dt;
  int cruise_samples = 0;
  Eigen::Vector3d previous = p0;
  for (std::size_t k = 0; k < t.size(); ++k) {
    const Eigen::Isometry3d tcp = IndependentFk(robot.ichain, t.Position(k)) * tool;
    const Eigen::Vector3d p = tcp.translation();
    // On the line, between its ends.
    const double along = (p - p0).dot(d);
    const double off_line = (p - p0 - along * d).norm();
    out.max_line_error = std::max(out.max_line_error, off_line);
    EXPECT_GE(along, -1e-7) << "sample " << k;
    EXPECT_LE(along, length + 1e-7) << "sample " << k;
    // Where the line should be at this time.
    const double s_time = sigma.S(t.time[k]);
    out.max_time_error = std::max(out.max_time_error, (p - (p0 + s_time * (p1 - p0))).norm());
    // Orientation: the slerp at the fraction of the line covered.
    const double s = along / length;
    out.max_orientation_error =
        std::max(out.max_orientation_error, RotationDistance(tcp.linear(), Geodesic(r0, r1, s)));
    if (k > 0 && t.time[k - 1] >= cruise_from && t.time[k] <= cruise_to) {
      const double speed = (p - previous).norm() / (t.time[k] - t.time[k - 1]);
      EXPECT_NEAR(speed, v * sigma.k, 0.01 * v) << "cruise sample " << k;
      ++cruise_samples;
    }
    previous = p;
  }
  // Every sample pair inside the cruise window was measured.
  EXPECT_GT(cruise_to - cruise_from, 0.1);
  EXPECT_GE(cruise_samples, static_cast<int>((cruise_to - cruise_from) / dt) - 1);
  CheckJointRates(robot, t);
  EXPECT_LT(out.max_line_error, 1e-5);
  EXPECT_LT(out.max_time_error, 1e-5);
  EXPECT_LT(out.max_orientation_error, 1e-4);

  // The last sample is the target.
  const Eigen::Isometry3d last = IndependentFk(robot.ichain, t.Position(t.size() - 1)) * tool;
  EXPECT_LT((last.translation() - p1).norm(), 1e-6);
  EXPECT_LT(RotationDistance(last.linear(), r1), 1e-5);
  // The reported Cartesian error is the independent one's order.
  EXPECT_LT(result.segments[0].max_cartesian_error, 1e-5);
  return out;
}

class MoveLTest : public ::testing::TestWithParam<int> {};

TEST_P(MoveLTest, FollowsTheLineAndTheSlerp) {
  const LineCase c = Cases()[GetParam()];
  SCOPED_TRACE(c.file);
  const Robot robot = LoadRobot(c.file);
  ASSERT_NE(robot.chain, nullptr);
  MotionSegment segment;
  EXPECT_EQ(robot.chain->base_link, c.base);
  EXPECT_EQ(robot.chain->tip_link, c.tip);
  segment.id = "line";
  segment.speed = CruiseSpeed();
  const LineCheck check = PlanAndCheckLine(robot, c, segment);
  RecordProperty("max_line_error", std::to_string(check.max_line_error));
}

TEST_P(MoveLTest, FixedOrientationKeepsTheStartOrientation) {
  const LineCase c = Cases()[GetParam()];
  SCOPED_TRACE(c.file);
  const Robot robot = LoadRobot(c.file);
  ASSERT_NE(robot.chain, nullptr);
  MotionSegment segment;
  segment.id = "fixed";
  segment.speed = CruiseSpeed();
  segment.orientation = OrientationMode::kFixed;
  // PlanAndCheckLine expects R = R0 throughout when the mode is fixed.
  const LineCheck check = PlanAndCheckLine(robot, c, segment);
  EXPECT_LT(check.max_orientation_error, 1e-5);
}

TEST_P(MoveLTest, WithAToolTheTcpFollowsTheLine) {
  const LineCase c = Cases()[GetParam()];
  SCOPED_TRACE(c.file);
  const Robot robot = LoadRobot(c.file);
  ASSERT_NE(robot.chain, nullptr);
  MotionSegment segment;
  segment.id = "tool";
  segment.speed = CruiseSpeed();
  Eigen::Isometry3d tool = Eigen::Isometry3d::Identity();
  tool.translation() << 0.0, 0.03, 0.15;
  tool.linear() = motion_test::RotZ(-0.785) * motion_test::RotX(0.2);
  segment.tool = Pose::FromIsometry(tool);
  PlanAndCheckLine(robot, c, segment);
}

INSTANTIATE_TEST_SUITE_P(Robots, MoveLTest, ::testing::Range(0, 3));

TEST_P(MoveLTest, RandomNearbyTargets) {
  // Starts scattered around the case's start, targets up to 0.25 rad per
  // joint away: every plan must satisfy the same invariants.
  const LineCase base = Cases()[GetParam()];
  SCOPED_TRACE(base.file);
  const Robot robot = LoadRobot(base.file);
  ASSERT_NE(robot.chain, nullptr);
  std::mt19937_64 rng(100 + GetParam());
  std::uniform_real_distribution<double> spread(-0.3, 0.3), step(-0.25, 0.25);
  int checked = 0;
  for (int trial = 0; trial < 12; ++trial) {
    LineCase c = base;
    for (int j = 0; j < c.q0.size(); ++j) {
      c.q0[j] += spread(rng);
      c.q_target[j] = c.q0[j] + step(rng);
    }
    const double length = (IndependentFk(robot.ichain, c.q_target).translation() -
                           IndependentFk(robot.ichain, c.q0).translation())
                              .norm();
    if (length < 0.05) continue;  // too short to have a cruise phase to measure
    SCOPED_TRACE("trial " + std::to_string(trial));
    MotionSegment segment;
    segment.id = "random";
    segment.speed = CruiseSpeed();
    PlanAndCheckLine(robot, c, segment);
    ++checked;
  }
  EXPECT_GE(checked, 8);
}

TEST_P(MoveLTest, RotationInPlaceIsTimedByTheAngularLimits) {
  // No translation: sigma' = w / angle, sigma'' = alpha / angle, so
  // T = angle / w + w / alpha when the rotation cruises; the TCP stays put
  // and turns along the geodesic at sigma(t).
  const LineCase c = Cases()[GetParam()];
  SCOPED_TRACE(c.file);
  const Robot robot = LoadRobot(c.file);
  ASSERT_NE(robot.chain, nullptr);
  const Eigen::Isometry3d start = IndependentFk(robot.ichain, c.q0);
  const double angle = 0.6;
  const Eigen::Vector3d axis = Eigen::Vector3d(0.3, -0.5, 1.0).normalized();
  const Eigen::Matrix3d r1 = start.linear() * motion_test::RotAxis(axis, angle);
  MotionSegment segment;
  segment.id = "turn";
  segment.kind = MotionKind::kMoveL;
  segment.target.position = start.translation();
  segment.target.orientation = Eigen::Quaterniond(r1);
  segment.speed.angular_velocity = 0.4;
  segment.speed.angular_acceleration = 1.0;
  IkData ws(*robot.chain);
  PathRequest request;
  request.start_joints = Std(c.q0);
  request.segments = {segment};
  request.profile = ProfileKind::kTrapezoid;  // the trapezoid's closed form is checked
  auto result = PlanPath(*robot.chain, ws, request, PathLimits{});
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_TRUE(result->ok) << (result->diagnostics.empty() ? "" : result->diagnostics[0].message);
  const double w = 0.4, alpha = 1.0;
  ASSERT_GT(angle, w * w / alpha);  // it cruises
  const double dt = MotionDefaults::kSampleTime;
  const UnitTrapezoid sigma(w / angle, alpha / angle, dt);
  // T = angle / w + w / alpha, rounded up to the sample grid.
  EXPECT_NEAR(result->duration, std::ceil((angle / w + w / alpha) / dt - 1e-9) * dt, 1e-9);
  const Trajectory& t = result->trajectory;
  double max_position = 0, max_rotation = 0;
  for (std::size_t k = 0; k < t.size(); ++k) {
    const Eigen::Isometry3d tcp = IndependentFk(robot.ichain, t.Position(k));
    max_position = std::max(max_position, (tcp.translation() - start.translation()).norm());
    max_rotation =
        std::max(max_rotation,
                 RotationDistance(tcp.linear(), Geodesic(start.linear(), r1, sigma.S(t.time[k]))));
  }
  EXPECT_LT(max_position, 1e-5);
  EXPECT_LT(max_rotation, 1e-4);
  CheckJointRates(robot, t);
}

TEST(MoveLOverrideTest, HalfOverrideFollowsTheClosedForm) {
  // Override 0.5 is a time scaling: v / 2 and a / 4, T = L / (v/2) +
  // (v/2) / (a/4) = 2 (L / v + v / a), exactly twice 1.0's (before the grid).
  const LineCase c = Cases()[0];
  const Robot robot = LoadRobot(c.file);
  ASSERT_NE(robot.chain, nullptr);
  MotionSegment segment;
  segment.id = "half";
  segment.speed = CruiseSpeed();
  PlanAndCheckLine(robot, c, segment, 0.5);
}

TEST(MoveLBudgetTest, AnAstronomicallySlowSpeedIsRefusedByThePointBudget) {
  // 2e-75 m/s is positive and finite, so valid, but its duration in samples
  // overflows every integer: the point budget must refuse it (before, the
  // sample count wrapped negative, passed the budget and the sampler threw
  // std::length_error; found by the request fuzzer).
  const LineCase c = Cases()[0];
  const Robot robot = LoadRobot(c.file);
  ASSERT_NE(robot.chain, nullptr);
  MotionSegment segment;
  segment.id = "crawl";
  segment.kind = MotionKind::kMoveL;
  segment.speed.linear_velocity = 1.9645759645779814e-75;
  segment.target = Pose::FromIsometry(IndependentFk(robot.ichain, c.q_target));
  IkData ws(*robot.chain);
  PathRequest request;
  request.start_joints = Std(c.q0);
  request.segments = {segment};
  request.sample_time = 0.004;
  const auto planned = PlanPath(*robot.chain, ws, request, PathLimits{});
  ASSERT_FALSE(planned.ok());
  EXPECT_EQ(planned.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(planned.status().message().find("segments[0] (crawl)"), std::string::npos)
      << planned.status();
  EXPECT_NE(planned.status().message().find("limit is"), std::string::npos) << planned.status();
}

}  // namespace
}  // namespace motion
