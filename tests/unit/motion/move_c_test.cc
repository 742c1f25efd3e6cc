// MoveC against circles built here: centre, radius, normal and angles are
// chosen, the start is the (independent) FK of the start joints and via and
// target are generated on the circle. The returned joints are judged with the
// test-side URDF FK.

#include "core/motion/internal/move_c.h"

#include <algorithm>
#include <cmath>
#include <memory>
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
using motion_test::kPi;
using motion_test::LoadRobot;
using motion_test::Robot;
using motion_test::RotationDistance;
using motion_test::Std;
using motion_test::ToPose;
using motion_test::UnitTrapezoid;
using motion_test::Vec;

// A circle through a given start point: centre = start - r e1.
struct HandCircle {
  Eigen::Vector3d center, normal, e1, e2;
  double radius;
  Eigen::Vector3d At(double angle) const {
    return center + radius * (std::cos(angle) * e1 + std::sin(angle) * e2);
  }
  // Angle of p's projection, in [0, 2 pi).
  double AngleOf(const Eigen::Vector3d& p) const {
    const Eigen::Vector3d d = p - center;
    double a = std::atan2(d.dot(e2), d.dot(e1));
    return a < 0 ? a + 2 * kPi : a;
  }
  double DistanceTo(const Eigen::Vector3d& p) const {
    const Eigen::Vector3d d = p - center;
    const double h = d.dot(normal);
    const double in_plane = (d - h * normal).norm();
    return std::hypot(h, in_plane - radius);
  }
};

HandCircle CircleThrough(const Eigen::Vector3d& start, const Eigen::Vector3d& normal,
                         double radius) {
  HandCircle c;
  c.normal = normal.normalized();
  const Eigen::Vector3d helper(0.6, -0.3, 0.2);
  c.e1 = (helper - helper.dot(c.normal) * c.normal).normalized();
  c.e2 = c.normal.cross(c.e1);
  c.radius = radius;
  c.center = start - radius * c.e1;
  return c;
}

struct ArcCase {
  const char* file;
  Eigen::VectorXd q0;
  Eigen::Vector3d normal;
  double radius, via_angle, target_angle;
};

std::vector<ArcCase> Cases() {
  return {
      {"ur5.urdf", Vec({0.3, -1.2, 1.5, -1.8, -1.5, 0.4}), {0.3, -0.2, 1.0}, 0.08, 1.0, 2.2},
      {"panda.urdf", Vec({0.1, -0.5, 0.1, -2.0, 0.1, 1.6, 0.7}), {1.0, 0.2, 0.3}, 0.07, 0.7, 1.9},
      {"iiwa14.urdf", Vec({0.2, 0.5, 0.1, -1.2, 0.1, 0.8, 0.3}), {-0.1, 0.4, 1.0}, 0.08, 1.2, 2.6},
      // More than half a turn (the swept angle above pi).
      {"ur5.urdf", Vec({0.3, -1.2, 1.5, -1.8, -1.5, 0.4}), {0.0, 0.1, 1.0}, 0.05, 2.0, 4.2},
  };
}

SpeedSpec ArcSpeed() {
  SpeedSpec speed;
  speed.linear_velocity = 0.1;
  speed.linear_acceleration = 0.5;
  speed.angular_velocity = 3.0;
  speed.angular_acceleration = 10.0;
  return speed;
}

// Timed with the trapezoid, whose closed form the tests check.
PathResult Plan(const Robot& robot, const Eigen::VectorXd& q0, const MotionSegment& segment) {
  IkData ws(*robot.chain);
  PathRequest request;
  request.start_joints = Std(q0);
  request.segments = {segment};
  request.profile = ProfileKind::kTrapezoid;
  auto result = PlanPath(*robot.chain, ws, request, PathLimits{});
  EXPECT_TRUE(result.ok()) << result.status();
  return result.ok() ? *result : PathResult{};
}

class MoveCTest : public ::testing::TestWithParam<int> {};

TEST_P(MoveCTest, SamplesLieOnTheHandBuiltCircle) {
  const ArcCase c = Cases()[GetParam()];
  SCOPED_TRACE(c.file);
  const Robot robot = LoadRobot(c.file);
  ASSERT_NE(robot.chain, nullptr);
  const Eigen::Isometry3d start = IndependentFk(robot.ichain, c.q0);
  const HandCircle circle = CircleThrough(start.translation(), c.normal, c.radius);
  const Eigen::Matrix3d r0 = start.linear();
  const Eigen::Matrix3d r1 = r0 * motion_test::RotZ(0.3) * motion_test::RotX(-0.1);

  MotionSegment segment;
  segment.id = "arc";
  segment.kind = MotionKind::kMoveC;
  // via's orientation is not used; give it a different one to show that.
  segment.via = ToPose(circle.At(c.via_angle), motion_test::RotX(1.0));
  segment.target = ToPose(circle.At(c.target_angle), r1);
  segment.speed = ArcSpeed();
  const PathResult result = Plan(robot, c.q0, segment);
  ASSERT_TRUE(result.ok) << (result.diagnostics.empty() ? "" : result.diagnostics[0].message);
  ASSERT_EQ(result.segments.size(), 1u);
  const SegmentReport& report = result.segments[0];

  // Reported geometry is the circle built here.
  ASSERT_TRUE(report.has_arc);
  EXPECT_LT((report.arc.center - circle.center).norm(), 1e-9);
  EXPECT_NEAR(report.arc.radius, c.radius, 1e-9);
  EXPECT_LT((report.arc.normal - circle.normal).norm(), 1e-9);
  EXPECT_NEAR(report.arc.angle, c.target_angle, 1e-9);
  EXPECT_NEAR(report.path_length, c.radius * c.target_angle, 1e-9);

  // Timing: sigma(t) with sigma' = v / (r theta), sigma'' = a / (r theta)
  // (the linear limits bind here).
  const double length = c.radius * c.target_angle;
  const double rotation = RotationDistance(r0, r1);
  const SpeedSpec speed = ArcSpeed();
  ASSERT_LT(speed.linear_velocity / length, speed.angular_velocity / rotation);
  ASSERT_LT(speed.linear_acceleration / length, speed.angular_acceleration / rotation);
  const UnitTrapezoid sigma(speed.linear_velocity / length, speed.linear_acceleration / length,
                            MotionDefaults::kSampleTime);
  EXPECT_NEAR(result.duration, sigma.duration(), 1e-9 * sigma.duration());

  const Trajectory& t = result.trajectory;
  ASSERT_GT(t.size(), 10u);
  EXPECT_TRUE(t.Position(0) == c.q0);
  double max_off_circle = 0, max_time_error = 0, max_orientation_error = 0;
  double previous_angle = 0;
  for (std::size_t k = 0; k < t.size(); ++k) {
    const Eigen::Isometry3d tcp = IndependentFk(robot.ichain, t.Position(k));
    const Eigen::Vector3d p = tcp.translation();
    max_off_circle = std::max(max_off_circle, circle.DistanceTo(p));
    double angle = circle.AngleOf(p);
    if (angle > 2 * kPi - 1e-3) angle -= 2 * kPi;  // start, a hair below zero
    EXPECT_GE(angle, previous_angle - 1e-6) << "sample " << k;
    EXPECT_LE(angle, c.target_angle + 1e-6) << "sample " << k;
    previous_angle = angle;
    const double s_time = sigma.S(t.time[k]);
    max_time_error = std::max(max_time_error, (p - circle.At(s_time * c.target_angle)).norm());
    max_orientation_error = std::max(
        max_orientation_error,
        RotationDistance(tcp.linear(), Geodesic(r0, r1, std::max(angle, 0.0) / c.target_angle)));
  }
  CheckJointRates(robot, t);
  EXPECT_LT(max_off_circle, 1e-5);
  EXPECT_LT(max_time_error, 1e-5);
  EXPECT_LT(max_orientation_error, 1e-4);
  const Eigen::Isometry3d last = IndependentFk(robot.ichain, t.Position(t.size() - 1));
  EXPECT_LT((last.translation() - circle.At(c.target_angle)).norm(), 1e-6);
  EXPECT_LT(RotationDistance(last.linear(), r1), 1e-5);
}

// orientation_mode VIA: the tool turns through the via's own orientation
// where the path passes the via, ends at the target's, and the joints stay
// within their limits (no corner in the angular velocity there).
TEST_P(MoveCTest, ViaOrientationIsPassedWhereThePathPassesTheVia) {
  const ArcCase c = Cases()[GetParam()];
  SCOPED_TRACE(c.file);
  const Robot robot = LoadRobot(c.file);
  ASSERT_NE(robot.chain, nullptr);
  const Eigen::Isometry3d start = IndependentFk(robot.ichain, c.q0);
  const HandCircle circle = CircleThrough(start.translation(), c.normal, c.radius);
  const Eigen::Matrix3d r0 = start.linear();
  const Eigen::Matrix3d r_via = r0 * motion_test::RotY(0.25);
  const Eigen::Matrix3d r1 = r0 * motion_test::RotZ(0.3) * motion_test::RotX(-0.1);
  MotionSegment segment;
  segment.id = "arc";
  segment.kind = MotionKind::kMoveC;
  segment.orientation = OrientationMode::kVia;
  segment.via = ToPose(circle.At(c.via_angle), r_via);
  segment.target = ToPose(circle.At(c.target_angle), r1);
  segment.speed = ArcSpeed();
  const PathResult result = Plan(robot, c.q0, segment);
  ASSERT_TRUE(result.ok) << (result.diagnostics.empty() ? "" : result.diagnostics[0].message);
  const Trajectory& t = result.trajectory;
  // The sample nearest the via point, and the largest turn between samples.
  double nearest = 1e9, at_via = 0.0, step = 0.0;
  Eigen::Matrix3d previous = r0;
  for (std::size_t k = 0; k < t.size(); ++k) {
    const Eigen::Isometry3d tcp = IndependentFk(robot.ichain, t.Position(k));
    step = std::max(step, RotationDistance(previous, tcp.linear()));
    previous = tcp.linear();
    const double d = (tcp.translation() - circle.At(c.via_angle)).norm();
    if (d < nearest) nearest = d, at_via = RotationDistance(tcp.linear(), r_via);
  }
  EXPECT_LT(at_via, step + 1e-5) << "the via's orientation is not passed at the via";
  // Slerping start -> target would miss it by far more.
  EXPECT_GT(RotationDistance(Geodesic(r0, r1, c.via_angle / c.target_angle), r_via), 10 * step);
  const Eigen::Isometry3d last = IndependentFk(robot.ichain, t.Position(t.size() - 1));
  EXPECT_LT(RotationDistance(last.linear(), r1), 1e-5);
  CheckJointRates(robot, t);
}

INSTANTIATE_TEST_SUITE_P(Robots, MoveCTest, ::testing::Range(0, 4));

TEST(MoveCDegenerateTest, CoincidentAndCollinearPointsAreArcDegenerate) {
  const ArcCase c = Cases()[0];
  const Robot robot = LoadRobot(c.file);
  ASSERT_NE(robot.chain, nullptr);
  const Eigen::Isometry3d start = IndependentFk(robot.ichain, c.q0);
  const Eigen::Vector3d p0 = start.translation();
  const Eigen::Matrix3d r0 = start.linear();
  const Eigen::Vector3d elsewhere = p0 + Eigen::Vector3d(0.05, -0.03, 0.02);
  struct Case {
    const char* name;
    Eigen::Vector3d via, target;
  };
  const Case cases[] = {
      {"via_is_start", p0, elsewhere},
      {"target_is_start", elsewhere, p0},
      {"via_is_target", elsewhere, elsewhere},
      {"collinear_between", 0.5 * (p0 + elsewhere), elsewhere},
      {"collinear_beyond", p0 + 2 * (elsewhere - p0), elsewhere},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(k.name);
    MotionSegment segment;
    segment.id = k.name;
    segment.kind = MotionKind::kMoveC;
    segment.via = ToPose(k.via, r0);
    segment.target = ToPose(k.target, r0);
    IkData ws(*robot.chain);
    PathRequest request;
    request.start_joints = Std(c.q0);
    request.segments = {segment};
    auto result = PlanPath(*robot.chain, ws, request, PathLimits{});
    ASSERT_TRUE(result.ok()) << "a degenerate arc is a diagnostic, not an error: "
                             << result.status();
    EXPECT_FALSE(result->ok);
    ASSERT_EQ(result->segments.size(), 1u);
    EXPECT_FALSE(result->segments[0].ok);
    EXPECT_FALSE(result->segments[0].has_arc);
    bool found = false;
    for (const Diagnostic& d : result->diagnostics) {
      if (d.code != DiagnosticCode::kArcDegenerate) continue;
      found = true;
      EXPECT_EQ(d.severity, Severity::kError);
      EXPECT_EQ(d.segment_id, k.name);
    }
    EXPECT_TRUE(found);
  }
}

}  // namespace
}  // namespace motion
