// FineStopsLowerBound against the double-S closed form (a long move reaches
// both its acceleration and its speed: T = L / v + v / a + a / j), against
// the override and the half share of a first motion a zone may blend into,
// and as a bound: random MoveL/MoveC programs on the UR5 planned with fine
// stops (PlanPath) never take less.

#include "core/motion/internal/fine_stop_bound.h"

#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "core/ik/ik_data.h"
#include "core/motion/path_planner.h"
#include "core/motion/program_validation.h"
#include "motion_test_support.h"

namespace motion {
namespace {

using motion_test::ToPose;

Pose At(double x, double y, double z,
        const Eigen::Quaterniond& r = Eigen::Quaterniond::Identity()) {
  Pose p;
  p.position = Eigen::Vector3d(x, y, z);
  p.orientation = r;
  return p;
}

MotionSegment Line(const Pose& target, const SpeedSpec& speed) {
  MotionSegment s;
  s.kind = MotionKind::kMoveL;
  s.target = target;
  s.speed = speed;
  return s;
}

TEST(FineStopBoundTest, TheDoubleSClosedFormPerMotion) {
  SpeedSpec speed;
  speed.linear_velocity = 0.1;
  speed.linear_acceleration = 0.5;
  speed.linear_jerk = 10.0;
  speed.angular_velocity = 0.5;
  speed.angular_acceleration = 2.0;
  speed.angular_jerk = 20.0;
  PathRequest request;
  request.profile = ProfileKind::kJerkLimited;
  const Pose start = At(0.4, 0.0, 0.3);
  // 0.3 m along x: 3 + 0.2 + 0.05 s. Then a turn in place of 0.5 rad:
  // 1 + 0.25 + 0.1 s.
  request.segments.push_back(Line(At(0.7, 0.0, 0.3), speed));
  request.segments.push_back(
      Line(At(0.7, 0.0, 0.3, Eigen::Quaterniond(Eigen::AngleAxisd(0.5, Eigen::Vector3d::UnitZ()))),
           speed));
  EXPECT_NEAR(FineStopsLowerBound(request, 0, 0, start, false), 3.25, 1e-9);
  EXPECT_NEAR(FineStopsLowerBound(request, 0, 1, start, false), 3.25 + 1.35, 1e-9);
  EXPECT_NEAR(FineStopsLowerBound(request, 0, 1, start, true), 0.5 * 3.25 + 1.35, 1e-9);
  request.speed_override = 0.5;
  EXPECT_NEAR(FineStopsLowerBound(request, 0, 1, start, false), 2 * (3.25 + 1.35), 1e-9);
  // A MoveJ has no programmed TCP timing: no bound.
  request.segments[1].kind = MotionKind::kMoveJ;
  EXPECT_LT(FineStopsLowerBound(request, 0, 1, start, false), 0.0);
}

TEST(FineStopBoundTest, RandomProgramsWithFineStopsNeverTakeLess) {
  const motion_test::Robot robot = motion_test::LoadRobot("ur5.urdf");
  ASSERT_NE(robot.chain, nullptr);
  IkData ws(*robot.chain);
  std::mt19937 rng(26);
  const Eigen::VectorXd q0 = motion_test::Vec({0.3, -1.2, 1.5, -1.8, -1.5, 0.4});
  int planned = 0;
  for (int program = 0; program < 12; ++program) {
    PathRequest request;
    request.start_joints = motion_test::Std(q0);
    Eigen::Isometry3d at = motion_test::IndependentFk(robot.ichain, q0);
    for (int k = 0; k < 3; ++k) {
      request.segments.push_back(
          motion_test::RandomCartesianSegment(rng, k != 1, at, 0.08, 0.06, 0.05, 0.25));
    }
    request.speed_override = program % 3 == 0 ? 0.6 : 1.0;
    const PathRequest resolved = ResolveProgramDefaults(*robot.chain, request);
    const double bound = FineStopsLowerBound(
        resolved, 0, 2, ToPose(motion_test::IndependentFk(robot.ichain, q0)), false);
    absl::StatusOr<PathResult> result = PlanPath(*robot.chain, ws, request, PathLimits{});
    ASSERT_TRUE(result.ok()) << result.status();
    if (!result->ok || bound < 0) continue;  // not followable, or a degenerate arc
    ++planned;
    EXPECT_GE(result->duration, bound - 1e-9) << "program " << program;
    EXPECT_GT(bound, 0.5 * result->duration) << "a bound, not a trivial one";
  }
  EXPECT_GE(planned, 6);
}

}  // namespace
}  // namespace motion
