// Hostile and malformed requests over real gRPC. Each one must be refused
// with INVALID_ARGUMENT (NOT_FOUND for an unknown robot), a message that
// names the problem, and a google.rpc.BadRequest naming the request field;
// and the server must go on answering good requests afterwards (checked
// after every test).

#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "service_test_support.h"

namespace motiond_test {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// A URDF with a revolute "j1" and then `the_joint` of the given type and
// body, as TwoJointUrdf writes it.
std::string RevoluteBody(const std::string& origin, const std::string& axis) {
  return "<origin " + origin + "/>\n    <axis xyz=\"" + axis +
         "\"/>\n    <limit lower=\"-1\" upper=\"1\" velocity=\"1\" effort=\"1\"/>";
}

// The same good FK every test ends with: planar_2r inline, closed form.
::testing::AssertionResult AnswersAGoodFkRequest(Stubs& stubs) {
  const double q1 = 0.4, q2 = 0.9;
  v1::ComputeFkRequest request;
  request.mutable_robot()->set_urdf(ReadRobot("planar_2r.urdf"));
  request.add_joints(q1);
  request.add_joints(q2);
  v1::ComputeFkResponse response;
  const grpc::Status status = stubs.ComputeFk(request, &response);
  if (!status.ok()) return ::testing::AssertionFailure() << Describe(status);
  const double x = 0.1 * std::cos(q1) + 0.2 * std::cos(q1 + q2);
  const double y = 0.1 * std::sin(q1) + 0.2 * std::sin(q1 + q2);
  if (std::abs(response.flange().position().x() - x) > 1e-12 ||
      std::abs(response.flange().position().y() - y) > 1e-12) {
    return ::testing::AssertionFailure() << "wrong FK: " << response.flange().ShortDebugString();
  }
  return ::testing::AssertionSuccess();
}

class BadInputTest : public ::testing::Test {
 protected:
  void TearDown() override { EXPECT_TRUE(AnswersAGoodFkRequest(stubs_)); }

  // The URDF is refused by RegisterRobot (field "urdf") and inline in
  // ComputeFk (field "robot.urdf"), and is not registered afterwards.
  void ExpectUrdfRejected(const std::string& urdf, const std::vector<std::string>& substrings) {
    v1::RegisterRobotResponse registered;
    EXPECT_TRUE(IsInvalidArgument(stubs_.RegisterRobot(urdf, &registered), "urdf", substrings))
        << "RegisterRobot";
    v1::ComputeFkRequest request;
    request.mutable_robot()->set_urdf(urdf);
    request.add_joints(0.0);
    v1::ComputeFkResponse response;
    EXPECT_TRUE(IsInvalidArgument(stubs_.ComputeFk(request, &response), "robot.urdf", substrings))
        << "ComputeFk with robot.urdf";
    v1::GetRobotRequest get;
    get.set_robot_id(Sha256sumIdOfText(urdf));
    v1::RobotInfo info;
    EXPECT_TRUE(IsRobotNotRegistered(stubs_.GetRobot(get, &info)));
  }

  v1::RobotInfo Register(const std::string& urdf) {
    v1::RegisterRobotResponse response;
    const grpc::Status status = stubs_.RegisterRobot(urdf, &response);
    EXPECT_TRUE(status.ok()) << Describe(status);
    return response.info();
  }

  // FK on the registered UR5 with the given joints (and optional tool).
  grpc::Status Ur5Fk(const std::vector<double>& q, const v1::Pose* tool = nullptr) {
    v1::ComputeFkRequest request;
    request.mutable_robot()->set_robot_id(ur5_.robot_id());
    for (double v : q) request.add_joints(v);
    if (tool) *request.mutable_tool() = *tool;
    v1::ComputeFkResponse response;
    return stubs_.ComputeFk(request, &response);
  }
  grpc::Status Ur5Jacobian(const std::vector<double>& q, const v1::Pose* tool = nullptr) {
    v1::ComputeJacobianRequest request;
    request.mutable_robot()->set_robot_id(ur5_.robot_id());
    for (double v : q) request.add_joints(v);
    if (tool) *request.mutable_tool() = *tool;
    v1::ComputeJacobianResponse response;
    return stubs_.ComputeJacobian(request, &response);
  }
  grpc::Status PandaFk(const std::string& base, const std::string& tip) {
    v1::ComputeFkRequest request;
    request.mutable_robot()->set_robot_id(panda_.robot_id());
    request.mutable_robot()->set_base_link(base);
    request.mutable_robot()->set_tip_link(tip);
    for (int i = 0; i < 7; ++i) request.add_joints(0.1);
    v1::ComputeFkResponse response;
    return stubs_.ComputeFk(request, &response);
  }

  TestServer server_;
  Stubs stubs_{server_.NewChannel()};
  v1::RobotInfo ur5_ = Register(ReadRobot("ur5.urdf"));
  v1::RobotInfo panda_ = Register(ReadRobot("panda.urdf"));
};

// -------------------------------------------------------- not a URDF --

TEST_F(BadInputTest, NotXml) { ExpectUrdfRejected("this is not XML <robot name=", {"xml|parse"}); }

TEST_F(BadInputTest, XmlThatIsNotAUrdf) {
  ExpectUrdfRejected("<?xml version=\"1.0\"?>\n<config><item name=\"x\"/></config>\n", {"robot"});
}

TEST_F(BadInputTest, EmptyUrdf) {
  v1::RegisterRobotResponse response;
  EXPECT_TRUE(IsInvalidArgument(stubs_.RegisterRobot("", &response), "urdf", {"empty"}));
}

// ------------------------------------------------------- broken trees --

TEST_F(BadInputTest, JointReferencesALinkThatIsNotDefined) {
  ExpectUrdfRejected(R"(<robot name="r">
  <link name="base"/>
  <joint name="j1" type="revolute">
    <parent link="base"/><child link="ghost_link"/>
    <axis xyz="0 0 1"/><limit lower="-1" upper="1" velocity="1" effort="1"/>
  </joint>
</robot>)",
                     {"ghost_link"});
}

TEST_F(BadInputTest, TwoRoots) {
  ExpectUrdfRejected(R"(<robot name="r">
  <link name="first_root"/>
  <link name="second_root"/>
  <link name="child"/>
  <joint name="j1" type="revolute">
    <parent link="first_root"/><child link="child"/>
    <axis xyz="0 0 1"/><limit lower="-1" upper="1" velocity="1" effort="1"/>
  </joint>
</robot>)",
                     {"root", "first_root|second_root"});
}

TEST_F(BadInputTest, CycleBesideTheRoot) {
  // Every link of the loop has a parent, so the root (base) looks fine.
  ExpectUrdfRejected(R"(<robot name="r">
  <link name="base"/>
  <link name="arm"/>
  <link name="loop_a"/>
  <link name="loop_b"/>
  <joint name="j1" type="revolute">
    <parent link="base"/><child link="arm"/>
    <axis xyz="0 0 1"/><limit lower="-1" upper="1" velocity="1" effort="1"/>
  </joint>
  <joint name="ja" type="fixed"><parent link="loop_a"/><child link="loop_b"/></joint>
  <joint name="jb" type="fixed"><parent link="loop_b"/><child link="loop_a"/></joint>
</robot>)",
                     {"cycle|loop_a|loop_b"});
}

TEST_F(BadInputTest, CycleThroughEveryLink) {
  // No link without a parent: there is no root at all.
  ExpectUrdfRejected(R"(<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j1" type="revolute">
    <parent link="a"/><child link="b"/>
    <axis xyz="0 0 1"/><limit lower="-1" upper="1" velocity="1" effort="1"/>
  </joint>
  <joint name="j2" type="fixed"><parent link="b"/><child link="a"/></joint>
</robot>)",
                     {"root|cycle"});
}

// ------------------------------------------------------- bad numbers --

TEST_F(BadInputTest, NaNInAJointOrigin) {
  ExpectUrdfRejected(TwoJointUrdf("revolute", RevoluteBody("xyz=\"0 nan 0.1\"", "0 0 1")),
                     {"the_joint", "nan"});
  ExpectUrdfRejected(
      TwoJointUrdf("revolute", RevoluteBody("xyz=\"0 0 0.1\" rpy=\"0 NaN 0\"", "0 0 1")),
      {"the_joint", "nan"});
}

TEST_F(BadInputTest, ZeroAxisOnARevoluteJoint) {
  ExpectUrdfRejected(TwoJointUrdf("revolute", RevoluteBody("xyz=\"0 0 0.1\"", "0 0 0")),
                     {"the_joint", "axis"});
}

TEST_F(BadInputTest, ZeroAxisOnAPrismaticJoint) {
  ExpectUrdfRejected(TwoJointUrdf("prismatic", RevoluteBody("xyz=\"0 0 0.1\"", "0 0 0")),
                     {"the_joint", "axis"});
}

TEST_F(BadInputTest, FixedJointWithAZeroAxisLoads) {
  // kuka_iiwa14_r820.urdf does this; a fixed joint's axis means nothing.
  const v1::RobotInfo info = Register(
      TwoJointUrdf("fixed", "<origin xyz=\"0 0 0.2\" rpy=\"0 0 0\"/>\n    <axis xyz=\"0 0 0\"/>"));
  ASSERT_EQ(info.dof(), 1);
  EXPECT_EQ(info.tip_link(), "tip");
  v1::ComputeFkRequest request;
  request.mutable_robot()->set_robot_id(info.robot_id());
  request.add_joints(0.5);
  v1::ComputeFkResponse response;
  const grpc::Status status = stubs_.ComputeFk(request, &response);
  ASSERT_TRUE(status.ok()) << Describe(status);
  const Eigen::Isometry3d tip = ToIsometry(response.flange());
  EXPECT_LE((tip.translation() - Eigen::Vector3d(0, 0, 0.3)).norm(), 1e-12);
  EXPECT_LE(
      (tip.linear() - Eigen::AngleAxisd(0.5, Eigen::Vector3d::UnitZ()).toRotationMatrix()).norm(),
      1e-12);
}

TEST_F(BadInputTest, NoMovableJointAtAll) {
  // Nothing to compute FK of: refused at registration, naming the reason.
  ExpectUrdfRejected(R"(<robot name="statue">
  <link name="base"/>
  <link name="plinth"/>
  <joint name="glued" type="fixed"><parent link="base"/><child link="plinth"/></joint>
</robot>)",
                     {"movable"});
}

// ---------------------------------------------------- chain selection --

TEST_F(BadInputTest, UnknownBaseLink) {
  EXPECT_TRUE(IsInvalidArgument(PandaFk("no_such_base", "panda_link8"), "robot.base_link",
                                {"no_such_base"}));
}

TEST_F(BadInputTest, UnknownTipLink) {
  EXPECT_TRUE(
      IsInvalidArgument(PandaFk("panda_link0", "no_such_tip"), "robot.tip_link", {"no_such_tip"}));
}

TEST_F(BadInputTest, TipAboveTheBase) {
  EXPECT_TRUE(IsInvalidArgument(PandaFk("panda_link4", "panda_link2"), "robot.tip_link",
                                {"panda_link2", "panda_link4"}));
}

TEST_F(BadInputTest, TipOnASiblingBranch) {
  EXPECT_TRUE(IsInvalidArgument(PandaFk("panda_leftfinger", "panda_rightfinger"), "robot.tip_link",
                                {"panda_rightfinger", "panda_leftfinger"}));
}

TEST_F(BadInputTest, GetRobotNamesItsOwnFields) {
  // GetRobotRequest has robot_id / base_link / tip_link at the top level.
  v1::GetRobotRequest request;
  request.set_robot_id(panda_.robot_id());
  request.set_tip_link("no_such_tip");
  v1::RobotInfo info;
  EXPECT_TRUE(IsInvalidArgument(stubs_.GetRobot(request, &info), "tip_link", {"no_such_tip"}));
  request.Clear();
  request.set_robot_id("sha256:xyz");
  EXPECT_TRUE(IsInvalidArgument(stubs_.GetRobot(request, &info), "robot_id", {"sha256:xyz"}));
}

// ------------------------------------------------------------- limits --

TEST_F(BadInputTest, UrdfOverTheSizeLimit) {
  auto options = TestServer::DefaultOptions();
  options.registry.model_limits.max_urdf_bytes = 2000;
  TestServer small(options);
  Stubs stubs(small.NewChannel());

  const std::string big = SerialChainUrdf(40, 0.01, [](int) { return true; });
  ASSERT_GT(big.size(), 2000u);
  v1::RegisterRobotResponse registered;
  EXPECT_TRUE(IsInvalidArgument(stubs.RegisterRobot(big, &registered), "urdf",
                                {std::to_string(big.size()), "2000"}));
  v1::ComputeFkRequest request;
  request.mutable_robot()->set_urdf(big);
  v1::ComputeFkResponse response;
  EXPECT_TRUE(IsInvalidArgument(stubs.ComputeFk(request, &response), "robot.urdf",
                                {std::to_string(big.size()), "2000"}));

  // Under the limit is fine on the same server.
  const std::string fits = TwoJointUrdf("fixed", "<origin xyz=\"0 0 0.2\"/>");
  ASSERT_LT(fits.size(), 2000u);
  const grpc::Status status = stubs.RegisterRobot(fits, &registered);
  EXPECT_TRUE(status.ok()) << Describe(status);
  EXPECT_EQ(registered.info().dof(), 1);
}

TEST_F(BadInputTest, FiveHundredRevoluteLinksAreRefusedForTheirDof) {
  // 500 links, 499 revolute joints: over the DOF limit (64), refused cleanly.
  const std::string urdf = SerialChainUrdf(500, 0.001, [](int) { return true; });
  ExpectUrdfRejected(urdf, {"499", "dof|degrees of freedom"});
}

TEST_F(BadInputTest, FiveHundredLinksMostlyFixedWork) {
  // 499 joints, revolute about +Z only at j100, j200, j300, j400; every
  // joint 0.01 m along the parent's x: a planar chain with a closed form.
  const auto every_hundredth = [](int i) { return i % 100 == 0; };
  const v1::RobotInfo info = Register(SerialChainUrdf(500, 0.01, every_hundredth));
  ASSERT_EQ(info.dof(), 4);
  EXPECT_EQ(info.base_link(), "l0");
  EXPECT_EQ(info.tip_link(), "l499");
  EXPECT_EQ(info.links_size(), 500);

  const std::vector<double> q = {0.3, -0.7, 1.1, 0.25};
  v1::ComputeFkRequest request;
  request.mutable_robot()->set_robot_id(info.robot_id());
  for (double v : q) request.add_joints(v);
  request.set_all_links(true);
  v1::ComputeFkResponse response;
  const grpc::Status status = stubs_.ComputeFk(request, &response);
  ASSERT_TRUE(status.ok()) << Describe(status);

  double x = 0, y = 0, heading = 0;
  int next_dof = 0;
  for (int i = 1; i < 500; ++i) {  // joint j{i}: translate, then rotate
    x += 0.01 * std::cos(heading);
    y += 0.01 * std::sin(heading);
    if (every_hundredth(i)) heading += q[next_dof++];
  }
  EXPECT_NEAR(response.flange().position().x(), x, 1e-9);
  EXPECT_NEAR(response.flange().position().y(), y, 1e-9);
  EXPECT_NEAR(response.flange().position().z(), 0.0, 1e-12);
  const Eigen::Matrix3d r = ToIsometry(response.flange()).linear();
  EXPECT_LE((r - Eigen::AngleAxisd(heading, Eigen::Vector3d::UnitZ()).toRotationMatrix()).norm(),
            1e-9);
  EXPECT_EQ(response.links_size(), 500);
}

// ------------------------------------------------------- joint values --

TEST_F(BadInputTest, WrongNumberOfJoints) {
  EXPECT_TRUE(IsInvalidArgument(Ur5Fk({0.1, 0.2, 0.3, 0.4, 0.5}), "joints", {"6", "5"}));
  EXPECT_TRUE(IsInvalidArgument(Ur5Fk({0, 0, 0, 0, 0, 0, 0}), "joints", {"6", "7"}));
  EXPECT_TRUE(IsInvalidArgument(Ur5Fk({}), "joints", {"6"}));
  EXPECT_TRUE(IsInvalidArgument(Ur5Jacobian({0.1, 0.2}), "joints", {"6", "2"}));
}

TEST_F(BadInputTest, NaNJointValue) {
  EXPECT_TRUE(IsInvalidArgument(Ur5Fk({0.1, 0.2, kNaN, 0.4, 0.5, 0.6}), "joints[2]",
                                {"elbow_joint", "nan|finite"}));
  EXPECT_TRUE(IsInvalidArgument(Ur5Jacobian({0.1, 0.2, 0.3, 0.4, 0.5, kNaN}), "joints[5]",
                                {"wrist_3_joint", "nan|finite"}));
}

TEST_F(BadInputTest, InfiniteJointValue) {
  EXPECT_TRUE(IsInvalidArgument(Ur5Fk({kInf, 0.2, 0.3, 0.4, 0.5, 0.6}), "joints[0]",
                                {"shoulder_pan_joint", "inf|finite"}));
  EXPECT_TRUE(IsInvalidArgument(Ur5Jacobian({0.1, -kInf, 0.3, 0.4, 0.5, 0.6}), "joints[1]",
                                {"shoulder_lift_joint", "inf|finite"}));
}

// ---------------------------------------------------------------- poses --

TEST_F(BadInputTest, ZeroQuaternionInTheToolPose) {
  v1::Pose tool;
  tool.mutable_position()->set_z(0.1);
  tool.mutable_orientation();  // present, all zero
  const std::vector<double> q = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6};
  EXPECT_TRUE(IsInvalidArgument(Ur5Fk(q, &tool), "tool.orientation", {"quaternion"}));
  EXPECT_TRUE(IsInvalidArgument(Ur5Jacobian(q, &tool), "tool.orientation", {"quaternion"}));
}

TEST_F(BadInputTest, NonFiniteToolPose) {
  const std::vector<double> q = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6};
  v1::Pose tool;
  tool.mutable_orientation()->set_w(1.0);
  tool.mutable_position()->set_y(kNaN);
  EXPECT_TRUE(IsInvalidArgument(Ur5Fk(q, &tool), "tool.position", {"finite|nan"}));
  tool.mutable_position()->set_y(0.0);
  tool.mutable_orientation()->set_x(kInf);
  EXPECT_TRUE(IsInvalidArgument(Ur5Fk(q, &tool), "tool.orientation", {"finite|inf"}));
}

// ------------------------------------------------------- robot refs --

TEST_F(BadInputTest, PresentButEmptyRobotRef) {
  v1::ComputeFkRequest request;
  request.mutable_robot();  // present, no id, no urdf
  request.add_joints(0.0);
  v1::ComputeFkResponse response;
  EXPECT_TRUE(
      IsInvalidArgument(stubs_.ComputeFk(request, &response), "robot", {"robot_id", "urdf"}));
  // Only a chain, still no robot.
  request.mutable_robot()->set_tip_link("tool0");
  EXPECT_TRUE(
      IsInvalidArgument(stubs_.ComputeFk(request, &response), "robot", {"robot_id", "urdf"}));
}

TEST_F(BadInputTest, MissingRobotRef) {
  v1::ComputeJacobianRequest request;
  request.add_joints(0.0);
  v1::ComputeJacobianResponse response;
  EXPECT_TRUE(
      IsInvalidArgument(stubs_.ComputeJacobian(request, &response), "robot", {"robot_id", "urdf"}));
}

TEST_F(BadInputTest, MalformedRobotId) {
  for (const std::string& id :
       {std::string("sha256:xyz"), "sha256:" + std::string(64, 'A'), "md5:" + std::string(64, 'a'),
        std::string(64, 'a'), "sha256:" + std::string(63, 'a')}) {
    SCOPED_TRACE(id);
    v1::ComputeFkRequest request;
    request.mutable_robot()->set_robot_id(id);
    request.add_joints(0.0);
    v1::ComputeFkResponse response;
    EXPECT_TRUE(IsInvalidArgument(stubs_.ComputeFk(request, &response), "robot.robot_id", {id}));
  }
}

TEST_F(BadInputTest, UnknownRobotIsNotFound) {
  v1::ComputeFkRequest request;
  request.mutable_robot()->set_robot_id("sha256:" + std::string(64, '0'));
  request.add_joints(0.0);
  v1::ComputeFkResponse response;
  EXPECT_TRUE(IsRobotNotRegistered(stubs_.ComputeFk(request, &response)));
}

// ------------------------------------------------------------- dynamics --

// A short UR5 MoveJ on the registered robot.
v1::PlanPathRequest Ur5MoveJ(const std::string& robot_id) {
  v1::PlanPathRequest request;
  request.mutable_robot()->set_robot_id(robot_id);
  for (double q : {0.0, -1.2, 1.4, -0.2, 1.57, 0.0}) request.add_start_joints(q);
  v1::MotionSegment* segment = request.add_segments();
  segment->set_id("move");
  for (double q : {0.5, -1.0, 1.2, -0.4, 1.4, 0.3}) {
    segment->mutable_movej()->mutable_joints()->add_values(q);
  }
  return request;
}

v1::Payload GoodPayload() {
  v1::Payload p;
  p.set_mass(3.0);
  p.mutable_center_of_mass()->set_z(0.08);
  p.mutable_inertia()->set_ixx(0.01);
  p.mutable_inertia()->set_iyy(0.012);
  p.mutable_inertia()->set_izz(0.008);
  return p;
}

// Each way a payload can be wrong, as (mutation, field, words the message must hold).
struct BadPayload {
  const char* name;
  void (*mutate)(v1::Payload&);
  const char* field;
  const char* words;
};
const BadPayload kBadPayloads[] = {
    {"negative mass", [](v1::Payload& p) { p.set_mass(-1); }, "mass", ">= 0"},
    {"NaN mass", [](v1::Payload& p) { p.set_mass(kNaN); }, "mass", "finite"},
    {"infinite mass", [](v1::Payload& p) { p.set_mass(kInf); }, "mass", "finite"},
    {"NaN centre of mass", [](v1::Payload& p) { p.mutable_center_of_mass()->set_y(kNaN); },
     "center_of_mass.y", "finite"},
    {"infinite centre of mass", [](v1::Payload& p) { p.mutable_center_of_mass()->set_x(-kInf); },
     "center_of_mass.x", "finite"},
    {"negative inertia", [](v1::Payload& p) { p.mutable_inertia()->set_iyy(-0.01); }, "inertia.iyy",
     ">= 0"},
    {"NaN inertia", [](v1::Payload& p) { p.mutable_inertia()->set_ixy(kNaN); }, "inertia.ixy",
     "finite"},
    {"infinite inertia", [](v1::Payload& p) { p.mutable_inertia()->set_izz(kInf); }, "inertia.izz",
     "finite"},
    {"not positive definite", [](v1::Payload& p) { p.mutable_inertia()->set_ixy(0.05); }, "inertia",
     "positive definite"},
    {"triangle inequality",
     [](v1::Payload& p) {
       p.mutable_inertia()->set_ixx(0.01);
       p.mutable_inertia()->set_iyy(0.01);
       p.mutable_inertia()->set_izz(0.05);
     },
     "inertia", "triangle"},
};

TEST_F(BadInputTest, BadRobotPayloadIsRefusedByEveryRpcThatResolvesTheRobot) {
  for (const BadPayload& bad : kBadPayloads) {
    v1::Payload payload = GoodPayload();
    bad.mutate(payload);
    v1::ComputeFkRequest fk;
    fk.mutable_robot()->set_robot_id(ur5_.robot_id());
    *fk.mutable_robot()->mutable_payload() = payload;
    for (int i = 0; i < 6; ++i) fk.add_joints(0.1);
    v1::ComputeFkResponse fk_response;
    EXPECT_TRUE(IsInvalidArgument(stubs_.ComputeFk(fk, &fk_response),
                                  std::string("robot.payload.") + bad.field, {bad.words}))
        << bad.name << " (ComputeFk)";
    v1::PlanPathRequest plan = Ur5MoveJ(ur5_.robot_id());
    *plan.mutable_robot()->mutable_payload() = payload;
    EXPECT_TRUE(IsInvalidArgument(CallPlanPath(stubs_.planner(), plan).status,
                                  std::string("robot.payload.") + bad.field, {bad.words}))
        << bad.name << " (PlanPath)";
  }
}

TEST_F(BadInputTest, BadSegmentPayloadNamesTheSegment) {
  for (const BadPayload& bad : kBadPayloads) {
    v1::PlanPathRequest plan = Ur5MoveJ(ur5_.robot_id());
    *plan.mutable_segments(0)->mutable_payload() = GoodPayload();
    bad.mutate(*plan.mutable_segments(0)->mutable_payload());
    EXPECT_TRUE(IsInvalidArgument(CallPlanPath(stubs_.planner(), plan).status,
                                  std::string("segments[0].payload.") + bad.field, {bad.words}))
        << bad.name;
  }
}

TEST_F(BadInputTest, GoodPayloadsAreAccepted) {
  v1::PlanPathRequest plan = Ur5MoveJ(ur5_.robot_id());
  *plan.mutable_robot()->mutable_payload() = GoodPayload();
  *plan.mutable_segments(0)->mutable_payload() = GoodPayload();
  plan.mutable_segments(0)->mutable_payload()->clear_inertia();  // a point mass
  const PlanPathCall call = CallPlanPath(stubs_.planner(), plan);
  EXPECT_TRUE(call.status.ok()) << Describe(call.status);
}

TEST_F(BadInputTest, PayloadOnARobotWithoutInertialsIsNotAnError) {
  // FANUC's bundled URDF has no <inertial>: the payload cannot be used, which is a
  // DYNAMICS_UNAVAILABLE warning of the planner, never an RPC error.
  const v1::RobotInfo fanuc = Register(ReadRobot("fanuc_lrmate200id.urdf"));
  v1::ComputeFkRequest fk;
  fk.mutable_robot()->set_robot_id(fanuc.robot_id());
  *fk.mutable_robot()->mutable_payload() = GoodPayload();
  for (int i = 0; i < fanuc.dof(); ++i) fk.add_joints(0.1);
  v1::ComputeFkResponse response;
  const grpc::Status status = stubs_.ComputeFk(fk, &response);
  EXPECT_TRUE(status.ok()) << Describe(status);
}

TEST_F(BadInputTest, NonFiniteGravityIsRefused) {
  for (const auto& [component, value] :
       std::vector<std::pair<char, double>>{{'x', kNaN}, {'y', kInf}, {'z', kNaN}, {'z', -kInf}}) {
    v1::PlanPathRequest plan = Ur5MoveJ(ur5_.robot_id());
    plan.mutable_gravity()->set_z(-9.81);
    if (component == 'x') plan.mutable_gravity()->set_x(value);
    if (component == 'y') plan.mutable_gravity()->set_y(value);
    if (component == 'z') plan.mutable_gravity()->set_z(value);
    EXPECT_TRUE(IsInvalidArgument(CallPlanPath(stubs_.planner(), plan).status,
                                  std::string("gravity.") + component, {"finite"}))
        << component << " = " << value;
  }
  v1::PlanPathRequest sideways = Ur5MoveJ(ur5_.robot_id());
  sideways.mutable_gravity()->set_x(9.81);
  const PlanPathCall call = CallPlanPath(stubs_.planner(), sideways);
  EXPECT_TRUE(call.status.ok()) << Describe(call.status);
}

TEST_F(BadInputTest, ExplicitZeroPathToleranceIsRefusedAndUnsetIsTheDefault) {
  // The field is proto3 `optional`: present 0 (or 0 in JSON) asks for a
  // motion exactly on its path, which no sampled motion is; unset is 1e-5 m.
  for (const char* field : {"path_tolerance", "path_angle_tolerance"}) {
    v1::PlanPathRequest plan = Ur5MoveJ(ur5_.robot_id());
    v1::MotionSegment* segment = plan.mutable_segments(0);
    if (std::string(field) == "path_tolerance") {
      segment->set_path_tolerance(0.0);
    } else {
      segment->set_path_angle_tolerance(0.0);
    }
    EXPECT_TRUE(IsInvalidArgument(CallPlanPath(stubs_.planner(), plan).status,
                                  std::string("segments[0].") + field, {"> 0"}))
        << field;
  }
  const PlanPathCall unset = CallPlanPath(stubs_.planner(), Ur5MoveJ(ur5_.robot_id()));
  EXPECT_TRUE(unset.status.ok()) << Describe(unset.status);
}

TEST_F(BadInputTest, BadTorqueOverrideIsRefused) {
  for (double value : {-1.0, kNaN, kInf}) {
    v1::PlanPathRequest plan = Ur5MoveJ(ur5_.robot_id());
    v1::JointLimitOverride* o = plan.mutable_robot()->add_joint_limits();
    o->set_joint_name("elbow_joint");
    o->set_max_torque(value);
    EXPECT_TRUE(IsInvalidArgument(CallPlanPath(stubs_.planner(), plan).status,
                                  "robot.joint_limits[0].max_torque", {"finite"}))
        << value;
  }
}

TEST_F(BadInputTest, RobotInfoReportsTheTorqueLimitAndItsSource) {
  ASSERT_EQ(ur5_.joints_size(), 6);
  EXPECT_EQ(ur5_.joints(0).max_torque(), 150.0);  // shoulder_pan_joint effort
  EXPECT_EQ(ur5_.joints(0).torque_source(), "urdf");
  EXPECT_EQ(ur5_.joints(5).max_torque(), 28.0);
  const v1::RobotInfo abb = Register(ReadRobot("abb_irb120.urdf"));
  ASSERT_GT(abb.joints_size(), 0);
  EXPECT_EQ(abb.joints(0).max_torque(), 0.0);  // effort="0": unknown
  EXPECT_EQ(abb.joints(0).torque_source(), "unknown: URDF effort is 0");
  v1::GetRobotRequest get;
  get.set_robot_id(ur5_.robot_id());
  v1::RobotInfo info;
  ASSERT_TRUE(stubs_.GetRobot(get, &info).ok());
  EXPECT_EQ(info.joints(1).max_torque(), 150.0);
}

}  // namespace
}  // namespace motiond_test
