// MoveJ.avoid_collisions over real gRPC: a UR5 (links as capsules, its
// meshes not sent) in front of a wall between start and target. The
// straight MoveJ hits the wall; with avoid_collisions the trajectory ends
// at the target, within every limit (divided differences of the positions
// against GetRobot's limits), on a uniform grid, and a test-side check —
// CheckCollision of every sample and of points every few milliradians
// between samples, not the planner's motion bound — finds it clear. Two
// identical requests give the same doubles; a target inside an obstacle is
// PLANNING_FAILED naming it; bad values name their field.

#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "service_test_support.h"

namespace motiond_test {
namespace {

const std::vector<double> kStart = {-1.0, -1.0, 1.6, -2.2, -1.57, 0.0};
const std::vector<double> kTarget = {1.0, -1.0, 1.6, -2.2, -1.57, 0.0};

class AvoidCollisionsTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(stubs_.RegisterRobot(ReadRobot("ur5.urdf"), &robot_).ok()); }

  // The wall stands between start and target, 4 cm thick, in the plane y = 0.
  v1::PlanPathRequest Request(bool avoid, const std::vector<double>& target = kTarget) const {
    v1::PlanPathRequest request;
    request.mutable_robot()->set_robot_id(robot_.robot_id());
    for (double q : kStart) request.add_start_joints(q);
    request.set_sample_time(0.004);
    *request.mutable_scene()->mutable_scene()->add_objects() =
        WireBox("wall", 0.55, 0.0, 0.3, 0.4, 0.04, 0.6);
    v1::MotionSegment* move = request.add_segments();
    move->set_id("around");
    for (double q : target) move->mutable_movej()->mutable_joints()->add_values(q);
    move->mutable_movej()->set_avoid_collisions(avoid);
    return request;
  }

  // `request` fails: an error PLANNING_FAILED whose message says `why` and
  // whose contact names the object "block", and nothing sampled.
  void ExpectPlanningFailedOnTheBlock(const v1::PlanPathRequest& request, const std::string& why) {
    const PlanPathCall call = CallPlanPath(stubs_.planner(), request, std::chrono::seconds(60));
    ASSERT_TRUE(call.status.ok()) << Describe(call.status);
    ASSERT_NE(call.summary(), nullptr);
    EXPECT_FALSE(call.summary()->ok());
    bool named = false;
    for (const auto& d : call.summary()->diagnostics()) {
      if (d.code() != v1::PLANNING_FAILED) continue;
      named = d.contact().other() == "block" && d.severity() == v1::SEVERITY_ERROR;
      EXPECT_NE(d.message().find(why), std::string::npos) << d.message();
    }
    EXPECT_TRUE(named) << call.summary()->ShortDebugString().substr(0, 800);
    const std::vector<v1::SegmentReport> reports = call.reports();
    ASSERT_EQ(reports.size(), 1u);
    EXPECT_FALSE(reports[0].ok());
    EXPECT_EQ(reports[0].point_count(), 0);
  }

  // FK of the target joints: the TCP a pose target asks for.
  bool TargetFk(v1::ComputeFkResponse& target) {
    v1::ComputeFkRequest fk;
    fk.mutable_robot()->set_robot_id(robot_.robot_id());
    for (double q : kTarget) fk.add_joints(q);
    return stubs_.ComputeFk(fk, &target).ok();
  }

  struct Samples {
    std::vector<double> time, q;
  };
  static Samples SamplesOf(const PlanPathCall& call) {
    Samples s;
    for (const v1::PlanPathResponse& m : call.messages) {
      if (!m.has_chunk()) continue;
      s.time.insert(s.time.end(), m.chunk().time().begin(), m.chunk().time().end());
      s.q.insert(s.q.end(), m.chunk().positions().begin(), m.chunk().positions().end());
    }
    return s;
  }

  // A uniform grid, and every limit by divided differences of positions
  // (the arm at rest before and after), against GetRobot's limits.
  void ExpectWithinLimits(const Samples& s) const {
    const int dof = 6;
    const std::size_t n = s.time.size();
    const double dt = 0.004;
    for (std::size_t k = 1; k < n; ++k) EXPECT_NEAR(s.time[k] - s.time[k - 1], dt, 1e-9);
    auto q = [&](long k, int j) {
      k = std::clamp<long>(k, 0, static_cast<long>(n) - 1);
      return s.q[k * dof + j];
    };
    for (int j = 0; j < dof; ++j) {
      const v1::JointInfo& limit = robot_.info().joints(j);
      double v = 0, a = 0, jerk = 0;
      for (long k = -3; k < static_cast<long>(n) + 3; ++k) {
        v = std::max(v, std::abs(q(k + 1, j) - q(k, j)) / dt);
        a = std::max(a, std::abs(q(k + 1, j) - 2 * q(k, j) + q(k - 1, j)) / (dt * dt));
        jerk = std::max(jerk, std::abs(q(k + 2, j) - 3 * q(k + 1, j) + 3 * q(k, j) - q(k - 1, j)) /
                                  (dt * dt * dt));
      }
      EXPECT_LE(v, limit.max_velocity() * (1 + 1e-6)) << limit.name();
      EXPECT_LE(a, limit.max_acceleration() * (1 + 1e-3)) << limit.name();
      EXPECT_LE(jerk, limit.max_jerk() * (1 + 1e-3)) << limit.name();
    }
  }

  // Every sample, and `between` points inside every interval, by
  // CheckCollision against the same scene: the contacts found.
  int ContactsAlong(const Samples& s, const v1::Scene& scene, int between) {
    const int dof = 6;
    const std::size_t n = s.time.size();
    std::vector<std::vector<double>> configurations;
    for (std::size_t k = 0; k < n; ++k) {
      for (int i = 0; i < (k + 1 < n ? between + 1 : 1); ++i) {
        const double f = static_cast<double>(i) / (between + 1);
        std::vector<double> q(dof);
        for (int j = 0; j < dof; ++j) {
          const double a = s.q[k * dof + j];
          q[j] = i == 0 ? a : a + f * (s.q[(k + 1) * dof + j] - a);
        }
        configurations.push_back(q);
      }
    }
    int contacts = 0;
    for (std::size_t first = 0; first < configurations.size(); first += 5000) {
      v1::CheckCollisionRequest request;
      request.mutable_robot()->set_robot_id(robot_.robot_id());
      *request.mutable_scene()->mutable_scene() = scene;
      request.set_check_self_collision(false);  // as PlanPath without meshes
      for (std::size_t c = first; c < std::min(configurations.size(), first + 5000); ++c) {
        request.add_configurations()->mutable_values()->Add(configurations[c].begin(),
                                                            configurations[c].end());
      }
      v1::CheckCollisionResponse response;
      grpc::ClientContext context;
      context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
      const grpc::Status status = stubs_.kinematics().CheckCollision(&context, request, &response);
      EXPECT_TRUE(status.ok()) << Describe(status);
      for (const auto& r : response.results()) contacts += r.contacts_size();
    }
    return contacts;
  }

  TestServer server_;
  Stubs stubs_{server_.NewChannel(), std::chrono::seconds(60)};
  v1::RegisterRobotResponse robot_;
};

TEST_F(AvoidCollisionsTest, TheStraightMoveJHitsTheWallAndAvoidCollisionsGoesAround) {
  const PlanPathCall straight = CallPlanPath(stubs_.planner(), Request(false));
  ASSERT_TRUE(straight.status.ok()) << Describe(straight.status);
  ASSERT_NE(straight.summary(), nullptr);
  EXPECT_FALSE(straight.summary()->ok());
  bool hit_wall = false;
  for (const auto& d : straight.summary()->diagnostics()) {
    hit_wall |= d.code() == v1::COLLISION && d.contact().other() == "wall";
  }
  EXPECT_TRUE(hit_wall);

  const v1::PlanPathRequest request = Request(true);
  const PlanPathCall around = CallPlanPath(stubs_.planner(), request, std::chrono::seconds(60));
  ASSERT_TRUE(around.status.ok()) << Describe(around.status);
  ASSERT_NE(around.summary(), nullptr);
  ASSERT_TRUE(around.summary()->ok()) << around.summary()->ShortDebugString().substr(0, 800);
  EXPECT_TRUE(around.summary()->collision_checked());
  EXPECT_TRUE(around.summary()->collision_free());
  const std::vector<v1::SegmentReport> reports = around.reports();
  ASSERT_EQ(reports.size(), 1u);
  const v1::JointPathReport& path = reports[0].joint_path();
  EXPECT_TRUE(path.planned());
  ASSERT_GE(path.waypoints_size(), 3);
  EXPECT_GE(path.length(), path.straight_length());
  EXPECT_GT(path.planning_time(), 0.0);
  EXPECT_GT(path.nodes(), 0);

  const Samples s = SamplesOf(around);
  const int dof = 6;
  const std::size_t n = s.time.size();
  ASSERT_GT(n, 10u);
  for (int j = 0; j < dof; ++j) {
    EXPECT_EQ(s.q[j], kStart[j]);
    EXPECT_EQ(s.q[(n - 1) * dof + j], kTarget[j]) << "ends exactly at the target";
  }
  ExpectWithinLimits(s);
  // Clear at every sample and at 7 points inside every interval.
  EXPECT_EQ(ContactsAlong(s, request.scene().scene(), 7), 0);
  // The test-side check does find the straight motion's contacts.
  EXPECT_GT(ContactsAlong(SamplesOf(straight), request.scene().scene(), 0), 0);
}

// The corners between the planned legs are rounded where the rounding is
// clear. Second method: the same legs planned as a program of plain MoveJ
// with fine stops, one request; the rounded motion is that program's cycle
// time less the time the report says was saved, shorter by something, and
// it stops (every joint velocity zero) only at the corners not rounded.
// At the UR5's own limits (accelerations from its efforts) a joint turns
// back at these corners, which overlapping the legs in time cannot round
// (their accelerations add); the legs on one rounded curve can. At the
// documented default accelerations (2 x velocity, jerk 10 x that), asked
// for explicitly, the same holds.
class RoundedCornersTest : public AvoidCollisionsTest,
                           public ::testing::WithParamInterface<bool> {};

TEST_P(RoundedCornersTest, CornersAreRoundedWhereTheRoundingStaysClear) {
  v1::PlanPathRequest request = Request(true);
  if (GetParam()) {
    for (const v1::JointInfo& joint : robot_.info().joints()) {
      v1::JointLimitOverride* o = request.mutable_robot()->add_joint_limits();
      o->set_joint_name(joint.name());
      o->set_max_acceleration(2.0 * joint.max_velocity());
      o->set_max_jerk(20.0 * joint.max_velocity());
    }
  }
  const PlanPathCall around = CallPlanPath(stubs_.planner(), request, std::chrono::seconds(60));
  ASSERT_TRUE(around.status.ok()) << Describe(around.status);
  ASSERT_NE(around.summary(), nullptr);
  ASSERT_TRUE(around.summary()->ok());
  EXPECT_TRUE(around.summary()->collision_free());
  const std::vector<v1::SegmentReport> reports = around.reports();
  ASSERT_EQ(reports.size(), 1u);
  const v1::JointPathReport& path = reports[0].joint_path();
  const int corners = path.waypoints_size() - 2;
  ASSERT_GE(corners, 1);
  EXPECT_GE(path.rounded_corners(), 1) << "the wall leaves room to round a corner";
  EXPECT_LE(path.rounded_corners(), corners);
  EXPECT_GT(path.rounding_time_saved(), 0.0);
  // Some joint turns back at a corner (what overlapping legs cannot round).
  bool turns_back = false;
  for (int w = 1; w + 1 < path.waypoints_size(); ++w) {
    for (int j = 0; j < path.waypoints(w).values_size(); ++j) {
      const double in = path.waypoints(w).values(j) - path.waypoints(w - 1).values(j);
      const double out = path.waypoints(w + 1).values(j) - path.waypoints(w).values(j);
      turns_back = turns_back || in * out < -1e-6;
    }
  }
  EXPECT_TRUE(turns_back);

  v1::PlanPathRequest legs = request;
  legs.clear_segments();
  for (int w = 1; w < path.waypoints_size(); ++w) {
    v1::MotionSegment* leg = legs.add_segments();
    *leg->mutable_movej()->mutable_joints() = path.waypoints(w);
  }
  const PlanPathCall stopped = CallPlanPath(stubs_.planner(), legs, std::chrono::seconds(60));
  ASSERT_TRUE(stopped.status.ok()) << Describe(stopped.status);
  ASSERT_NE(stopped.summary(), nullptr);
  ASSERT_TRUE(stopped.summary()->ok());
  EXPECT_NEAR(around.summary()->duration(),
              stopped.summary()->duration() - path.rounding_time_saved(), 1e-9);

  // Interior samples with every joint at rest: one per corner not rounded.
  std::vector<double> v;
  for (const v1::PlanPathResponse& m : around.messages) {
    if (m.has_chunk())
      v.insert(v.end(), m.chunk().velocities().begin(), m.chunk().velocities().end());
  }
  const int dof = 6;
  const std::size_t n = v.size() / dof;
  int rests = 0;
  for (std::size_t k = 1; k + 1 < n; ++k) {
    bool rest = true;
    for (int j = 0; j < dof; ++j) rest = rest && std::abs(v[k * dof + j]) < 1e-12;
    rests += rest;
  }
  EXPECT_EQ(rests, corners - path.rounded_corners());
}

INSTANTIATE_TEST_SUITE_P(OwnAndDefaultLimits, RoundedCornersTest, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "TwoTimesVelocity" : "OwnLimits";
                         });

TEST_F(AvoidCollisionsTest, TwoIdenticalRequestsGiveTheSameDoubles) {
  const PlanPathCall a = CallPlanPath(stubs_.planner(), Request(true), std::chrono::seconds(60));
  const PlanPathCall b = CallPlanPath(stubs_.planner(), Request(true), std::chrono::seconds(60));
  ASSERT_TRUE(a.status.ok() && b.status.ok());
  const Samples sa = SamplesOf(a), sb = SamplesOf(b);
  ASSERT_EQ(sa.q.size(), sb.q.size());
  EXPECT_TRUE(sa.q == sb.q);
  EXPECT_TRUE(sa.time == sb.time);
  // Another seed: another search, also clear and at the target.
  v1::PlanPathRequest other = Request(true);
  other.mutable_segments(0)->mutable_movej()->set_planner_seed(12345);
  const PlanPathCall c = CallPlanPath(stubs_.planner(), other, std::chrono::seconds(60));
  ASSERT_TRUE(c.status.ok());
  ASSERT_NE(c.summary(), nullptr);
  EXPECT_TRUE(c.summary()->ok());
}

TEST_F(AvoidCollisionsTest, AClearStraightMotionStaysTheStraightMotion) {
  v1::PlanPathRequest plain = Request(false);
  plain.mutable_scene()
      ->mutable_scene()
      ->mutable_objects(0)
      ->mutable_pose()
      ->mutable_position()
      ->set_z(3.0);  // the wall far above the arm
  v1::PlanPathRequest avoid = plain;
  avoid.mutable_segments(0)->mutable_movej()->set_avoid_collisions(true);
  const PlanPathCall a = CallPlanPath(stubs_.planner(), plain);
  const PlanPathCall b = CallPlanPath(stubs_.planner(), avoid);
  ASSERT_TRUE(a.status.ok() && b.status.ok());
  EXPECT_TRUE(SamplesOf(a).q == SamplesOf(b).q);
  ASSERT_EQ(b.reports().size(), 1u);
  EXPECT_FALSE(b.reports()[0].joint_path().planned());
}

TEST_F(AvoidCollisionsTest, ATargetInsideAnObstacleIsPlanningFailedNamingIt) {
  // A 15 cm block around the target configuration's wrist_2_link origin
  // (from ComputeFk with all links): the target itself collides, the start
  // (mirrored to the other side of the wall) does not.
  v1::ComputeFkRequest fk;
  fk.mutable_robot()->set_robot_id(robot_.robot_id());
  for (double q : kTarget) fk.add_joints(q);
  fk.set_all_links(true);
  v1::ComputeFkResponse links;
  ASSERT_TRUE(stubs_.ComputeFk(fk, &links).ok());
  const v1::Vector3* wrist = nullptr;
  for (const auto& l : links.links()) {
    if (l.link() == "wrist_2_link") wrist = &l.pose().position();
  }
  ASSERT_NE(wrist, nullptr);
  ASSERT_GT(wrist->y(), 0.2);
  v1::PlanPathRequest request = Request(true);
  *request.mutable_scene()->mutable_scene()->add_objects() =
      WireBox("block", wrist->x(), wrist->y(), wrist->z(), 0.15, 0.15, 0.15);
  ExpectPlanningFailedOnTheBlock(request, "target is in collision");
}

// A pose target whose every IK solution is blocked: a block around the
// target TCP, where every solution puts the tool. PLANNING_FAILED names the
// block, nothing is sampled.
TEST_F(AvoidCollisionsTest, APoseTargetInsideAnObstacleIsPlanningFailedInEverySolution) {
  v1::ComputeFkResponse target;
  ASSERT_TRUE(TargetFk(target));
  v1::PlanPathRequest request = Request(true);
  *request.mutable_segments(0)->mutable_movej()->mutable_pose() = target.tcp();
  const v1::Vector3& tcp = target.tcp().position();
  *request.mutable_scene()->mutable_scene()->add_objects() =
      WireBox("block", tcp.x(), tcp.y(), tcp.z(), 0.1, 0.1, 0.1);
  ExpectPlanningFailedOnTheBlock(request, "in collision in every IK solution");
}

// A pose target: the closest collision-free IK solution, reached around the
// wall; FK of the last sample is the pose.
TEST_F(AvoidCollisionsTest, APoseTargetIsReachedAroundTheWall) {
  v1::ComputeFkResponse target;
  ASSERT_TRUE(TargetFk(target));
  v1::PlanPathRequest request = Request(true);
  *request.mutable_segments(0)->mutable_movej()->mutable_pose() = target.tcp();
  const PlanPathCall call = CallPlanPath(stubs_.planner(), request, std::chrono::seconds(60));
  ASSERT_TRUE(call.status.ok()) << Describe(call.status);
  ASSERT_NE(call.summary(), nullptr);
  ASSERT_TRUE(call.summary()->ok()) << call.summary()->ShortDebugString().substr(0, 800);
  const std::vector<v1::SegmentReport> reports = call.reports();
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_TRUE(reports[0].joint_path().planned());
  const Samples s = SamplesOf(call);
  const std::size_t last = s.time.size() - 1;
  v1::ComputeFkRequest end;
  end.mutable_robot()->set_robot_id(robot_.robot_id());
  for (int j = 0; j < 6; ++j) end.add_joints(s.q[last * 6 + j]);
  v1::ComputeFkResponse reached;
  ASSERT_TRUE(stubs_.ComputeFk(end, &reached).ok());
  const Eigen::Isometry3d want = ToIsometry(target.tcp()), got = ToIsometry(reached.tcp());
  EXPECT_LE((want.translation() - got.translation()).norm(), 1e-5);
  EXPECT_LE(AngleBetween(want.linear(), got.linear()), 1e-5);
}

// A zone from a MoveJ planned around obstacles into the next motion blends
// when the blend is clear: the report has the blend, the cycle is shorter
// than with a fine stop, the path is collision-free, the test's own dense
// check agrees, and every limit holds by divided differences.
TEST_F(AvoidCollisionsTest, AZoneOutOfAPlannedMoveJBlendsWhenTheBlendIsClear) {
  v1::PlanPathRequest request = Request(true);
  v1::MotionSegment* next = request.add_segments();
  // The next motion lifts the arm (shoulder and elbow, 0.4 rad).
  for (int j = 0; j < 6; ++j) {
    next->mutable_movej()->mutable_joints()->add_values(kTarget[j] +
                                                        (j == 1 || j == 2 ? -0.4 : 0.0));
  }
  const PlanPathCall fine = CallPlanPath(stubs_.planner(), request, std::chrono::seconds(60));
  request.mutable_segments(0)->mutable_zone()->set_kind(v1::Zone::CNT);
  request.mutable_segments(0)->mutable_zone()->set_percent(50);
  const PlanPathCall call = CallPlanPath(stubs_.planner(), request, std::chrono::seconds(60));
  ASSERT_TRUE(fine.status.ok() && call.status.ok()) << Describe(call.status);
  ASSERT_TRUE(fine.summary() != nullptr && call.summary() != nullptr);
  ASSERT_TRUE(call.summary()->ok()) << call.summary()->ShortDebugString().substr(0, 800);
  const std::vector<v1::SegmentReport> reports = call.reports();
  ASSERT_EQ(reports.size(), 2u);
  EXPECT_TRUE(reports[0].joint_path().planned());
  ASSERT_TRUE(reports[0].has_blend()) << reports[0].ShortDebugString().substr(0, 800);
  EXPECT_GT(reports[0].blend().time_saved(), 0.0);
  EXPECT_NEAR(call.summary()->duration(),
              fine.summary()->duration() - reports[0].blend().time_saved(), 1e-9);
  EXPECT_TRUE(call.summary()->collision_free());
  const Samples s = SamplesOf(call);
  EXPECT_EQ(ContactsAlong(s, request.scene().scene(), 7), 0);
  ExpectWithinLimits(s);
}

// The request's search budget (PathLimits::max_planning_seconds) caps every
// segment's planning_timeout together: here 1 ns for two segments that
// both need a search. The first may still find its path before the search
// first looks at the clock (every 32 extensions); whatever it spends, the
// second finds the budget spent.
TEST(AvoidCollisionsBudgetTest, ARequestsPlanningBudgetBoundsAllItsSegments) {
  auto options = TestServer::DefaultOptions();
  options.limits.path.max_planning_seconds = 1e-9;
  TestServer server(options);
  Stubs stubs(server.NewChannel());
  v1::RegisterRobotResponse robot;
  ASSERT_TRUE(stubs.RegisterRobot(ReadRobot("ur5.urdf"), &robot).ok());
  v1::PlanPathRequest request;
  request.mutable_robot()->set_robot_id(robot.robot_id());
  for (double q : kStart) request.add_start_joints(q);
  *request.mutable_scene()->mutable_scene()->add_objects() =
      WireBox("wall", 0.55, 0.0, 0.3, 0.4, 0.04, 0.6);
  for (const auto* target : {&kTarget, &kStart}) {
    v1::MotionSegment* move = request.add_segments();
    for (double q : *target) move->mutable_movej()->mutable_joints()->add_values(q);
    move->mutable_movej()->set_avoid_collisions(true);
    move->mutable_movej()->set_planning_timeout(10);
  }
  const auto started = std::chrono::steady_clock::now();
  const PlanPathCall call = CallPlanPath(stubs.planner(), request);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  ASSERT_TRUE(call.status.ok()) << Describe(call.status);
  const std::vector<v1::SegmentReport> reports = call.reports();
  ASSERT_EQ(reports.size(), 2u);
  if (!reports[0].ok()) {
    ASSERT_GT(reports[0].diagnostics_size(), 0);
    EXPECT_EQ(reports[0].diagnostics(0).code(), v1::PLANNING_FAILED);
    EXPECT_NE(reports[0].diagnostics(0).message().find("within the budget"), std::string::npos);
  }
  EXPECT_GT(reports[0].joint_path().planning_time(), 0.0);
  EXPECT_FALSE(reports[1].ok());
  ASSERT_GT(reports[1].diagnostics_size(), 0);
  EXPECT_NE(reports[1].diagnostics(0).message().find("budget is spent"), std::string::npos)
      << reports[1].diagnostics(0).message();
  EXPECT_LT(seconds, 5.0);  // not the 2 x 10 s the segments asked for
}

TEST_F(AvoidCollisionsTest, BadValuesNameTheirField) {
  v1::PlanPathRequest request = Request(true);
  request.clear_scene();
  request.set_check_self_collision(false);
  EXPECT_TRUE(IsInvalidArgument(CallPlanPath(stubs_.planner(), request).status,
                                "segments[0].movej.avoid_collisions", {"collision checking"}));
  request = Request(true);
  request.mutable_segments(0)->mutable_movej()->set_planning_timeout(31);
  EXPECT_TRUE(IsInvalidArgument(CallPlanPath(stubs_.planner(), request).status,
                                "segments[0].movej.planning_timeout", {"30"}));
  request.mutable_segments(0)->mutable_movej()->set_planning_timeout(-1);
  EXPECT_TRUE(IsInvalidArgument(CallPlanPath(stubs_.planner(), request).status,
                                "segments[0].movej.planning_timeout", {"-1"}));
}

}  // namespace
}  // namespace motiond_test
