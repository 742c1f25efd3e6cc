// PlanPath: whole programs (continuity, tiling, cycle time, ends checked with
// the test-side URDF FK), request validation, diagnostics that are results
// rather than errors, the point budget, stop_on_error, zones, the speed
// override against the closed form, and cancellation.

#include "core/motion/path_planner.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

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
using motion_test::ToPose;
using motion_test::Vec;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

bool Mentions(const absl::Status& status, const std::string& word) {
  return std::string(status.message()).find(word) != std::string::npos;
}

const Eigen::VectorXd& Ur5Start() {
  static const Eigen::VectorXd q = Vec({0.3, -1.2, 1.5, -1.8, -1.5, 0.4});
  return q;
}

MotionSegment MoveJ(const std::string& id, const Eigen::VectorXd& q, double fraction = 0.0) {
  MotionSegment s;
  s.id = id;
  s.kind = MotionKind::kMoveJ;
  s.joint_target = true;
  s.target_joints = Std(q);
  s.speed.joint_fraction = fraction;
  return s;
}

MotionSegment MoveJPose(const std::string& id, const Pose& target, double fraction = 0.0) {
  MotionSegment s;
  s.id = id;
  s.kind = MotionKind::kMoveJ;
  s.target = target;
  s.speed.joint_fraction = fraction;
  return s;
}

MotionSegment MoveL(const std::string& id, const Pose& target, double velocity = 0.0) {
  MotionSegment s;
  s.id = id;
  s.kind = MotionKind::kMoveL;
  s.target = target;
  s.speed.linear_velocity = velocity;
  return s;
}

MotionSegment MoveC(const std::string& id, const Pose& via, const Pose& target,
                    double velocity = 0.0) {
  MotionSegment s;
  s.id = id;
  s.kind = MotionKind::kMoveC;
  s.via = via;
  s.target = target;
  s.speed.linear_velocity = velocity;
  return s;
}

PathRequest Request(const Eigen::VectorXd& start, std::vector<MotionSegment> segments) {
  PathRequest r;
  r.start_joints = Std(start);
  r.segments = std::move(segments);
  return r;
}

std::string FirstMessage(const PathResult& r) {
  return r.diagnostics.empty() ? std::string() : r.diagnostics[0].message;
}

// Structure every completed path must have: strictly increasing times at
// most dt apart, segments tiling the samples, each starting where the
// previous ended, cycle time = sum of durations.
void CheckPathStructure(const Robot& robot, const PathResult& result, double dt) {
  const Trajectory& t = result.trajectory;
  const int dof = robot.chain->dof();
  ASSERT_GT(t.size(), 1u);
  ASSERT_EQ(t.positions.size(), t.size() * dof);
  ASSERT_EQ(t.velocities.size(), t.size() * dof);
  ASSERT_EQ(t.accelerations.size(), t.size() * dof);
  EXPECT_EQ(t.time.front(), 0.0);
  for (std::size_t k = 1; k < t.size(); ++k) {
    ASSERT_GT(t.time[k], t.time[k - 1]) << "sample " << k;
    ASSERT_LE(t.time[k] - t.time[k - 1], dt * (1 + 1e-9)) << "sample " << k;
  }
  double sum = 0;
  std::int64_t next_index = 0;
  std::size_t expected_size = 1;
  for (std::size_t i = 0; i < result.segments.size(); ++i) {
    const SegmentReport& s = result.segments[i];
    SCOPED_TRACE("segment " + s.segment_id);
    EXPECT_EQ(s.segment_index, static_cast<int>(i));
    EXPECT_EQ(s.first_index, next_index);
    next_index = s.first_index + s.point_count;
    EXPECT_NEAR(s.start_time, sum, 1e-9);
    sum += s.duration;
    // ceil(T / dt) new samples (none of these durations is a multiple).
    expected_size += static_cast<std::size_t>(std::ceil(s.duration / dt));
    // The segment's last sample is at its end time.
    EXPECT_NEAR(t.time[next_index - 1], s.start_time + s.duration, 1e-9);
    if (i == 0) continue;
    // The first new sample of segment i follows the shared one, a step of
    // at most dt away at no more than the joint speed limits.
    const std::size_t k = static_cast<std::size_t>(s.first_index);
    for (int j = 0; j < dof; ++j) {
      const double step = std::abs(t.positions[k * dof + j] - t.positions[(k - 1) * dof + j]);
      EXPECT_LE(step, robot.velocity_limit[j] * dt * 1.001) << robot.chain->dof_names[j];
    }
  }
  EXPECT_EQ(next_index, static_cast<std::int64_t>(t.size()));
  EXPECT_EQ(t.size(), expected_size);
  EXPECT_NEAR(result.duration, sum, 1e-9);
  EXPECT_EQ(result.duration, t.time.back());
  // Nowhere faster than the joint limits.
  for (std::size_t k = 1; k < t.size(); ++k) {
    const double h = t.time[k] - t.time[k - 1];
    for (int j = 0; j < dof; ++j) {
      const double fd = (t.positions[k * dof + j] - t.positions[(k - 1) * dof + j]) / h;
      ASSERT_LE(std::abs(fd), robot.velocity_limit[j] * 1.001) << "sample " << k;
    }
  }
}

// ------------------------------------------------------------ whole programs

TEST(PlanPathTest, TenSecondProgramAtFourMilliseconds) {
  const Robot robot = LoadRobot("ur5.urdf");
  ASSERT_NE(robot.chain, nullptr);
  const Eigen::VectorXd q0 = Ur5Start();
  const Eigen::VectorXd qa = Vec({0.8, -1.0, 1.3, -1.7, -1.4, 0.2});
  const Eigen::VectorXd qb = Vec({1.05, -0.8, 1.0, -1.5, -1.2, -0.1});
  const Eigen::VectorXd qc = Vec({0.5, -1.1, 1.4, -1.9, -1.6, 0.3});
  const Eigen::VectorXd qd = Vec({0.25, -1.25, 1.6, -1.9, -1.5, 0.5});
  const Eigen::Isometry3d pb = IndependentFk(robot.ichain, qb);
  const Eigen::Isometry3d pd = IndependentFk(robot.ichain, qd);
  // An arc of radius 6 cm in a tilted plane, starting at pb.
  const Eigen::Vector3d n = Eigen::Vector3d(0.2, -0.3, 1.0).normalized();
  const Eigen::Vector3d e1 = n.cross(Eigen::Vector3d::UnitX()).normalized(), e2 = n.cross(e1);
  const Eigen::Vector3d center = pb.translation() - 0.06 * e1;
  auto on_arc = [&](double a) { return center + 0.06 * (std::cos(a) * e1 + std::sin(a) * e2); };
  const Eigen::Matrix3d rb = pb.linear();

  PathRequest request =
      Request(q0, {MoveJ("approach", qa, 0.2), MoveL("line", ToPose(pb), 0.1),
                   MoveC("arc", ToPose(on_arc(1.2), rb),
                         ToPose(on_arc(2.6), rb * motion_test::RotZ(0.2)), 0.05),
                   MoveJPose("back", ToPose(IndependentFk(robot.ichain, qc)), 0.2),
                   MoveL("final", ToPose(pd), 0.07)});
  request.profile = ProfileKind::kTrapezoid;  // the first MoveJ's closed form is checked
  IkData ws(*robot.chain);
  auto result = PlanPath(*robot.chain, ws, request, PathLimits{});
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_TRUE(result->ok) << FirstMessage(*result);
  ASSERT_EQ(result->segments.size(), 5u);
  for (const SegmentReport& s : result->segments) {
    EXPECT_TRUE(s.ok) << s.segment_id;
    RecordProperty("duration_" + s.segment_id, std::to_string(s.duration));
  }
  // About 10 s at 4 ms: about 2 500 points.
  EXPECT_GT(result->duration, 8.5);
  EXPECT_LT(result->duration, 11.5);
  EXPECT_NEAR(static_cast<double>(result->trajectory.size()), result->duration / 0.004, 6.0);
  CheckPathStructure(robot, *result, 0.004);

  // The first MoveJ has its closed-form duration: the pan joint moves 0.5
  // rad at 0.2 x 3.15 rad/s (it binds the speed) and the line q0 + s (qa - q0)
  // accelerates at 0.2 x the least a_j / |dq_j| (efforts: RobotInfo); d > v^2/a,
  // so it cruises; rounded up to the 4 ms grid.
  const Eigen::VectorXd dq = qa - q0;
  double line_acceleration = std::numeric_limits<double>::infinity();
  for (int j = 0; j < 6; ++j) {
    line_acceleration =
        std::min(line_acceleration, robot.chain->dof_limits[j].max_acceleration / std::abs(dq[j]));
  }
  const double v = 0.2 * 3.15 / 0.5, a = 0.2 * line_acceleration;
  ASSERT_GT(1.0, v * v / a);
  EXPECT_NEAR(result->segments[0].duration, std::ceil((1.0 / v + v / a) / 0.004) * 0.004, 1e-12);
  // The pose targets are reached (independent FK); the last one ends the path.
  const Trajectory& t = result->trajectory;
  auto tcp_at = [&](std::int64_t k) { return IndependentFk(robot.ichain, t.Position(k)); };
  const SegmentReport& line = result->segments[1];
  EXPECT_LT(
      (tcp_at(line.first_index + line.point_count - 1).translation() - pb.translation()).norm(),
      1e-5);
  // The arc started where the line ended: its circle is the one built
  // through pb above.
  const SegmentReport& arc = result->segments[2];
  ASSERT_TRUE(arc.has_arc);
  EXPECT_LT((arc.arc.center - center).norm(), 1e-6);
  EXPECT_NEAR(arc.arc.radius, 0.06, 1e-6);
  EXPECT_NEAR(arc.arc.angle, 2.6, 1e-6);
  EXPECT_LT((tcp_at(arc.first_index + arc.point_count - 1).translation() - on_arc(2.6)).norm(),
            1e-5);
  const Eigen::Isometry3d last = tcp_at(static_cast<std::int64_t>(t.size()) - 1);
  EXPECT_LT((last.translation() - pd.translation()).norm(), 1e-5);
  EXPECT_LT(RotationDistance(last.linear(), pd.linear()), 1e-5);
}

TEST(PlanPathTest, ProgramEndingOnAJointTargetEndsExactlyThere) {
  const Robot robot = LoadRobot("ur5.urdf");
  ASSERT_NE(robot.chain, nullptr);
  const Eigen::VectorXd q0 = Ur5Start();
  const Eigen::VectorXd qa = Vec({0.55, -1.0, 1.2, -1.6, -1.3, 0.1});
  const Eigen::VectorXd qz = Vec({0.123456789, -1.3, 1.7654321, -1.6, -1.4, 0.7});
  IkData ws(*robot.chain);
  auto result = PlanPath(
      *robot.chain, ws,
      Request(q0, {MoveL("l", ToPose(IndependentFk(robot.ichain, qa)), 0.2), MoveJ("j", qz)}),
      PathLimits{});
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_TRUE(result->ok) << FirstMessage(*result);
  CheckPathStructure(robot, *result, 0.004);
  const Trajectory& t = result->trajectory;
  EXPECT_TRUE(t.Position(t.size() - 1) == qz)
      << (t.Position(t.size() - 1) - qz).transpose() * 1e16 << " (x 1e-16)";
}

// --------------------------------------------------------------- validation

TEST(PlanPathTest, BadRequestFieldsAreInvalidArgumentNamingTheField) {
  const Robot robot = LoadRobot("ur5.urdf");
  ASSERT_NE(robot.chain, nullptr);
  const Eigen::VectorXd q0 = Ur5Start();
  const PathRequest good = Request(q0, {MoveJ("j", Vec({0.5, -1.0, 1.3, -1.7, -1.4, 0.2}))});
  struct Case {
    const char* name;
    PathRequest request;
    const char* field;
  };
  std::vector<Case> cases;
  for (double dt : {0.0, -0.004, kNaN, std::numeric_limits<double>::infinity(), 5e-5}) {
    PathRequest r = good;
    r.sample_time = dt;
    cases.push_back({"sample_time", r, "sample_time"});
  }
  for (double o : {0.0, -0.5, 1.5, 1.0000001, kNaN}) {
    PathRequest r = good;
    r.speed_override = o;
    cases.push_back({"speed_override", r, "speed_override"});
  }
  {
    PathRequest r = good;
    r.segments[0].speed.linear_velocity = -0.1;
    cases.push_back({"negative speed", r, "segments[0].speed.linear_velocity"});
  }
  {
    PathRequest r = good;
    r.segments.push_back(r.segments[0]);
    r.segments[1].speed.angular_acceleration = kNaN;
    cases.push_back({"NaN speed", r, "segments[1].speed.angular_acceleration"});
  }
  {
    PathRequest r = good;
    r.segments[0].speed.joint_fraction = 1.5;
    cases.push_back({"joint_fraction > 1", r, "joint_fraction"});
  }
  {
    PathRequest r = good;
    r.segments[0].zone.kind = ZoneKind::kDistance;
    r.segments[0].zone.distance = -0.01;
    cases.push_back({"negative zone", r, "zone.distance"});
  }
  {
    PathRequest r = good;
    r.start_joints.pop_back();
    cases.push_back({"start joints too short", r, "start_joints"});
  }
  {
    PathRequest r = good;
    r.start_joints.push_back(0.0);
    cases.push_back({"start joints too long", r, "start_joints"});
  }
  {
    PathRequest r = good;
    r.start_joints[2] = kNaN;
    cases.push_back({"start joint NaN", r, "start_joints"});
  }
  {
    PathRequest r = good;
    r.segments[0].target_joints.resize(5);
    cases.push_back({"target joints too short", r, "segments[0]"});
  }
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    IkData ws(*robot.chain);
    auto result = PlanPath(*robot.chain, ws, c.request, PathLimits{});
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_TRUE(Mentions(result.status(), c.field)) << result.status();
  }
}

TEST(PlanPathTest, TooManySegmentsIsInvalidArgument) {
  const Robot robot = LoadRobot("ur5.urdf");
  ASSERT_NE(robot.chain, nullptr);
  PathLimits limits;
  limits.max_segments = 3;
  PathRequest request = Request(Ur5Start(), {});
  for (int i = 0; i < 4; ++i) request.segments.push_back(MoveJ("j", Ur5Start()));
  IkData ws(*robot.chain);
  auto result = PlanPath(*robot.chain, ws, request, limits);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(Mentions(result.status(), "segments")) << result.status();
}

TEST(PlanPathTest, EmptyProgramIsPathEmpty) {
  const Robot robot = LoadRobot("ur5.urdf");
  ASSERT_NE(robot.chain, nullptr);
  IkData ws(*robot.chain);
  auto result = PlanPath(*robot.chain, ws, Request(Ur5Start(), {}), PathLimits{});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_FALSE(result->ok);
  EXPECT_TRUE(HasCode(result->diagnostics, DiagnosticCode::kPathEmpty));
  EXPECT_EQ(result->trajectory.size(), 0u);
}

// ------------------------------------------------------ results, not errors

TEST(PlanPathTest, MoveLTargetFiveMetresAwayIsTargetUnreachable) {
  const Robot robot = LoadRobot("ur5.urdf");
  ASSERT_NE(robot.chain, nullptr);
  const Eigen::Isometry3d start = IndependentFk(robot.ichain, Ur5Start());
  const Pose far = ToPose(start.translation() + Eigen::Vector3d(5, 0, 0), start.linear());
  IkData ws(*robot.chain);
  auto result =
      PlanPath(*robot.chain, ws, Request(Ur5Start(), {MoveL("too_far", far)}), PathLimits{});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_FALSE(result->ok);
  ASSERT_EQ(result->segments.size(), 1u);
  EXPECT_FALSE(result->segments[0].ok);
  EXPECT_TRUE(HasCode(result->diagnostics, DiagnosticCode::kTargetUnreachable, "too_far"))
      << FirstMessage(*result);
}

TEST(PlanPathTest, StartOutsideLimitsIsJointLimit) {
  const Robot robot = LoadRobot("ur5.urdf");
  ASSERT_NE(robot.chain, nullptr);
  Eigen::VectorXd q0 = Ur5Start();
  q0[2] = 3.3;  // elbow: +-pi
  IkData ws(*robot.chain);
  auto result = PlanPath(*robot.chain, ws, Request(q0, {MoveJ("j", Ur5Start())}), PathLimits{});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_FALSE(result->ok);
  EXPECT_TRUE(HasCode(result->diagnostics, DiagnosticCode::kJointLimit));
}

// A DISTANCE zone between two MoveJs blends: the zoned target is passed by,
// not reached, the path does not stop there, and it is shorter than with a
// fine stop by the overlap the report gives. Zone geometry and limits in
// detail: zone_blending_test.cc.
TEST(PlanPathTest, ZoneDistanceBlendsIntoTheNextMotion) {
  const Robot robot = LoadRobot("ur5.urdf");
  ASSERT_NE(robot.chain, nullptr);
  const Eigen::VectorXd qa = Vec({0.5, -1.0, 1.3, -1.7, -1.4, 0.2});
  MotionSegment first = MoveJ("zoned", qa, 0.5);
  first.zone.kind = ZoneKind::kDistance;
  first.zone.distance = 0.01;
  IkData ws(*robot.chain);
  // The pan joint goes on turning at the corner while the others turn back (back to the start
  // along the same line would be a reversal of every joint: a stop, blended or not).
  const Eigen::VectorXd qb = Vec({0.8, -1.2, 1.5, -1.8, -1.5, 0.4});
  const PathRequest blended = Request(Ur5Start(), {first, MoveJ("fine", qb, 0.5)});
  auto result = PlanPath(*robot.chain, ws, blended, PathLimits{});
  PathRequest stopped = blended;
  stopped.segments[0].zone = ZoneSpec();
  auto fine = PlanPath(*robot.chain, ws, stopped, PathLimits{});
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_TRUE(fine.ok()) << fine.status();
  EXPECT_TRUE(result->ok);
  EXPECT_FALSE(HasCode(result->diagnostics, DiagnosticCode::kZoneApproximated));
  const BlendReport& blend = result->segments[0].blend;
  ASSERT_TRUE(blend.blended);
  EXPECT_LT(blend.start_index, blend.end_index);
  EXPECT_NEAR(fine->duration - result->duration, blend.time_saved, 1e-9);
  EXPECT_GT(blend.time_saved, 0.0);
  // Never at qa: the corner is cut, and no sample is at rest before the end.
  const Trajectory& t = result->trajectory;
  for (std::size_t k = 1; k + 1 < t.size(); ++k) {
    EXPECT_GT((t.Position(k) - qa).norm(), 1e-6) << "sample " << k;
    EXPECT_GT((t.Position(k + 1) - t.Position(k - 1)).norm(), 0.0) << "stopped at sample " << k;
  }
}

// ------------------------------------------------------------- point budget

TEST(PlanPathTest, BillionPointRequestIsRefusedBeforeSampling) {
  const Robot robot = LoadRobot("ur5.urdf");
  ASSERT_NE(robot.chain, nullptr);
  const Eigen::Isometry3d start = IndependentFk(robot.ichain, Ur5Start());
  const Pose near = ToPose(start.translation() + Eigen::Vector3d(0, 0, 0.1), start.linear());
  PathLimits limits;
  limits.max_points = 1000;
  // 0.1 m at 1 um/s is 1e5 s; at 0.1 ms that is 1e9 samples.
  MotionSegment slow_line = MoveL("slow_line", near, 1e-6);
  slow_line.speed.linear_acceleration = 1e-6;
  // 1.1 rad at 1e-7 of 3.15 rad/s: ~3.5e6 s, 3.5e10 samples.
  MotionSegment slow_joint = MoveJ("slow_joint", Vec({1.4, -1.2, 1.5, -1.8, -1.5, 0.4}), 1e-7);
  for (const MotionSegment& segment : {slow_line, slow_joint}) {
    SCOPED_TRACE(segment.id);
    PathRequest request = Request(Ur5Start(), {segment});
    request.sample_time = 1e-4;
    IkData ws(*robot.chain);
    const auto begin = std::chrono::steady_clock::now();
    auto result = PlanPath(*robot.chain, ws, request, limits);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_TRUE(Mentions(result.status(), "segments[0]")) << result.status();
    EXPECT_LT(seconds, 1.0) << "refused before sampling";
  }
}

TEST(PlanPathTest, BudgetCountsTheWholePath) {
  // Two segments of ~300 samples each fit 1000; three of them do not, and
  // the third is the one named.
  const Robot robot = LoadRobot("ur5.urdf");
  ASSERT_NE(robot.chain, nullptr);
  const Eigen::VectorXd qa = Vec({0.8, -1.2, 1.5, -1.8, -1.5, 0.4});
  PathLimits limits;
  limits.max_points = 1000;
  // 0.5 rad on the pan joint at a fraction f of its limits: 0.5 / (f v) + v / a
  // = 0.6 s, 300 samples at 2 ms.
  const JointLimits& pan = robot.chain->dof_limits[0];
  const double f = 0.5 / (pan.max_velocity * (0.6 - pan.max_velocity / pan.max_acceleration));
  ASSERT_GT(f, 0.0);
  ASSERT_LE(f, 1.0);
  PathRequest request = Request(Ur5Start(), {MoveJ("a", qa, f), MoveJ("b", Ur5Start(), f)});
  request.sample_time = 0.002;
  request.profile = ProfileKind::kTrapezoid;  // the sample counts above
  IkData ws(*robot.chain);
  auto ok = PlanPath(*robot.chain, ws, request, limits);
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_LE(ok->trajectory.size(), 1000u);
  request.segments.push_back(MoveJ("c", qa, f));
  request.segments.push_back(MoveJ("d", Ur5Start(), f));
  auto refused = PlanPath(*robot.chain, ws, request, limits);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(Mentions(refused.status(), "segments[3]")) << refused.status();
}

// ------------------------------------------------------------ stop_on_error

TEST(PlanPathTest, StopOnErrorIsHonoured) {
  const Robot robot = LoadRobot("ur5.urdf");
  ASSERT_NE(robot.chain, nullptr);
  const Eigen::VectorXd qa = Vec({0.5, -1.0, 1.3, -1.7, -1.4, 0.2});
  const Eigen::VectorXd qz = Vec({0.2, -1.3, 1.6, -1.9, -1.6, 0.5});
  const Eigen::Isometry3d pa = IndependentFk(robot.ichain, qa);
  // A degenerate arc (via = start) whose target is reachable.
  const Eigen::Isometry3d reachable =
      IndependentFk(robot.ichain, Vec({0.6, -1.0, 1.2, -1.7, -1.4, 0.2}));
  const MotionSegment bad = MoveC("bad_arc", ToPose(pa), ToPose(reachable));
  const std::vector<MotionSegment> program = {MoveJ("first", qa), bad, MoveJ("last", qz)};

  {
    PathRequest request = Request(Ur5Start(), program);
    request.stop_on_error = true;
    IkData ws(*robot.chain);
    auto result = PlanPath(*robot.chain, ws, request, PathLimits{});
    ASSERT_TRUE(result.ok()) << result.status();
    EXPECT_FALSE(result->ok);
    ASSERT_EQ(result->segments.size(), 2u) << "nothing planned after the failed segment";
    EXPECT_TRUE(result->segments[0].ok);
    EXPECT_FALSE(result->segments[1].ok);
    EXPECT_TRUE(HasCode(result->diagnostics, DiagnosticCode::kArcDegenerate, "bad_arc"));
    const Trajectory& t = result->trajectory;
    EXPECT_EQ(t.size(), static_cast<std::size_t>(result->segments[0].point_count));
    EXPECT_TRUE(t.Position(t.size() - 1) == qa);
  }
  {
    PathRequest request = Request(Ur5Start(), program);
    request.stop_on_error = false;
    IkData ws(*robot.chain);
    auto result = PlanPath(*robot.chain, ws, request, PathLimits{});
    ASSERT_TRUE(result.ok()) << result.status();
    EXPECT_FALSE(result->ok);
    ASSERT_EQ(result->segments.size(), 3u) << "later segments are planned too";
    EXPECT_TRUE(result->segments[2].ok);
    const Trajectory& t = result->trajectory;
    EXPECT_TRUE(t.Position(t.size() - 1) == qz);
    // The last segment started from the failed segment's target.
    const SegmentReport& last = result->segments[2];
    const Eigen::Isometry3d from = IndependentFk(robot.ichain, t.Position(last.first_index));
    EXPECT_LT((from.translation() - reachable.translation()).norm(), 1e-5);
    // Times stay strictly increasing across the discontinuity.
    for (std::size_t k = 1; k < t.size(); ++k) {
      EXPECT_GT(t.time[k], t.time[k - 1]) << "sample " << k << " at t = " << t.time[k];
    }
    EXPECT_EQ(result->duration, t.time.back());
  }
}

// ------------------------------------------------------------ speed override

TEST(PlanPathTest, HalfOverrideOnACruiseDominatedMoveL) {
  // L / v + v / a at override 1 and 2 (L / v + v / a) at 0.5: the override
  // is a time scaling of the fastest timing (velocity x f, acceleration x
  // f^2), so the whole motion takes 1 / f as long (issue 26).
  const Robot robot = LoadRobot("ur5.urdf");
  ASSERT_NE(robot.chain, nullptr);
  const Eigen::Isometry3d start = IndependentFk(robot.ichain, Ur5Start());
  const Eigen::Vector3d delta(0.12, -0.1, 0.15);
  const double length = delta.norm();
  const Pose target = ToPose(start.translation() + delta, start.linear());
  const double v = 0.1, a = 1.0;
  MotionSegment segment = MoveL("l", target, v);
  segment.speed.linear_acceleration = a;
  double durations[2] = {0, 0};
  const double overrides[2] = {1.0, 0.5};
  for (int i = 0; i < 2; ++i) {
    PathRequest request = Request(Ur5Start(), {segment});
    request.speed_override = overrides[i];
    request.profile = ProfileKind::kTrapezoid;  // the closed forms below
    IkData ws(*robot.chain);
    auto result = PlanPath(*robot.chain, ws, request, PathLimits{});
    ASSERT_TRUE(result.ok()) << result.status();
    ASSERT_TRUE(result->ok) << FirstMessage(*result);
    durations[i] = result->duration;
    CheckPathStructure(robot, *result, 0.004);
  }
  // On the 4 ms grid.
  auto on_grid = [](double t) { return std::ceil(t / 0.004 - 1e-9) * 0.004; };
  EXPECT_NEAR(durations[0], on_grid(length / v + v / a), 1e-9);
  EXPECT_NEAR(durations[1], on_grid(2 * (length / v + v / a)), 1e-9);
  EXPECT_NEAR(durations[1] / durations[0], 2.0, 0.01);
}

// --------------------------------------------------------------- cancellation

TEST(PlanPathTest, CancellationIsCancelled) {
  const Robot robot = LoadRobot("ur5.urdf");
  ASSERT_NE(robot.chain, nullptr);
  const Eigen::Isometry3d start = IndependentFk(robot.ichain, Ur5Start());
  const PathRequest request = Request(
      Ur5Start(),
      {MoveJ("j", Vec({0.8, -1.0, 1.3, -1.7, -1.4, 0.2})),
       MoveL("l", ToPose(start.translation() + Eigen::Vector3d(0, 0, 0.1), start.linear()))});
  {
    IkData ws(*robot.chain);
    auto result = PlanPath(*robot.chain, ws, request, PathLimits{}, [] { return true; });
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.status().code(), absl::StatusCode::kCancelled);
  }
  // Cancelled part-way: after some polls, inside the sampling loops.
  for (int after : {1, 3, 5}) {
    int polls = 0;
    IkData ws(*robot.chain);
    auto result =
        PlanPath(*robot.chain, ws, request, PathLimits{}, [&] { return ++polls > after; });
    ASSERT_FALSE(result.ok()) << "after " << after;
    EXPECT_EQ(result.status().code(), absl::StatusCode::kCancelled);
  }
  // Never cancelled: plans normally.
  IkData ws(*robot.chain);
  auto result = PlanPath(*robot.chain, ws, request, PathLimits{}, [] { return false; });
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_TRUE(result->ok) << FirstMessage(*result);
}

}  // namespace
}  // namespace motion

namespace motion {
namespace {

TEST(PlanPathTest, SampleFartherFromTheLineThanThePathToleranceIsCartesianDeviation) {
  // The polished IK tracks the line to ~1e-12 m: a tolerance of 1e-14 m
  // must catch it (with the sample), the default 1e-5 m must not.
  const Robot robot = LoadRobot("ur5.urdf");
  ASSERT_NE(robot.chain, nullptr);
  const Eigen::Isometry3d start = IndependentFk(robot.ichain, Ur5Start());
  const Pose target =
      ToPose(start.translation() + Eigen::Vector3d(0.05, 0.02, -0.03), start.linear());
  // Unset (0.0 here) is the default; 0 itself is refused (next test).
  for (const double tolerance : {0.0, 1e-14}) {
    MotionSegment line = MoveL("line", target, 0.1);
    if (tolerance > 0) line.path_tolerance = tolerance;
    IkData ws(*robot.chain);
    auto result = PlanPath(*robot.chain, ws, Request(Ur5Start(), {line}), PathLimits{});
    ASSERT_TRUE(result.ok()) << result.status();
    const bool caught = HasCode(result->diagnostics, DiagnosticCode::kCartesianDeviation, "line");
    EXPECT_EQ(caught, tolerance > 0) << "tolerance " << tolerance;
    if (caught) {
      EXPECT_FALSE(result->ok);
      for (const Diagnostic& d : result->diagnostics) {
        if (d.code == DiagnosticCode::kCartesianDeviation) {
          EXPECT_GE(d.point_index, 0);
        }
      }
    }
  }
}

TEST(PlanPathTest, NegativePathToleranceIsRefusedNamingTheField) {
  const Robot robot = LoadRobot("ur5.urdf");
  ASSERT_NE(robot.chain, nullptr);
  MotionSegment line = MoveL("line", ToPose(IndependentFk(robot.ichain, Ur5Start())), 0.1);
  line.path_angle_tolerance = -1;
  IkData ws(*robot.chain);
  auto result = PlanPath(*robot.chain, ws, Request(Ur5Start(), {line}), PathLimits{});
  ASSERT_FALSE(result.ok());
  EXPECT_TRUE(Mentions(result.status(), "segments[0].path_angle_tolerance")) << result.status();
}

}  // namespace
}  // namespace motion

namespace motion {
namespace {

TEST(PlanPathTest, MoveJSamplesAreCheckedForSingularityLikeCartesianOnes) {
  // wrist_2 (q5) = 0 aligns the UR5's wrist axes 4 and 6: every sample of a
  // MoveJ that only turns the base there is singular; the usual start is not.
  const Robot robot = LoadRobot("ur5.urdf");
  ASSERT_NE(robot.chain, nullptr);
  const Eigen::VectorXd a = Vec({0.0, -1.2, 1.5, -1.8, 0.0, 0.4});
  const Eigen::VectorXd b = Vec({0.6, -1.2, 1.5, -1.8, 0.0, 0.4});
  IkData ws(*robot.chain);
  auto singular = PlanPath(*robot.chain, ws, Request(a, {MoveJ("wrist_aligned", b)}), PathLimits{});
  ASSERT_TRUE(singular.ok()) << singular.status();
  EXPECT_TRUE(HasCode(singular->diagnostics, DiagnosticCode::kSingularity, "wrist_aligned"));
  const Eigen::VectorXd elsewhere = Vec({0.5, -1.0, 1.3, -1.7, -1.4, 0.2});
  auto regular =
      PlanPath(*robot.chain, ws, Request(Ur5Start(), {MoveJ("regular", elsewhere)}), PathLimits{});
  ASSERT_TRUE(regular.ok()) << regular.status();
  EXPECT_FALSE(HasCode(regular->diagnostics, DiagnosticCode::kSingularity, "regular"));
}

}  // namespace
}  // namespace motion

namespace motion {
namespace {

TEST(PlanPathTest, StopOnErrorStopsAtACompletedSegmentWithAnError) {
  // The MoveL is sampled to its end but breaks its (absurdly tight) path
  // tolerance: an error on a completed segment. With stop_on_error the
  // MoveJ after it is not planned; without, it is.
  const Robot robot = LoadRobot("ur5.urdf");
  ASSERT_NE(robot.chain, nullptr);
  const Eigen::Isometry3d start = IndependentFk(robot.ichain, Ur5Start());
  MotionSegment line = MoveL(
      "tight", ToPose(start.translation() + Eigen::Vector3d(0.03, 0.0, 0.0), start.linear()), 0.1);
  line.path_tolerance = 1e-14;
  for (const bool stop : {true, false}) {
    PathRequest request = Request(Ur5Start(), {line, MoveJ("after", Ur5Start())});
    request.stop_on_error = stop;
    IkData ws(*robot.chain);
    auto result = PlanPath(*robot.chain, ws, request, PathLimits{});
    ASSERT_TRUE(result.ok()) << result.status();
    EXPECT_FALSE(result->ok);
    ASSERT_FALSE(result->segments.empty());
    EXPECT_TRUE(HasCode(result->segments[0].diagnostics, DiagnosticCode::kCartesianDeviation));
    EXPECT_EQ(result->segments.size(), stop ? 1u : 2u) << "stop_on_error " << stop;
  }
}

}  // namespace
}  // namespace motion
