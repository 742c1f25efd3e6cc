// MoveJ through PlanPath with one movej segment: synchronisation, limits
// (finite differences of the returned positions against the URDF's
// velocity limits), the closed-form duration of the binding joint, pose
// targets checked with the test-side URDF FK, and limit diagnostics.

#include "core/motion/internal/move_j.h"

#include <algorithm>
#include <cmath>
#include <limits>
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

using motion_test::HasCode;
using motion_test::IndependentFk;
using motion_test::LoadRobot;
using motion_test::Robot;
using motion_test::RotationDistance;
using motion_test::Std;

Eigen::VectorXd Row(const Trajectory& t, std::size_t k) { return t.Position(k); }

// Closed-form duration of a rest-to-rest trapezoid over distance d.
double TrapezoidDuration(double d, double v, double a) {
  if (d >= v * v / a) return d / v + v / a;
  return 2.0 * std::sqrt(d / a);
}

MotionSegment JointSegment(const std::string& id, const Eigen::VectorXd& target,
                           double joint_fraction = 0.0) {
  MotionSegment s;
  s.id = id;
  s.kind = MotionKind::kMoveJ;
  s.joint_target = true;
  s.target_joints = Std(target);
  s.speed.joint_fraction = joint_fraction;
  return s;
}

// Everything MoveJ promises about one planned joint move q0 -> q1.
void CheckJointMove(const Robot& robot, const PathResult& result, const Eigen::VectorXd& q0,
                    const Eigen::VectorXd& q1, double fraction, double dt) {
  const Trajectory& t = result.trajectory;
  const int dof = robot.chain->dof();
  ASSERT_GE(t.size(), 2u);
  ASSERT_EQ(t.positions.size(), t.size() * dof);
  EXPECT_EQ(t.time.front(), 0.0);
  EXPECT_TRUE(Row(t, 0) == q0) << "first sample is the start";
  EXPECT_TRUE(Row(t, t.size() - 1) == q1)
      << "last sample is the joint target exactly: " << (Row(t, t.size() - 1) - q1).transpose();

  const Eigen::VectorXd dq = q1 - q0;
  // Every joint moves along the straight line q0 + s dq with one profile s(t): its speed is
  // bound by the joint with the least v_j / |dq_j| and its acceleration by the joint with the
  // least a_j / |dq_j| (not the same joint where accelerations come from efforts).
  double line_velocity = std::numeric_limits<double>::infinity(), line_acceleration = line_velocity;
  for (int j = 0; j < dof; ++j) {
    if (dq[j] == 0.0) continue;
    line_velocity = std::min(line_velocity, robot.velocity_limit[j] / std::abs(dq[j]));
    line_acceleration =
        std::min(line_acceleration, robot.chain->dof_limits[j].max_acceleration / std::abs(dq[j]));
  }
  const double expected =
      TrapezoidDuration(1.0, fraction * line_velocity, fraction * line_acceleration);
  // The trapezoid's duration, rounded up to the sample grid (the planner
  // stretches every segment to end on it). Where that needs more torque than
  // a joint has (accelerations from efforts are those of the worst pose
  // without the other joints moving), the move is slowed and says so.
  bool slowed_for_torque = false;
  std::string diagnostics;
  for (const Diagnostic& d : result.diagnostics) {
    diagnostics += d.message + "\n";
    slowed_for_torque |=
        d.code == DiagnosticCode::kSpeedReduced && d.message.rfind("slowed for torque", 0) == 0;
  }
  const double on_grid = std::ceil(expected / dt - 1e-9) * dt;
  if (slowed_for_torque) {
    EXPECT_GT(result.duration, on_grid) << diagnostics;
    EXPECT_LT(result.duration, 1.2 * on_grid) << diagnostics;
  } else {
    EXPECT_NEAR(result.duration, on_grid, 1e-9 * expected) << diagnostics;
  }
  EXPECT_EQ(t.time.back(), result.duration);
  ASSERT_EQ(result.segments.size(), 1u);
  EXPECT_EQ(result.segments[0].duration, result.duration);
  // duration / dt intervals.
  EXPECT_EQ(t.size(), static_cast<std::size_t>(std::lround(result.duration / dt)) + 1);

  double previous_s = 0.0;
  for (std::size_t k = 0; k < t.size(); ++k) {
    const Eigen::VectorXd q = Row(t, k);
    // Normalised progress is one number for every moving joint.
    double lo = 2, hi = -2;
    for (int j = 0; j < dof; ++j) {
      if (std::abs(dq[j]) < 1e-3) continue;
      const double s = (q[j] - q0[j]) / dq[j];
      lo = std::min(lo, s);
      hi = std::max(hi, s);
    }
    ASSERT_LT(hi - lo, 1e-12) << "joints out of step at sample " << k;
    ASSERT_GE(lo, previous_s - 1e-15);
    ASSERT_GE(lo, -1e-15);
    ASSERT_LE(hi, 1 + 1e-15);
    previous_s = lo;
    // Joints that do not move stay put.
    for (int j = 0; j < dof; ++j) {
      if (dq[j] == 0) {
        ASSERT_EQ(q[j], q0[j]);
      }
    }
    if (k == 0) continue;
    const double h = t.time[k] - t.time[k - 1];
    ASSERT_GT(h, 0);
    for (int j = 0; j < dof; ++j) {
      const double fd = (q[j] - t.positions[(k - 1) * dof + j]) / h;
      ASSERT_LE(std::abs(fd), robot.velocity_limit[j] * fraction * 1.001)
          << robot.chain->dof_names[j] << " at sample " << k;
    }
  }
  // Reported velocities agree with central differences of the positions.
  for (std::size_t k = 1; k + 1 < t.size(); ++k) {
    const double h = t.time[k + 1] - t.time[k - 1];
    for (int j = 0; j < dof; ++j) {
      const double fd = (t.positions[(k + 1) * dof + j] - t.positions[(k - 1) * dof + j]) / h;
      const double a = fraction * robot.chain->dof_limits[j].max_acceleration;
      ASSERT_NEAR(t.velocities[k * dof + j], fd, a * h + 1e-9) << "sample " << k;
    }
  }
}

// Timed with the trapezoid unless asked otherwise: CheckJointMove checks
// the trapezoid's closed form.
PathResult PlanOne(const Robot& robot, const Eigen::VectorXd& q0, const MotionSegment& segment,
                   double speed_override = 1.0, double dt = 0.004,
                   ProfileKind profile = ProfileKind::kTrapezoid) {
  IkData ws(*robot.chain);
  PathRequest request;
  request.start_joints = Std(q0);
  request.segments = {segment};
  request.sample_time = dt;
  request.speed_override = speed_override;
  request.profile = profile;
  auto result = PlanPath(*robot.chain, ws, request, PathLimits{});
  EXPECT_TRUE(result.ok()) << result.status();
  return result.ok() ? *result : PathResult{};
}

TEST(MoveJTest, Ur5SynchronisedWithClosedFormDuration) {
  const Robot robot = LoadRobot("ur5.urdf");
  ASSERT_NE(robot.chain, nullptr);
  Eigen::VectorXd q0(6), q1(6);
  q0 << 0.3, -1.2, 1.5, -1.8, -1.5, 0.4;
  q1 << 1.4, -0.7, 0.9, -1.2, -1.1, 0.0;  // the pan joint binds (1.1 rad)
  for (auto [fraction, override] : {std::pair{1.0, 1.0}, {0.7, 0.6}, {0.25, 1.0}}) {
    const PathResult result = PlanOne(robot, q0, JointSegment("j", q1, fraction), override);
    ASSERT_TRUE(result.ok);
    CheckJointMove(robot, result, q0, q1, fraction * override, 0.004);
    EXPECT_LE(result.segments[0].max_joint_velocity_ratio, fraction * override * (1 + 1e-9));
  }
}

TEST(MoveJTest, Ur5ShortMoveIsATriangle) {
  const Robot robot = LoadRobot("ur5.urdf");
  ASSERT_NE(robot.chain, nullptr);
  Eigen::VectorXd q0(6), q1(6);
  q0 << 0.3, -1.2, 1.5, -1.8, -1.5, 0.4;
  q1 = q0;
  q1[2] += 0.2;  // 0.2 rad < v^2 / a = 3.15^2 / 31.5: no cruise
  q1[4] -= 0.05;
  const PathResult result = PlanOne(robot, q0, JointSegment("short", q1));
  ASSERT_TRUE(result.ok);
  // T = 2 sqrt(d / a) with the elbow's acceleration (what its effort allows, RobotInfo), on the
  // grid.
  const double a = robot.chain->dof_limits[2].max_acceleration;
  ASSERT_EQ(robot.chain->dof_limits[2].acceleration_source.rfind("effort", 0), 0u);
  EXPECT_NEAR(result.duration, std::ceil(2 * std::sqrt(0.2 / a) / 0.004) * 0.004, 1e-12);
  CheckJointMove(robot, result, q0, q1, 1.0, 0.004);
}

TEST(MoveJTest, RandomMovesOnSevenAndSixAxisArms) {
  std::mt19937_64 rng(21);
  for (const char* file : {"ur5.urdf", "panda.urdf", "iiwa14.urdf", "abb_irb2400.urdf"}) {
    const Robot robot = LoadRobot(file);
    ASSERT_NE(robot.chain, nullptr);
    for (int trial = 0; trial < 8; ++trial) {
      // Inside the limits by 0.05 rad; a 20 % scaled move keeps runtimes short.
      const Eigen::VectorXd q0 = motion_test::RandomJoints(*robot.spec, robot.ichain, rng, -0.05);
      const Eigen::VectorXd far = motion_test::RandomJoints(*robot.spec, robot.ichain, rng, -0.05);
      const Eigen::VectorXd q1 = q0 + 0.2 * (far - q0);
      const double fraction = 0.5 + 0.5 * (trial % 2);
      SCOPED_TRACE(std::string(file) + " trial " + std::to_string(trial));
      const PathResult result = PlanOne(robot, q0, JointSegment("r", q1, fraction), 1.0, 0.008);
      ASSERT_TRUE(result.ok) << (result.diagnostics.empty() ? "" : result.diagnostics[0].message);
      CheckJointMove(robot, result, q0, q1, fraction, 0.008);
    }
  }
}

TEST(MoveJTest, PoseTargetLandsOnThePose) {
  // Target: the (independent) FK of known joints, given in a work-object
  // frame with a tool; the planned end must put that TCP there.
  for (const char* file : {"ur5.urdf", "panda.urdf", "iiwa14.urdf"}) {
    SCOPED_TRACE(file);
    const Robot robot = LoadRobot(file);
    ASSERT_NE(robot.chain, nullptr);
    std::mt19937_64 rng(31);
    const Eigen::VectorXd q0 = motion_test::RandomJoints(*robot.spec, robot.ichain, rng, -0.3);
    const Eigen::VectorXd qt =
        q0 + 0.3 * (motion_test::RandomJoints(*robot.spec, robot.ichain, rng, -0.3) - q0);
    Eigen::Isometry3d tool = Eigen::Isometry3d::Identity();
    tool.translation() << 0.01, -0.02, 0.12;
    tool.linear() = motion_test::RotRpy(Eigen::Vector3d(0.1, -0.2, 0.3));
    Eigen::Isometry3d frame = Eigen::Isometry3d::Identity();
    frame.translation() << 0.2, -0.1, 0.05;
    frame.linear() = motion_test::RotZ(0.4);
    const Eigen::Isometry3d tcp = IndependentFk(robot.ichain, qt) * tool;

    MotionSegment segment;
    segment.id = "pose";
    segment.kind = MotionKind::kMoveJ;
    segment.target = Pose::FromIsometry(frame.inverse() * tcp);
    segment.tool = Pose::FromIsometry(tool);
    segment.frame = Pose::FromIsometry(frame);
    const PathResult result = PlanOne(robot, q0, segment);
    ASSERT_TRUE(result.ok) << (result.diagnostics.empty() ? "" : result.diagnostics[0].message);
    const Trajectory& t = result.trajectory;
    const Eigen::Isometry3d reached = IndependentFk(robot.ichain, Row(t, t.size() - 1)) * tool;
    EXPECT_LT((reached.translation() - tcp.translation()).norm(), 1e-5);
    EXPECT_LT(RotationDistance(reached.linear(), tcp.linear()), 1e-5);
    // Synchronised and within limits all the same.
    const Eigen::VectorXd q1 = Row(t, t.size() - 1);
    for (int j = 0; j < robot.chain->dof(); ++j) {
      EXPECT_GE(q1[j], robot.lower[j]);
      EXPECT_LE(q1[j], robot.upper[j]);
    }
    CheckJointMove(robot, result, q0, q1, 1.0, 0.004);
  }
}

TEST(MoveJTest, TargetOutsideLimitsIsAJointLimitDiagnostic) {
  const Robot robot = LoadRobot("ur5.urdf");
  ASSERT_NE(robot.chain, nullptr);
  Eigen::VectorXd q0(6);
  q0 << 0.3, -1.2, 1.5, -1.8, -1.5, 0.4;
  Eigen::VectorXd q1 = q0;
  q1[2] = 3.5;  // elbow limit is +-pi
  const PathResult result = PlanOne(robot, q0, JointSegment("too_far", q1));
  EXPECT_FALSE(result.ok);
  ASSERT_EQ(result.segments.size(), 1u);
  EXPECT_FALSE(result.segments[0].ok);
  ASSERT_TRUE(HasCode(result.diagnostics, DiagnosticCode::kJointLimit));
  for (const Diagnostic& d : result.diagnostics) {
    if (d.code != DiagnosticCode::kJointLimit) continue;
    EXPECT_EQ(d.severity, Severity::kError);
    EXPECT_EQ(d.segment_id, "too_far");
    EXPECT_NE(d.message.find("elbow_joint"), std::string::npos) << d.message;
  }
}

TEST(MoveJTest, ZeroMotionIsOneSample) {
  const Robot robot = LoadRobot("ur5.urdf");
  ASSERT_NE(robot.chain, nullptr);
  Eigen::VectorXd q0(6);
  q0 << 0.3, -1.2, 1.5, -1.8, -1.5, 0.4;
  const PathResult result = PlanOne(robot, q0, JointSegment("stay", q0));
  ASSERT_TRUE(result.ok);
  EXPECT_EQ(result.duration, 0.0);
  ASSERT_EQ(result.trajectory.size(), 1u);
  EXPECT_TRUE(Row(result.trajectory, 0) == q0);
}

}  // namespace
}  // namespace motion
