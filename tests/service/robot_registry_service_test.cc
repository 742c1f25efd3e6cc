// motion.v1.RobotRegistry over real gRPC: content-addressed ids (checked
// against `sha256sum`), idempotent registration, RobotInfo against the URDF
// text (read with TinyXML) and the robots README, chain selection, unknown
// ids (NOT_FOUND + ErrorInfo), inline URDFs and the registry's LRU bound.

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "service_test_support.h"

namespace motiond_test {
namespace {

// The arm chains listed in robots/README.md ("Summary").
struct ExpectedRobot {
  std::string file;
  std::string name;
  int dof;
  std::string base;
  std::string tip;
};

const std::vector<ExpectedRobot>& ReadmeRobots() {
  static const std::vector<ExpectedRobot> robots = {
      {"abb_irb120.urdf", "abb_irb120_3_58", 6, "base_link", "tool0"},
      {"abb_irb2400.urdf", "abb_irb2400", 6, "base_link", "tool0"},
      {"fanuc_lrmate200id.urdf", "fanuc_lrmate200id", 6, "base_link", "tool0"},
      {"fanuc_m10ia.urdf", "fanuc_m10ia", 6, "base_link", "tool0"},
      {"iiwa14.urdf", "iiwa14", 7, "base", "iiwa_link_ee_kuka"},
      {"kuka_iiwa14_r820.urdf", "kuka_lbr_iiwa_14_r820", 7, "base_link", "tool0"},
      {"panda.urdf", "panda", 7, "panda_link0", "panda_link8"},
      {"planar_2r.urdf", "planar_2r", 2, "base_link", "tool"},
      {"quirks.urdf", "quirks", 4, "base_link", "tool"},
      {"ur10.urdf", "ur10", 6, "base_link", "tool0"},
      {"ur5.urdf", "ur5", 6, "base_link", "tool0"},
      {"ur5e.urdf", "ur5e_robot", 6, "base_link", "tool0"},
  };
  return robots;
}

const v1::JointInfo* FindJoint(const v1::RobotInfo& info, const std::string& name) {
  for (const auto& joint : info.joints()) {
    if (joint.name() == name) return &joint;
  }
  return nullptr;
}

bool HasCandidate(const v1::RobotInfo& info, const std::string& base, const std::string& tip,
                  int dof) {
  for (const auto& c : info.candidate_chains()) {
    if (c.base_link() == base && c.tip_link() == tip && c.dof() == dof) return true;
  }
  return false;
}

std::vector<std::string> JointNames(const v1::RobotInfo& info) {
  std::vector<std::string> names;
  for (const auto& joint : info.joints()) names.push_back(joint.name());
  return names;
}

v1::GetRobotRequest GetRequest(const std::string& robot_id, const std::string& base = "",
                               const std::string& tip = "") {
  v1::GetRobotRequest request;
  request.set_robot_id(robot_id);
  request.set_base_link(base);
  request.set_tip_link(tip);
  return request;
}

class RobotRegistryServiceTest : public ::testing::Test {
 protected:
  TestServer server_;
  Stubs stubs_{server_.NewChannel()};

  v1::RobotInfo Register(const std::string& file) {
    v1::RegisterRobotResponse response;
    const grpc::Status status = stubs_.RegisterRobot(ReadRobot(file), &response);
    EXPECT_TRUE(status.ok()) << file << ": " << Describe(status);
    return response.info();
  }
};

TEST_F(RobotRegistryServiceTest, EveryBundledRobotIsListedInTheReadme) {
  std::set<std::string> expected;
  for (const auto& robot : ReadmeRobots()) expected.insert(robot.file);
  const std::vector<std::string> files = BundledRobotFiles();
  EXPECT_EQ(std::set<std::string>(files.begin(), files.end()), expected)
      << "a robot was added or removed: update ReadmeRobots() from robots/README.md";
}

TEST_F(RobotRegistryServiceTest, RegistersEveryBundledRobotUnderItsSha256sumId) {
  for (const auto& robot : ReadmeRobots()) {
    SCOPED_TRACE(robot.file);
    const std::string urdf = ReadRobot(robot.file);
    const std::string expected_id = Sha256sumId(RobotPath(robot.file));

    v1::RegisterRobotResponse first;
    const grpc::Status status = stubs_.RegisterRobot(urdf, &first);
    ASSERT_TRUE(status.ok()) << Describe(status);
    EXPECT_EQ(first.robot_id(), expected_id);
    EXPECT_FALSE(first.already_registered());
    const v1::RobotInfo& info = first.info();
    EXPECT_EQ(info.robot_id(), expected_id);
    EXPECT_EQ(info.name(), robot.name);
    EXPECT_EQ(info.dof(), robot.dof);
    EXPECT_EQ(info.joints_size(), robot.dof);
    EXPECT_EQ(info.base_link(), robot.base);
    EXPECT_EQ(info.tip_link(), robot.tip);
    EXPECT_EQ(info.urdf_bytes(),
              static_cast<int64_t>(std::filesystem::file_size(RobotPath(robot.file))));
    EXPECT_FALSE(info.chain_rule().empty());
    EXPECT_TRUE(HasCandidate(info, robot.base, robot.tip, robot.dof))
        << "the default chain must be among the candidates";

    // Idempotent: same bytes, same id, and the server says it knew them.
    v1::RegisterRobotResponse again;
    ASSERT_TRUE(stubs_.RegisterRobot(urdf, &again).ok());
    EXPECT_EQ(again.robot_id(), expected_id);
    EXPECT_TRUE(again.already_registered());
    EXPECT_EQ(again.info().DebugString(), info.DebugString());
  }
}

TEST_F(RobotRegistryServiceTest, RobotInfoMatchesTheUrdfText) {
  for (const auto& robot : ReadmeRobots()) {
    SCOPED_TRACE(robot.file);
    const v1::RobotInfo info = Register(robot.file);
    const UrdfText urdf = ReadUrdfText(ReadRobot(robot.file));

    EXPECT_EQ(info.name(), urdf.robot_name);
    EXPECT_EQ(info.link_count(), static_cast<int>(urdf.links.size()));
    EXPECT_EQ(info.joint_count(), static_cast<int>(urdf.joints.size()));

    // The chain's links and movable joints, walked up from the tip in the text.
    const std::vector<std::string> links = LinksBetween(urdf, info.base_link(), info.tip_link());
    ASSERT_FALSE(links.empty());
    EXPECT_EQ(std::vector<std::string>(info.links().begin(), info.links().end()), links);
    std::vector<std::string> movable;
    for (std::size_t i = 1; i < links.size(); ++i) {
      const UrdfJoint& joint = urdf.joints.at(urdf.parent_joint_of.at(links[i]));
      if (joint.type != "fixed") movable.push_back(joint.name);
    }
    EXPECT_EQ(JointNames(info), movable);

    for (const auto& joint : info.joints()) {
      SCOPED_TRACE(joint.name());
      const UrdfJoint& text = urdf.joints.at(joint.name());
      ASSERT_TRUE(text.has_limit);
      if (text.type == "continuous") {
        EXPECT_EQ(joint.type(), v1::CONTINUOUS);
        EXPECT_FALSE(joint.bounded());
        EXPECT_EQ(joint.lower(), -std::numeric_limits<double>::infinity());
        EXPECT_EQ(joint.upper(), std::numeric_limits<double>::infinity());
      } else {
        EXPECT_EQ(joint.type(), text.type == "prismatic" ? v1::PRISMATIC : v1::REVOLUTE);
        EXPECT_TRUE(joint.bounded());
        EXPECT_NEAR(joint.lower(), text.lower, 1e-12);
        EXPECT_NEAR(joint.upper(), text.upper, 1e-12);
      }
      if (text.velocity > 0) {
        EXPECT_NEAR(joint.max_velocity(), text.velocity, 1e-12);
        EXPECT_EQ(joint.velocity_source(), "urdf");
      } else {
        EXPECT_GT(joint.max_velocity(), 0.0) << "velocity=\"0\" needs a documented default";
        EXPECT_NE(joint.velocity_source(), "urdf");
      }
      // README "Joint limits": URDF has no acceleration limit. Where it has the dynamics, the
      // acceleration is what the effort allows in the worst pose (the number the source
      // states, to 0.1), at most 10 x max velocity per second; else 2 x max velocity.
      const std::string& source = joint.acceleration_source();
      if (source.rfind("effort: ", 0) == 0) {
        const double stated = std::stod(source.substr(8));
        EXPECT_NEAR(joint.max_acceleration(), std::min(stated, 10.0 * joint.max_velocity()), 0.05)
            << source;
        EXPECT_EQ(source.find("capped") != std::string::npos, stated > 10.0 * joint.max_velocity())
            << source;
        EXPECT_NEAR(joint.max_jerk(), 10.0 * joint.max_acceleration(), 1e-9);
      } else {
        EXPECT_EQ(source, "default: 2 x max_velocity per second");
        EXPECT_NEAR(joint.max_acceleration(), 2.0 * joint.max_velocity(), 1e-12);
      }
    }
  }
}

TEST_F(RobotRegistryServiceTest, Ur5InfoMatchesTheReadme) {
  const v1::RobotInfo info = Register("ur5.urdf");
  EXPECT_EQ(JointNames(info),
            (std::vector<std::string>{"shoulder_pan_joint", "shoulder_lift_joint", "elbow_joint",
                                      "wrist_1_joint", "wrist_2_joint", "wrist_3_joint"}));
  const v1::JointInfo* elbow = FindJoint(info, "elbow_joint");
  ASSERT_NE(elbow, nullptr);
  EXPECT_EQ(elbow->type(), v1::REVOLUTE);
  EXPECT_NEAR(elbow->lower(), -kPi, 1e-10);  // the file writes 3.14159265359
  EXPECT_NEAR(elbow->upper(), kPi, 1e-10);
  EXPECT_DOUBLE_EQ(elbow->max_velocity(), 3.15);
  const v1::JointInfo* pan = FindJoint(info, "shoulder_pan_joint");
  ASSERT_NE(pan, nullptr);
  EXPECT_NEAR(pan->upper(), 2 * kPi, 1e-10);
  EXPECT_DOUBLE_EQ(FindJoint(info, "wrist_3_joint")->max_velocity(), 3.2);
  // The tie tool0 / ee_link is resolved to tool0, and ee_link stays selectable.
  EXPECT_TRUE(HasCandidate(info, "base_link", "ee_link", 6));
}

TEST_F(RobotRegistryServiceTest, PandaInfoMatchesTheReadme) {
  const v1::RobotInfo info = Register("panda.urdf");
  EXPECT_EQ(JointNames(info), (std::vector<std::string>{
                                  "panda_joint1", "panda_joint2", "panda_joint3", "panda_joint4",
                                  "panda_joint5", "panda_joint6", "panda_joint7"}));
  const v1::JointInfo* j4 = FindJoint(info, "panda_joint4");
  ASSERT_NE(j4, nullptr);
  EXPECT_DOUBLE_EQ(j4->lower(), -3.0718);
  EXPECT_DOUBLE_EQ(j4->upper(), -0.0698);
  const v1::JointInfo* j6 = FindJoint(info, "panda_joint6");
  ASSERT_NE(j6, nullptr);
  EXPECT_DOUBLE_EQ(j6->lower(), -0.0175);
  EXPECT_DOUBLE_EQ(j6->upper(), 3.7525);
  EXPECT_EQ(info.mimic_joints_size(), 0);
  EXPECT_TRUE(HasCandidate(info, "panda_link0", "panda_hand_tcp", 7));
}

TEST_F(RobotRegistryServiceTest, QuirksInfoMatchesTheReadme) {
  const v1::RobotInfo info = Register("quirks.urdf");
  EXPECT_EQ(info.base_link(), "base_link");
  EXPECT_EQ(info.tip_link(), "tool");
  ASSERT_EQ(JointNames(info), (std::vector<std::string>{"j1", "j2", "j3", "j4"}));
  EXPECT_EQ(info.joints(0).type(), v1::REVOLUTE);
  EXPECT_EQ(info.joints(1).type(), v1::REVOLUTE);
  EXPECT_EQ(info.joints(2).type(), v1::PRISMATIC);
  EXPECT_DOUBLE_EQ(info.joints(2).lower(), 0.0);
  EXPECT_DOUBLE_EQ(info.joints(2).upper(), 0.1);
  const v1::JointInfo& j4 = info.joints(3);
  EXPECT_EQ(j4.type(), v1::CONTINUOUS);
  EXPECT_FALSE(j4.bounded());
  EXPECT_TRUE(std::isinf(j4.lower()) && j4.lower() < 0);
  EXPECT_TRUE(std::isinf(j4.upper()) && j4.upper() > 0);
  // Whole tree: 6 movable joints, one of them a mimic of another.
  EXPECT_EQ(info.mimic_joints_size(), 0) << "no mimic joint in the arm chain";
}

TEST_F(RobotRegistryServiceTest, VelocityZeroTakesTheDocumentedDefaults) {
  // README "Joint limits": velocity="0" means unknown: 1 rad/s or 0.25 m/s.
  v1::RegisterRobotResponse response;
  const grpc::Status status = stubs_.RegisterRobot(R"(<robot name="slow">
  <link name="base"/><link name="mid"/><link name="tip"/>
  <joint name="turn" type="revolute">
    <parent link="base"/><child link="mid"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" velocity="0" effort="0"/>
  </joint>
  <joint name="slide" type="prismatic">
    <parent link="mid"/><child link="tip"/><axis xyz="1 0 0"/>
    <limit lower="0" upper="0.5" velocity="0" effort="0"/>
  </joint>
</robot>)",
                                                   &response);
  ASSERT_TRUE(status.ok()) << Describe(status);
  const v1::RobotInfo& info = response.info();
  ASSERT_EQ(JointNames(info), (std::vector<std::string>{"turn", "slide"}));
  EXPECT_DOUBLE_EQ(info.joints(0).max_velocity(), 1.0);
  EXPECT_DOUBLE_EQ(info.joints(1).max_velocity(), 0.25);
  for (const auto& joint : info.joints()) {
    EXPECT_NE(joint.velocity_source(), "urdf");
    EXPECT_FALSE(joint.velocity_source().empty());
    EXPECT_DOUBLE_EQ(joint.max_acceleration(), 2.0 * joint.max_velocity());
  }
}

TEST_F(RobotRegistryServiceTest, GetRobotReturnsTheDefaultChainLikeRegisterRobot) {
  for (const auto& robot : ReadmeRobots()) {
    SCOPED_TRACE(robot.file);
    const v1::RobotInfo registered = Register(robot.file);
    v1::RobotInfo got;
    const grpc::Status status = stubs_.GetRobot(GetRequest(registered.robot_id()), &got);
    ASSERT_TRUE(status.ok()) << Describe(status);
    EXPECT_EQ(got.DebugString(), registered.DebugString());
  }
}

TEST_F(RobotRegistryServiceTest, GetRobotWithBaseAndTipDescribesThatChain) {
  const v1::RobotInfo panda = Register("panda.urdf");

  v1::RobotInfo tcp;
  grpc::Status status =
      stubs_.GetRobot(GetRequest(panda.robot_id(), "panda_link0", "panda_hand_tcp"), &tcp);
  ASSERT_TRUE(status.ok()) << Describe(status);
  EXPECT_EQ(tcp.base_link(), "panda_link0");
  EXPECT_EQ(tcp.tip_link(), "panda_hand_tcp");
  EXPECT_EQ(tcp.dof(), 7);
  EXPECT_EQ(JointNames(tcp), JointNames(panda));
  const UrdfText urdf = ReadUrdfText(ReadRobot("panda.urdf"));
  EXPECT_EQ(std::vector<std::string>(tcp.links().begin(), tcp.links().end()),
            LinksBetween(urdf, "panda_link0", "panda_hand_tcp"));

  // Only the tip named: the base stays the default one.
  v1::RobotInfo tip_only;
  ASSERT_TRUE(stubs_.GetRobot(GetRequest(panda.robot_id(), "", "panda_hand_tcp"), &tip_only).ok());
  EXPECT_EQ(tip_only.base_link(), "panda_link0");
  EXPECT_EQ(tip_only.dof(), 7);

  // A chain starting mid-arm.
  v1::RobotInfo forearm;
  ASSERT_TRUE(
      stubs_.GetRobot(GetRequest(panda.robot_id(), "panda_link4", "panda_link8"), &forearm).ok());
  EXPECT_EQ(JointNames(forearm),
            (std::vector<std::string>{"panda_joint5", "panda_joint6", "panda_joint7"}));
}

TEST_F(RobotRegistryServiceTest, AFingerChainCountsTheMimicJointAsNoExtraDof) {
  const v1::RobotInfo panda = Register("panda.urdf");
  // panda_finger_joint2 mimics panda_finger_joint1, which is outside the
  // chain to the right finger: the chain gets one DOF named after the master.
  v1::RobotInfo finger;
  const grpc::Status status =
      stubs_.GetRobot(GetRequest(panda.robot_id(), "panda_link0", "panda_rightfinger"), &finger);
  ASSERT_TRUE(status.ok()) << Describe(status);
  EXPECT_EQ(finger.dof(), 8);
  ASSERT_EQ(finger.joints_size(), 8);
  EXPECT_EQ(finger.joints(7).name(), "panda_finger_joint1");
  EXPECT_EQ(finger.joints(7).type(), v1::PRISMATIC);
  EXPECT_DOUBLE_EQ(finger.joints(7).lower(), 0.0);
  EXPECT_DOUBLE_EQ(finger.joints(7).upper(), 0.04);
  ASSERT_EQ(finger.mimic_joints_size(), 1);
  EXPECT_EQ(finger.mimic_joints(0).name(), "panda_finger_joint2");
  EXPECT_EQ(finger.mimic_joints(0).mimics(), "panda_finger_joint1");
  EXPECT_DOUBLE_EQ(finger.mimic_joints(0).multiplier(), 1.0);
  EXPECT_DOUBLE_EQ(finger.mimic_joints(0).offset(), 0.0);
}

TEST_F(RobotRegistryServiceTest, ListRobotsListsEveryRegisteredRobot) {
  v1::ListRobotsResponse empty;
  ASSERT_TRUE(stubs_.ListRobots(&empty).ok());
  EXPECT_EQ(empty.robots_size(), 0);

  std::set<std::string> expected_ids;
  for (const auto& robot : ReadmeRobots()) {
    Register(robot.file);
    expected_ids.insert(Sha256sumId(RobotPath(robot.file)));
  }
  v1::ListRobotsResponse list;
  const grpc::Status status = stubs_.ListRobots(&list);
  ASSERT_TRUE(status.ok()) << Describe(status);
  std::set<std::string> listed;
  std::set<std::string> names;
  for (const auto& info : list.robots()) {
    listed.insert(info.robot_id());
    names.insert(info.name());
    EXPECT_GT(info.dof(), 0);
  }
  EXPECT_EQ(list.robots_size(), static_cast<int>(ReadmeRobots().size()));
  EXPECT_EQ(listed, expected_ids);
  for (const auto& robot : ReadmeRobots()) EXPECT_EQ(names.count(robot.name), 1u) << robot.name;
}

// ----------------------------------------------- unknown ids, inline URDFs --

TEST_F(RobotRegistryServiceTest, UnknownRobotIdIsNotFoundWithErrorInfo) {
  // Well formed, but the URDF behind it was never sent.
  const std::string unknown = Sha256sumIdOfText("<robot name=\"never_sent\"/>");
  ASSERT_EQ(unknown.size(), 7u + 64u);

  v1::ComputeFkRequest fk;
  fk.mutable_robot()->set_robot_id(unknown);
  fk.add_joints(0.0);
  v1::ComputeFkResponse fk_response;
  const grpc::Status fk_status = stubs_.ComputeFk(fk, &fk_response);
  EXPECT_TRUE(IsRobotNotRegistered(fk_status));
  EXPECT_NE(fk_status.error_message().find(unknown), std::string::npos)
      << fk_status.error_message();
  // The rich status repeats code and message.
  const auto rich = RichStatus(fk_status);
  ASSERT_TRUE(rich.has_value());
  EXPECT_EQ(rich->code(), static_cast<int>(grpc::StatusCode::NOT_FOUND));
  EXPECT_EQ(rich->message(), fk_status.error_message());

  v1::ComputeJacobianRequest jacobian;
  jacobian.mutable_robot()->set_robot_id(unknown);
  v1::ComputeJacobianResponse jacobian_response;
  EXPECT_TRUE(IsRobotNotRegistered(stubs_.ComputeJacobian(jacobian, &jacobian_response)));

  v1::RobotInfo info;
  EXPECT_TRUE(IsRobotNotRegistered(stubs_.GetRobot(GetRequest(unknown), &info)));
}

TEST_F(RobotRegistryServiceTest, InlineUrdfWorksWithoutRegisteringAndRegistersTheRobot) {
  const std::string urdf = ReadRobot("planar_2r.urdf");
  const std::string id = Sha256sumId(RobotPath("planar_2r.urdf"));
  v1::RobotInfo info;
  ASSERT_TRUE(IsRobotNotRegistered(stubs_.GetRobot(GetRequest(id), &info)));

  // planar_2r closed form: x = 0.1 cos q1 + 0.2 cos(q1+q2), y likewise.
  const double q1 = 0.3, q2 = -1.1;
  v1::ComputeFkRequest request;
  request.mutable_robot()->set_urdf(urdf);
  request.add_joints(q1);
  request.add_joints(q2);
  v1::ComputeFkResponse response;
  const grpc::Status status = stubs_.ComputeFk(request, &response);
  ASSERT_TRUE(status.ok()) << Describe(status);
  EXPECT_NEAR(response.flange().position().x(), 0.1 * std::cos(q1) + 0.2 * std::cos(q1 + q2),
              1e-12);
  EXPECT_NEAR(response.flange().position().y(), 0.1 * std::sin(q1) + 0.2 * std::sin(q1 + q2),
              1e-12);

  // Now registered under the sha256sum id: GetRobot, ListRobots and an
  // id-only request all find it.
  ASSERT_TRUE(stubs_.GetRobot(GetRequest(id), &info).ok());
  EXPECT_EQ(info.name(), "planar_2r");
  v1::ListRobotsResponse list;
  ASSERT_TRUE(stubs_.ListRobots(&list).ok());
  ASSERT_EQ(list.robots_size(), 1);
  EXPECT_EQ(list.robots(0).robot_id(), id);
  v1::ComputeFkRequest by_id;
  by_id.mutable_robot()->set_robot_id(id);
  by_id.add_joints(q1);
  by_id.add_joints(q2);
  v1::ComputeFkResponse by_id_response;
  ASSERT_TRUE(stubs_.ComputeFk(by_id, &by_id_response).ok());
  EXPECT_EQ(by_id_response.flange().DebugString(), response.flange().DebugString());

  // Registering afterwards is a no-op that knows the robot.
  v1::RegisterRobotResponse registered;
  ASSERT_TRUE(stubs_.RegisterRobot(urdf, &registered).ok());
  EXPECT_TRUE(registered.already_registered());
  EXPECT_EQ(registered.robot_id(), id);
}

TEST_F(RobotRegistryServiceTest, RobotIdAndMatchingUrdfTogetherWork) {
  v1::ComputeFkRequest request;
  request.mutable_robot()->set_robot_id(Sha256sumId(RobotPath("planar_2r.urdf")));
  request.mutable_robot()->set_urdf(ReadRobot("planar_2r.urdf"));
  request.add_joints(0.0);
  request.add_joints(0.0);
  v1::ComputeFkResponse response;
  const grpc::Status status = stubs_.ComputeFk(request, &response);
  ASSERT_TRUE(status.ok()) << Describe(status);
  EXPECT_NEAR(response.flange().position().x(), 0.3, 1e-12);
}

TEST_F(RobotRegistryServiceTest, RobotIdWithAMismatchingUrdfIsInvalidArgument) {
  const std::string ur5_id = Sha256sumId(RobotPath("ur5.urdf"));
  v1::ComputeFkRequest request;
  request.mutable_robot()->set_robot_id(ur5_id);
  request.mutable_robot()->set_urdf(ReadRobot("planar_2r.urdf"));
  request.add_joints(0.0);
  request.add_joints(0.0);
  v1::ComputeFkResponse response;
  EXPECT_TRUE(IsInvalidArgument(stubs_.ComputeFk(request, &response), "robot.robot_id",
                                {ur5_id, Sha256sumId(RobotPath("planar_2r.urdf"))}));
}

// ------------------------------------------------------------- LRU bound --

class BoundedRegistryTest : public ::testing::Test {
 protected:
  static motion::server::ServerOptions TwoRobots() {
    auto options = TestServer::DefaultOptions();
    options.registry.max_robots = 2;
    return options;
  }
  TestServer server_{TwoRobots()};
  Stubs stubs_{server_.NewChannel()};

  grpc::Status Get(const std::string& file) {
    v1::RobotInfo info;
    return stubs_.GetRobot(GetRequest(Sha256sumId(RobotPath(file))), &info);
  }
  bool RegisterNew(const std::string& file) {
    v1::RegisterRobotResponse response;
    const grpc::Status status = stubs_.RegisterRobot(ReadRobot(file), &response);
    EXPECT_TRUE(status.ok()) << file << ": " << Describe(status);
    return status.ok() && !response.already_registered();
  }
};

TEST_F(BoundedRegistryTest, TheThirdRobotEvictsTheFirst) {
  EXPECT_TRUE(RegisterNew("planar_2r.urdf"));
  EXPECT_TRUE(RegisterNew("quirks.urdf"));
  EXPECT_TRUE(RegisterNew("ur5.urdf"));

  EXPECT_TRUE(IsRobotNotRegistered(Get("planar_2r.urdf")));
  EXPECT_TRUE(Get("quirks.urdf").ok());
  EXPECT_TRUE(Get("ur5.urdf").ok());
  v1::ListRobotsResponse list;
  ASSERT_TRUE(stubs_.ListRobots(&list).ok());
  EXPECT_EQ(list.robots_size(), 2);

  // Re-registering the evicted robot works (and is new again to the server).
  EXPECT_TRUE(RegisterNew("planar_2r.urdf"));
  const grpc::Status status = Get("planar_2r.urdf");
  EXPECT_TRUE(status.ok()) << Describe(status);
  ASSERT_TRUE(stubs_.ListRobots(&list).ok());
  EXPECT_EQ(list.robots_size(), 2);
}

TEST_F(BoundedRegistryTest, UseRefreshesARobotSoTheLeastRecentlyUsedGoes) {
  EXPECT_TRUE(RegisterNew("planar_2r.urdf"));
  EXPECT_TRUE(RegisterNew("quirks.urdf"));
  // Touch planar_2r by an id-only FK request: quirks is now the oldest.
  v1::ComputeFkRequest request;
  request.mutable_robot()->set_robot_id(Sha256sumId(RobotPath("planar_2r.urdf")));
  request.add_joints(0.1);
  request.add_joints(0.2);
  v1::ComputeFkResponse response;
  ASSERT_TRUE(stubs_.ComputeFk(request, &response).ok());
  EXPECT_TRUE(RegisterNew("ur5.urdf"));

  EXPECT_TRUE(Get("planar_2r.urdf").ok());
  EXPECT_TRUE(IsRobotNotRegistered(Get("quirks.urdf")));
  EXPECT_TRUE(Get("ur5.urdf").ok());
}

}  // namespace
}  // namespace motiond_test
