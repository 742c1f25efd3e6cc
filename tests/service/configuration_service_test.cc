// Robot configurations over real gRPC: ComputeIk with mode ALL and with a
// requested configuration on the ABB IRB 120, validation of the incoming
// configuration (INVALID_ARGUMENT naming the field), and a MoveJ pose target
// whose start configuration cannot reach it (CONFIGURATION_CHANGE warning),
// or that insists on it (TARGET_UNREACHABLE naming it); CheckReachability's
// per-target id, seed and configuration, and the nearest pose of an
// unreachable target. Poses are checked
// with core's FK in the test process (the unit tests hold it against the
// independent FK).

#include <set>
#include <tuple>

#include <gtest/gtest.h>

#include "service_test_support.h"

namespace motiond_test {
namespace {

// IRB 120 joints from which all 8 branches are within the limits (see
// tests/unit/ik/ik_closed_form_test.cc).
const std::vector<double> kEightConfigurations = {0.3, 0.4, -1.3, 0.7, 0.5, -4.6};
// Near the zero pose: behind axis 1 (shoulder -1) would need joint 1 at
// about +-pi, outside its +-2.88.
const std::vector<double> kFrontOnly = {0.0, 0.3, 0.2, 0.1, 0.6, 0.2};

class ConfigurationServiceTest : public testing::Test {
 protected:
  ConfigurationServiceTest()
      : urdf_(ReadRobot("abb_irb120.urdf")), core_(urdf_), stubs_(server_.NewChannel()) {}

  v1::RobotRef Robot() const {
    v1::RobotRef r;
    r.set_urdf(urdf_);
    return r;
  }

  v1::ComputeIkRequest IkRequest(const std::vector<double>& from) {
    v1::ComputeIkRequest request;
    *request.mutable_robot() = Robot();
    *request.mutable_target() = WirePose(core_.Fk(from));
    return request;
  }

  // ComputeIk's ALL at kEightConfigurations: one solution per flag set.
  v1::IkResult AllEightSolutions() {
    v1::ComputeIkRequest request = IkRequest(kEightConfigurations);
    request.mutable_options()->set_mode(v1::IkOptions::ALL);
    v1::IkResult all;
    EXPECT_TRUE(stubs_.ComputeIk(request, &all).ok());
    return all;
  }

  double PositionError(const google::protobuf::RepeatedField<double>& joints,
                       const std::vector<double>& from) {
    const std::vector<double> q(joints.begin(), joints.end());
    return (core_.Fk(q).translation() - core_.Fk(from).translation()).norm();
  }

  double RotationError(const google::protobuf::RepeatedField<double>& joints,
                       const std::vector<double>& from) {
    const std::vector<double> q(joints.begin(), joints.end());
    return AngleBetween(core_.Fk(q).linear(), core_.Fk(from).linear());
  }

  std::string urdf_;
  TestServer server_;
  CoreRobot core_;
  Stubs stubs_;
};

TEST_F(ConfigurationServiceTest, AllReturnsEightConfigurationsAndEachCanBeAskedFor) {
  v1::ComputeIkRequest request = IkRequest(kEightConfigurations);
  request.mutable_options()->set_mode(v1::IkOptions::ALL);
  v1::IkResult all;
  const grpc::Status status = stubs_.ComputeIk(request, &all);
  ASSERT_TRUE(status.ok()) << Describe(status);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all.method(), "closed_form");
  ASSERT_EQ(all.solutions_size(), 8);
  std::set<std::tuple<int, int, int>> flags;
  for (const v1::IkSolution& s : all.solutions()) {
    EXPECT_LE(PositionError(s.joints(), kEightConfigurations), 1e-5);
    EXPECT_LE(RotationError(s.joints(), kEightConfigurations), 1e-5);
    EXPECT_TRUE(core_.WithinLimits({s.joints().begin(), s.joints().end()}));
    ASSERT_EQ(s.configuration().turns_size(), 6);
    flags.insert(
        {s.configuration().shoulder(), s.configuration().elbow(), s.configuration().wrist()});
  }
  EXPECT_EQ(flags.size(), 8u);
  // The answer's own configuration is the first solution's.
  EXPECT_EQ(all.configuration().shoulder(), all.solutions(0).configuration().shoulder());

  for (const v1::IkSolution& s : all.solutions()) {
    v1::ComputeIkRequest one = IkRequest(kEightConfigurations);
    v1::RobotConfiguration* c = one.mutable_options()->mutable_configuration();
    c->set_shoulder(s.configuration().shoulder());
    c->set_elbow(s.configuration().elbow());
    c->set_wrist(s.configuration().wrist());
    v1::IkResult r;
    ASSERT_TRUE(stubs_.ComputeIk(one, &r).ok());
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r.configuration().shoulder(), c->shoulder());
    EXPECT_EQ(r.configuration().elbow(), c->elbow());
    EXPECT_EQ(r.configuration().wrist(), c->wrist());
    for (int j = 0; j < 6; ++j) EXPECT_NEAR(r.joints(j), s.joints(j), 1e-9);
  }
}

TEST_F(ConfigurationServiceTest, IncomingConfigurationIsValidated) {
  v1::ComputeIkRequest request = IkRequest(kEightConfigurations);
  request.mutable_options()->mutable_configuration()->set_elbow(2);
  v1::IkResult r;
  EXPECT_TRUE(IsInvalidArgument(stubs_.ComputeIk(request, &r), "options.configuration.elbow",
                                {"-1, 0", "+1"}));
  request = IkRequest(kEightConfigurations);
  request.mutable_options()->mutable_configuration()->add_turns(0);
  request.mutable_options()->mutable_configuration()->add_turns(1);
  EXPECT_TRUE(
      IsInvalidArgument(stubs_.ComputeIk(request, &r), "options.configuration.turns", {"6 DOF"}));
  // A configuration the target cannot be reached in is a result, not an error.
  request = IkRequest(kFrontOnly);
  request.mutable_options()->mutable_configuration()->set_shoulder(-1);
  const grpc::Status status = stubs_.ComputeIk(request, &r);
  ASSERT_TRUE(status.ok()) << Describe(status);
  EXPECT_FALSE(r.ok());
  ASSERT_GT(r.diagnostics_size(), 0);
  EXPECT_NE(r.diagnostics(0).message().find("shoulder -1"), std::string::npos);
}

// The start is behind axis 1 (shoulder -1); the target near the zero pose
// can only be reached in front: the MoveJ goes there, warning.
TEST_F(ConfigurationServiceTest, MoveJWhoseStartConfigurationCannotReachSaysConfigurationChange) {
  motion::IkOptions all;
  all.mode = motion::IkMode::kAll;
  absl::StatusOr<motion::IkResult> branches =
      core_.SolveIk(WirePose(core_.Fk(kEightConfigurations)), {}, all);
  ASSERT_TRUE(branches.ok() && branches->ok);
  std::vector<double> start;
  for (std::size_t i = 0; i < branches->solutions.size(); ++i) {
    if (branches->solution_configurations[i].shoulder == -1) {
      start.assign(branches->solutions[i].data(), branches->solutions[i].data() + 6);
      break;
    }
  }
  ASSERT_EQ(start.size(), 6u);
  const v1::Pose target = WirePose(core_.Fk(kFrontOnly));

  Program program(start);
  program.MoveJPose("retreat", target);
  const PlanPathCall call = CallPlanPath(stubs_.planner(), program.Request(Robot()));
  ASSERT_TRUE(call.status.ok()) << Describe(call.status);
  ASSERT_NE(call.summary(), nullptr);
  EXPECT_TRUE(call.summary()->ok());
  const std::vector<v1::SegmentReport> reports = call.reports();
  ASSERT_EQ(reports.size(), 1u);
  bool warned = false;
  for (const v1::Diagnostic& d : reports[0].diagnostics()) {
    if (d.code() != v1::CONFIGURATION_CHANGE) continue;
    warned = true;
    EXPECT_EQ(d.severity(), v1::SEVERITY_WARNING);
    EXPECT_NE(d.message().find("shoulder -1"), std::string::npos) << d.message();
    EXPECT_NE(d.message().find("shoulder +1"), std::string::npos) << d.message();
  }
  EXPECT_TRUE(warned);

  // Insisting on shoulder -1: TARGET_UNREACHABLE naming it.
  v1::PlanPathRequest insist = program.Request(Robot());
  insist.mutable_segments(0)->mutable_movej()->mutable_configuration()->set_shoulder(-1);
  const PlanPathCall refused = CallPlanPath(stubs_.planner(), insist);
  ASSERT_TRUE(refused.status.ok()) << Describe(refused.status);
  ASSERT_NE(refused.summary(), nullptr);
  EXPECT_FALSE(refused.summary()->ok());
  bool named = false;
  for (const v1::SegmentReport& report : refused.reports()) {
    for (const v1::Diagnostic& d : report.diagnostics()) {
      named |= d.code() == v1::TARGET_UNREACHABLE &&
               d.message().find("shoulder -1") != std::string::npos;
    }
  }
  EXPECT_TRUE(named);

  // The start's own configuration reaches a target made from it: no warning.
  Program same(start);
  same.MoveJPose("stay", WirePose(core_.Fk(kEightConfigurations)));
  const PlanPathCall kept = CallPlanPath(stubs_.planner(), same.Request(Robot()));
  ASSERT_TRUE(kept.status.ok());
  // reports() returns a vector: keep it, the loop below reads into it.
  const std::vector<v1::SegmentReport> kept_reports = kept.reports();
  ASSERT_EQ(kept_reports.size(), 1u);
  for (const v1::Diagnostic& d : kept_reports[0].diagnostics()) {
    EXPECT_NE(d.code(), v1::CONFIGURATION_CHANGE) << d.message();
  }

  // A malformed flag is INVALID_ARGUMENT naming the segment's field.
  v1::PlanPathRequest bad = program.Request(Robot());
  bad.mutable_segments(0)->mutable_movej()->mutable_configuration()->set_wrist(-3);
  EXPECT_TRUE(IsInvalidArgument(CallPlanPath(stubs_.planner(), bad).status,
                                "segments[0].movej.configuration.wrist", {"-1, 0"}));
}

// Eight details of the same pose, each asking for one of the eight
// configurations ComputeIk's ALL found: each answer is in its own
// configuration, echoes its id in input order, and reaches the pose.
TEST_F(ConfigurationServiceTest, ReachabilityTargetsBringTheirOwnIdAndConfiguration) {
  const v1::IkResult all = AllEightSolutions();
  ASSERT_EQ(all.solutions_size(), 8);

  v1::CheckReachabilityRequest request;
  *request.mutable_robot() = Robot();
  for (int i = 0; i < 8; ++i) {
    v1::ReachabilityTarget* t = request.add_target_details();
    t->set_id("weld_" + std::to_string(i));
    *t->mutable_pose() = WirePose(core_.Fk(kEightConfigurations));
    const v1::RobotConfiguration& c = all.solutions(i).configuration();
    t->mutable_configuration()->set_shoulder(c.shoulder());
    t->mutable_configuration()->set_elbow(c.elbow());
    t->mutable_configuration()->set_wrist(c.wrist());
  }
  v1::CheckReachabilityResponse response;
  const grpc::Status status = stubs_.CheckReachability(request, &response);
  ASSERT_TRUE(status.ok()) << Describe(status);
  ASSERT_EQ(response.results_size(), 8);
  for (int i = 0; i < 8; ++i) {
    const v1::IkResult& r = response.results(i);
    EXPECT_EQ(r.id(), "weld_" + std::to_string(i));
    ASSERT_TRUE(r.ok()) << i;
    const v1::RobotConfiguration& want = all.solutions(i).configuration();
    EXPECT_EQ(r.configuration().shoulder(), want.shoulder()) << i;
    EXPECT_EQ(r.configuration().elbow(), want.elbow()) << i;
    EXPECT_EQ(r.configuration().wrist(), want.wrist()) << i;
    EXPECT_LE(PositionError(r.joints(), kEightConfigurations), 1e-5);
    EXPECT_LE(RotationError(r.joints(), kEightConfigurations), 1e-5);
    EXPECT_FALSE(r.has_nearest_pose());
  }
}

// A target's own seed replaces the request's: seeded at one of the eight
// solutions, the first solution found is that one.
TEST_F(ConfigurationServiceTest, ReachabilityTargetSeedReplacesTheRequestSeed) {
  const v1::IkResult all = AllEightSolutions();
  ASSERT_EQ(all.solutions_size(), 8);
  v1::CheckReachabilityRequest request;
  *request.mutable_robot() = Robot();
  for (double q : all.solutions(0).joints()) request.add_seed(q);  // the request's seed
  for (int i : {0, 3, 6}) {
    v1::ReachabilityTarget* t = request.add_target_details();
    *t->mutable_pose() = WirePose(core_.Fk(kEightConfigurations));
    if (i > 0) t->mutable_seed()->CopyFrom(all.solutions(i).joints());
  }
  v1::CheckReachabilityResponse response;
  ASSERT_TRUE(stubs_.CheckReachability(request, &response).ok());
  ASSERT_EQ(response.results_size(), 3);
  int k = 0;
  for (int i : {0, 3, 6}) {
    const v1::IkResult& r = response.results(k++);
    ASSERT_TRUE(r.ok());
    for (int j = 0; j < 6; ++j) EXPECT_NEAR(r.joints(j), all.solutions(i).joints(j), 1e-6) << i;
  }
}

// Out of reach (3 m away for a 0.58 m arm): not ok, and nearest_pose is
// where the joints returned put the TCP, in the work-object frame the
// target was given in (frame^-1 * FK * tool, computed here with core's FK).
TEST_F(ConfigurationServiceTest, UnreachableTargetsSayWhereTheClosestJointsPutTheTcp) {
  const Eigen::Isometry3d frame =
      Eigen::Translation3d(0.1, -0.05, 0.2) * Eigen::AngleAxisd(0.5, Eigen::Vector3d::UnitZ());
  const Eigen::Isometry3d tool = Eigen::Translation3d(0, 0, 0.1) * Eigen::Isometry3d::Identity();
  v1::CheckReachabilityRequest request;
  *request.mutable_robot() = Robot();
  *request.mutable_frame() = WirePose(frame);
  *request.mutable_tool() = WirePose(tool);
  v1::ReachabilityTarget* far = request.add_target_details();
  far->set_id("far");
  *far->mutable_pose() = WirePose(3.0, 0.0, 0.5, 0, 0, 0, 1);
  v1::ReachabilityTarget* near = request.add_target_details();
  near->set_id("near");
  *near->mutable_pose() = WirePose(frame.inverse() * core_.Fk(kEightConfigurations) * tool);
  v1::CheckReachabilityResponse response;
  ASSERT_TRUE(stubs_.CheckReachability(request, &response).ok());
  ASSERT_EQ(response.results_size(), 2);
  const v1::IkResult& r = response.results(0);
  EXPECT_FALSE(r.ok());
  ASSERT_TRUE(r.has_nearest_pose());
  const std::vector<double> q(r.joints().begin(), r.joints().end());
  const Eigen::Isometry3d expected = frame.inverse() * core_.Fk(q) * tool;
  const Eigen::Isometry3d nearest = ToIsometry(r.nearest_pose());
  EXPECT_LE((nearest.translation() - expected.translation()).norm(), 1e-9);
  EXPECT_LE(AngleBetween(nearest.linear(), expected.linear()), 1e-9);
  // Still out of reach, by the arm's length at least.
  EXPECT_GT((nearest.translation() - Eigen::Vector3d(3.0, 0.0, 0.5)).norm(), 2.0);
  EXPECT_TRUE(response.results(1).ok());
  EXPECT_FALSE(response.results(1).has_nearest_pose());
  EXPECT_EQ(response.results(1).id(), "near");

  // ComputeIk answers the same way.
  v1::ComputeIkRequest ik;
  *ik.mutable_robot() = Robot();
  *ik.mutable_target() = far->pose();
  v1::IkResult single;
  ASSERT_TRUE(stubs_.ComputeIk(ik, &single).ok());
  EXPECT_FALSE(single.ok());
  ASSERT_TRUE(single.has_nearest_pose());
  const std::vector<double> qs(single.joints().begin(), single.joints().end());
  EXPECT_LE((ToIsometry(single.nearest_pose()).translation() - core_.Fk(qs).translation()).norm(),
            1e-9);
}

TEST_F(ConfigurationServiceTest, ReachabilityTargetDetailsAreValidated) {
  auto base = [&] {
    v1::CheckReachabilityRequest request;
    *request.mutable_robot() = Robot();
    for (int i = 0; i < 2; ++i) {
      *request.add_target_details()->mutable_pose() = WirePose(core_.Fk(kEightConfigurations));
    }
    return request;
  };
  v1::CheckReachabilityResponse response;
  v1::CheckReachabilityRequest request = base();
  *request.add_targets() = WirePose(core_.Fk(kEightConfigurations));
  EXPECT_TRUE(IsInvalidArgument(stubs_.CheckReachability(request, &response), "target_details",
                                {"not both"}));
  request = base();
  request.mutable_target_details(1)->clear_pose();
  EXPECT_TRUE(IsInvalidArgument(stubs_.CheckReachability(request, &response),
                                "target_details[1].pose", {"missing"}));
  request = base();
  request.mutable_target_details(1)->mutable_pose()->mutable_orientation()->set_w(0);
  request.mutable_target_details(1)->mutable_pose()->mutable_orientation()->set_x(0);
  request.mutable_target_details(1)->mutable_pose()->mutable_orientation()->set_y(0);
  request.mutable_target_details(1)->mutable_pose()->mutable_orientation()->set_z(0);
  EXPECT_TRUE(IsInvalidArgument(stubs_.CheckReachability(request, &response),
                                "target_details[1].pose.orientation", {"zero"}));
  request = base();
  request.mutable_target_details(1)->add_seed(0.1);
  EXPECT_TRUE(IsInvalidArgument(stubs_.CheckReachability(request, &response),
                                "target_details[1].seed", {"6"}));
  request = base();
  request.mutable_target_details(0)->mutable_configuration()->set_elbow(2);
  EXPECT_TRUE(IsInvalidArgument(stubs_.CheckReachability(request, &response),
                                "target_details[0].configuration.elbow", {"-1, 0"}));
  request = base();
  request.mutable_target_details(0)->mutable_configuration()->add_turns(1);
  EXPECT_TRUE(IsInvalidArgument(stubs_.CheckReachability(request, &response),
                                "target_details[0].configuration.turns", {"6 DOF"}));
  request = base();
  request.mutable_target_details(0)->set_id(std::string(300, 'x'));
  EXPECT_TRUE(IsInvalidArgument(stubs_.CheckReachability(request, &response),
                                "target_details[0].id", {"300 bytes"}));
}

// IK with avoid_collisions on a UR5 (capsule links: its meshes are not
// sent): a 2 cm block at the elbow of the solution closest to the seed makes
// the answer another solution (clear by CheckCollision, still reaching the
// pose); a block at the flange, which every solution shares, is outcome
// "in_collision" naming it.
TEST_F(ConfigurationServiceTest, IkAvoidsCollisionsByTakingAnotherSolution) {
  v1::RobotRef ur5;
  ur5.set_urdf(ReadRobot("ur5.urdf"));
  const std::vector<double> q = {0.4, -1.1, 1.3, -0.6, 1.2, 0.3};
  auto fk = [&](const google::protobuf::RepeatedField<double>& joints) {
    v1::ComputeFkRequest request;
    *request.mutable_robot() = ur5;
    *request.mutable_joints() = joints;
    request.set_all_links(true);
    v1::ComputeFkResponse response;
    EXPECT_TRUE(stubs_.ComputeFk(request, &response).ok());
    return response;
  };
  google::protobuf::RepeatedField<double> seed(q.begin(), q.end());
  const v1::ComputeFkResponse at_q = fk(seed);
  v1::ComputeIkRequest plain;
  *plain.mutable_robot() = ur5;
  *plain.mutable_target() = at_q.tcp();
  *plain.mutable_seed() = seed;
  v1::IkResult first;
  ASSERT_TRUE(stubs_.ComputeIk(plain, &first).ok());
  ASSERT_TRUE(first.ok());
  const v1::ComputeFkResponse links = fk(first.joints());
  const v1::Vector3* elbow = nullptr;
  for (const auto& l : links.links()) {
    if (l.link() == "forearm_link") elbow = &l.pose().position();
  }
  ASSERT_NE(elbow, nullptr);
  const v1::CollisionObject block =
      WireBox("block", elbow->x(), elbow->y(), elbow->z(), 0.02, 0.02, 0.02);

  v1::ComputeIkRequest avoid = plain;
  avoid.mutable_options()->set_avoid_collisions(true);
  *avoid.mutable_options()->mutable_scene()->mutable_scene()->add_objects() = block;
  v1::IkResult clear;
  const grpc::Status status = stubs_.ComputeIk(avoid, &clear);
  ASSERT_TRUE(status.ok()) << Describe(status);
  ASSERT_TRUE(clear.ok()) << clear.DebugString();
  double moved = 0;
  for (int j = 0; j < 6; ++j) moved = std::max(moved, std::abs(clear.joints(j) - first.joints(j)));
  EXPECT_GT(moved, 0.1) << "another solution";
  const Eigen::Isometry3d want = ToIsometry(at_q.tcp()), got = ToIsometry(fk(clear.joints()).tcp());
  EXPECT_LE((want.translation() - got.translation()).norm(), 1e-5);
  EXPECT_LE(AngleBetween(want.linear(), got.linear()), 1e-5);
  v1::CheckCollisionRequest check;
  *check.mutable_robot() = ur5;
  *check.mutable_scene()->mutable_scene()->add_objects() = block;
  check.set_check_self_collision(false);
  *check.add_configurations()->mutable_values() = clear.joints();
  *check.add_configurations()->mutable_values() = first.joints();
  v1::CheckCollisionResponse verdicts;
  grpc::ClientContext context;
  ASSERT_TRUE(stubs_.kinematics().CheckCollision(&context, check, &verdicts).ok());
  EXPECT_FALSE(verdicts.results(0).in_collision());
  EXPECT_TRUE(verdicts.results(1).in_collision()) << "the block does stop the first solution";

  // At the flange: every solution is blocked.
  const v1::Pose& flange = links.flange();
  avoid.mutable_options()->mutable_scene()->mutable_scene()->clear_objects();
  *avoid.mutable_options()->mutable_scene()->mutable_scene()->add_objects() = WireBox(
      "plate", flange.position().x(), flange.position().y(), flange.position().z(), 0.1, 0.1, 0.1);
  v1::IkResult blocked;
  ASSERT_TRUE(stubs_.ComputeIk(avoid, &blocked).ok());
  EXPECT_FALSE(blocked.ok());
  EXPECT_EQ(blocked.outcome(), "in_collision");
  ASSERT_GT(blocked.diagnostics_size(), 0);
  EXPECT_EQ(blocked.diagnostics(0).code(), v1::COLLISION);
  EXPECT_EQ(blocked.diagnostics(0).contact().other(), "plate");

  avoid.mutable_options()->set_safety_margin(-1);
  EXPECT_TRUE(
      IsInvalidArgument(stubs_.ComputeIk(avoid, &blocked), "options.safety_margin", {"-1"}));
}

}  // namespace
}  // namespace motiond_test
