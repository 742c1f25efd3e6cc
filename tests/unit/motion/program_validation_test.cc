// ValidateProgram and ResolveProgramDefaults: the whole program is checked
// before its first segment is planned (the planner's cancellation hook, polled
// before every segment and every 64 samples, is never called for a program
// refused by validation), field paths name the segment, and defaults replace
// exact zeros only.
#include "core/motion/program_validation.h"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"

#include "core/cache/chain_data_cache.h"
#include "core/motion/path_planner.h"
#include "motion_test_support.h"

namespace motion {
namespace {

using motion_test::LoadRobot;
using motion_test::Robot;

MotionSegment MoveJ(const std::string& id, std::vector<double> joints) {
  MotionSegment s;
  s.id = id;
  s.kind = MotionKind::kMoveJ;
  s.joint_target = true;
  s.target_joints = std::move(joints);
  return s;
}

// Five good MoveJs back and forth, each a real motion.
PathRequest GoodProgram() {
  PathRequest request;
  request.start_joints = {0.3, -1.2, 1.5, -1.8, -1.5, 0.4};
  for (int i = 0; i < 5; ++i) {
    request.segments.push_back(MoveJ(
        "j" + std::to_string(i),
        i % 2 == 0 ? std::vector<double>{0.5, -1.0, 1.3, -1.7, -1.4, 0.2} : request.start_joints));
  }
  return request;
}

TEST(ProgramValidationTest, MalformedLastSegmentIsRefusedBeforeTheFirstIsPlanned) {
  const Robot robot = LoadRobot("ur5.urdf");
  ASSERT_NE(robot.chain, nullptr);
  IkData ws(*robot.chain);
  PathRequest request = GoodProgram();
  request.segments.push_back(MoveJ("bad", {0.1, 0.2, 0.3, 0.4, 0.5}));  // 5 of 6 joints

  int polls = 0;
  const absl::StatusOr<PathResult> result =
      PlanPath(*robot.chain, ws, request, PathLimits{}, [&polls] { return ++polls, false; });
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(std::string(result.status().message()).rfind("segments[5].movej.joints: ", 0), 0u)
      << result.status();
  EXPECT_EQ(polls, 0) << "segments were planned before the program was refused";

  // The same hook is polled when the program is good: the check above can fail.
  request.segments.pop_back();
  polls = 0;
  ASSERT_TRUE(
      PlanPath(*robot.chain, ws, request, PathLimits{}, [&polls] { return ++polls, false; }).ok());
  EXPECT_GT(polls, 5);
}

TEST(ProgramValidationTest, NonFiniteMoveJTargetIsNamedByIndex) {
  const Robot robot = LoadRobot("ur5.urdf");
  ASSERT_NE(robot.chain, nullptr);
  PathRequest request = GoodProgram();
  request.segments[3].target_joints[2] = std::numeric_limits<double>::quiet_NaN();
  const absl::Status status = ValidateProgram(*robot.chain, request, PathLimits{});
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(std::string(status.message()).rfind("segments[3].movej.joints[2]", 0), 0u) << status;
}

TEST(ProgramValidationTest, DefaultsReplaceExactZerosOnly) {
  PathRequest request;
  request.sample_time = 0;
  request.speed_override = 0;
  MotionSegment zero;
  MotionSegment negative;
  negative.speed.linear_velocity = -0.1;
  negative.speed.joint_fraction = 0.5;
  request.segments = {zero, negative};

  const Robot robot = LoadRobot("ur5.urdf");
  ASSERT_NE(robot.chain, nullptr);
  const PathRequest resolved = ResolveProgramDefaults(*robot.chain, request);
  EXPECT_EQ(resolved.sample_time, 0.004);
  EXPECT_EQ(resolved.speed_override, 1.0);
  const SpeedSpec& a = resolved.segments[0].speed;
  EXPECT_EQ(a.joint_fraction, 1.0);
  EXPECT_EQ(a.linear_velocity, 0.25);
  EXPECT_EQ(a.linear_acceleration, 1.0);
  EXPECT_EQ(a.angular_velocity, 1.0);
  EXPECT_EQ(a.angular_acceleration, 2.0);
  const SpeedSpec& b = resolved.segments[1].speed;
  EXPECT_EQ(b.linear_velocity, -0.1);  // left for ValidateProgram to name
  EXPECT_EQ(b.joint_fraction, 0.5);
}

TEST(ProgramValidationTest, AZeroPathToleranceIsRefusedAndUnsetIsTheDefault) {
  // No sampled motion is exactly on its path: an explicit tolerance of 0
  // asks the impossible and is refused naming the field; unset resolves to
  // 1e-5 m / 1e-4 rad (the documented defaults).
  const Robot robot = LoadRobot("ur5.urdf");
  ASSERT_NE(robot.chain, nullptr);
  PathRequest request;
  request.sample_time = 0.004;
  request.speed_override = 1.0;
  request.start_joints = std::vector<double>(6, 0.0);
  MotionSegment unset;
  unset.kind = MotionKind::kMoveL;
  request.segments = {unset};
  EXPECT_TRUE(ValidateProgram(*robot.chain, request, PathLimits{}).ok());
  const PathRequest resolved = ResolveProgramDefaults(*robot.chain, request);
  EXPECT_EQ(resolved.segments[0].path_tolerance, 1e-5);
  EXPECT_EQ(resolved.segments[0].path_angle_tolerance, 1e-4);

  for (const char* field : {"path_tolerance", "path_angle_tolerance"}) {
    for (const double bad : {0.0, -1e-6, std::nan("")}) {
      MotionSegment segment = unset;
      (std::string(field) == "path_tolerance" ? segment.path_tolerance
                                              : segment.path_angle_tolerance) = bad;
      request.segments = {unset, segment};
      const absl::Status status = ValidateProgram(*robot.chain, request, PathLimits{});
      EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << field << " " << bad;
      EXPECT_NE(status.message().find(absl::StrCat("segments[1].", field, ": must be")),
                std::string::npos)
          << status;
    }
  }
  // A tiny positive tolerance is a request, not an error (CARTESIAN_DEVIATION
  // reports what the samples reach: path_planner_test).
  MotionSegment tight = unset;
  tight.path_tolerance = 1e-14;
  request.segments = {tight};
  EXPECT_TRUE(ValidateProgram(*robot.chain, request, PathLimits{}).ok());
}

}  // namespace
}  // namespace motion
