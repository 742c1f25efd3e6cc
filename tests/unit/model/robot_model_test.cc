// RobotModel / ChainModel / ChooseDefaultChain on the bundled robots: the
// default chain, joint names, types and limits must be exactly what the
// robots README and the URDF files say.

#include "core/model/robot_model.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "independent_fk.h"

namespace motion {
namespace {

using motion_test::ReadRobotFile;
using motion_test::ReadRobotSpec;

std::shared_ptr<const RobotModel> Load(const std::string& file) {
  auto model = RobotModel::FromUrdf(ReadRobotFile(file));
  EXPECT_TRUE(model.ok()) << file << ": " << model.status();
  return model.ok() ? *model : nullptr;
}

std::shared_ptr<const ChainModel> ChainOf(const RobotModel& model, const std::string& base,
                                          const std::string& tip) {
  auto chain = model.Chain(base, tip);
  EXPECT_TRUE(chain.ok()) << base << " -> " << tip << ": " << chain.status();
  return chain.ok() ? *chain : nullptr;
}

bool Contains(const absl::Status& status, const std::string& text) {
  return std::string(status.message()).find(text) != std::string::npos;
}

std::vector<std::string> Numbered(const std::string& prefix, int n) {
  std::vector<std::string> out;
  for (int i = 1; i <= n; ++i) out.push_back(prefix + std::to_string(i));
  return out;
}

const std::vector<std::string> kUrJoints = {"shoulder_pan_joint", "shoulder_lift_joint",
                                            "elbow_joint",        "wrist_1_joint",
                                            "wrist_2_joint",      "wrist_3_joint"};

// The arm chains of the robots README ("Summary" table and per-file notes).
struct ExpectedRobot {
  std::string file;
  std::string name;
  std::string base;
  std::string tip;
  std::vector<std::string> joints;
};

std::vector<ExpectedRobot> ExpectedRobots() {
  return {
      {"ur5.urdf", "ur5", "base_link", "tool0", kUrJoints},
      {"ur5e.urdf", "ur5e_robot", "base_link", "tool0", kUrJoints},
      {"ur10.urdf", "ur10", "base_link", "tool0", kUrJoints},
      {"panda.urdf", "panda", "panda_link0", "panda_link8", Numbered("panda_joint", 7)},
      {"iiwa14.urdf", "iiwa14", "base", "iiwa_link_ee_kuka", Numbered("iiwa_joint_", 7)},
      {"kuka_iiwa14_r820.urdf", "kuka_lbr_iiwa_14_r820", "base_link", "tool0",
       Numbered("joint_a", 7)},
      {"abb_irb2400.urdf", "abb_irb2400", "base_link", "tool0", Numbered("joint_", 6)},
      {"abb_irb120.urdf", "abb_irb120_3_58", "base_link", "tool0", Numbered("joint_", 6)},
      {"fanuc_m10ia.urdf", "fanuc_m10ia", "base_link", "tool0", Numbered("joint_", 6)},
      {"fanuc_lrmate200id.urdf", "fanuc_lrmate200id", "base_link", "tool0", Numbered("joint_", 6)},
      {"planar_2r.urdf", "planar_2r", "base_link", "tool", {"joint1", "joint2"}},
      {"quirks.urdf", "quirks", "base_link", "tool", {"j1", "j2", "j3", "j4"}},
  };
}

class BundledRobotTest : public ::testing::TestWithParam<ExpectedRobot> {};

TEST_P(BundledRobotTest, DefaultChainIsTheReadmeArmChain) {
  const ExpectedRobot& expected = GetParam();
  const auto model = Load(expected.file);
  ASSERT_NE(model, nullptr);
  EXPECT_EQ(model->name(), expected.name);
  EXPECT_EQ(model->default_chain().base_link, expected.base);
  EXPECT_EQ(model->default_chain().tip_link, expected.tip);
  EXPECT_FALSE(model->default_chain().rule.empty());

  auto chain = model->Chain();
  ASSERT_TRUE(chain.ok()) << chain.status();
  EXPECT_EQ((*chain)->base_link, expected.base);
  EXPECT_EQ((*chain)->tip_link, expected.tip);
  EXPECT_EQ((*chain)->dof(), static_cast<int>(expected.joints.size()));
  EXPECT_EQ((*chain)->dof_names, expected.joints);
  EXPECT_EQ((*chain)->dof_types.size(), expected.joints.size());
  EXPECT_EQ((*chain)->dof_limits.size(), expected.joints.size());
  EXPECT_TRUE((*chain)->mimics.empty());

  // Naming the default pair explicitly gives the same chain.
  auto named = model->Chain(expected.base, expected.tip);
  ASSERT_TRUE(named.ok()) << named.status();
  EXPECT_EQ((*named)->dof_names, expected.joints);

  // The default is the first candidate, with its DOF.
  const auto& candidates = model->default_chain().candidates;
  ASSERT_FALSE(candidates.empty());
  EXPECT_EQ(candidates[0].base_link, expected.base);
  EXPECT_EQ(candidates[0].tip_link, expected.tip);
  EXPECT_EQ(candidates[0].dof, static_cast<int>(expected.joints.size()));
}

TEST_P(BundledRobotTest, LimitsAreTheUrdfNumbers) {
  const ExpectedRobot& expected = GetParam();
  const auto model = Load(expected.file);
  ASSERT_NE(model, nullptr);
  const auto spec = ReadRobotSpec(expected.file);
  auto chain = model->Chain();
  ASSERT_TRUE(chain.ok()) << chain.status();
  const ChainModel& c = **chain;
  for (int i = 0; i < c.dof(); ++i) {
    SCOPED_TRACE(c.dof_names[i]);
    const motion_test::UrdfJointSpec& j = spec.joints.at(c.dof_names[i]);
    const JointLimits& l = c.dof_limits[i];
    const JointType expected_type = j.type == "prismatic"    ? JointType::kPrismatic
                                    : j.type == "continuous" ? JointType::kContinuous
                                                             : JointType::kRevolute;
    EXPECT_EQ(c.dof_types[i], expected_type);
    if (j.type == "continuous") {
      EXPECT_FALSE(l.bounded);
      EXPECT_EQ(l.lower, -std::numeric_limits<double>::infinity());
      EXPECT_EQ(l.upper, std::numeric_limits<double>::infinity());
    } else {
      ASSERT_TRUE(j.has_limit);
      EXPECT_TRUE(l.bounded);
      EXPECT_DOUBLE_EQ(l.lower, j.lower);
      EXPECT_DOUBLE_EQ(l.upper, j.upper);
    }
    // Every bundled file gives a positive velocity on every joint.
    ASSERT_GT(j.velocity, 0.0);
    EXPECT_DOUBLE_EQ(l.max_velocity, j.velocity);
    EXPECT_EQ(l.velocity_source, "urdf");
    // Accelerations: what the efforts allow where the URDF has the dynamics
    // (tests/unit/dynamics/effort_acceleration_test.cc), else the documented default.
    if (c.dynamics_missing.empty()) {
      EXPECT_EQ(l.acceleration_source.rfind("effort: ", 0), 0u) << l.acceleration_source;
      EXPECT_GT(l.max_acceleration, 0.0);
      EXPECT_LE(l.max_acceleration, kMaxAccelerationPerVelocity * j.velocity);
    } else {
      EXPECT_DOUBLE_EQ(l.max_acceleration, kDefaultAccelerationPerVelocity * j.velocity);
      EXPECT_EQ(l.acceleration_source, "default: 2 x max_velocity per second");
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Robots, BundledRobotTest, ::testing::ValuesIn(ExpectedRobots()),
                         [](const ::testing::TestParamInfo<ExpectedRobot>& info) {
                           std::string name = info.param.file.substr(0, info.param.file.find('.'));
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

const JointLimits& LimitOf(const ChainModel& chain, const std::string& joint) {
  const auto it = std::find(chain.dof_names.begin(), chain.dof_names.end(), joint);
  EXPECT_NE(it, chain.dof_names.end()) << joint;
  return chain.dof_limits.at(it - chain.dof_names.begin());
}

// Spot checks against the numbers printed in the robots README, independent
// of the test-side XML reader.
TEST(RobotLimitsTest, ReadmeSpotChecks) {
  auto panda = Load("panda.urdf");
  ASSERT_NE(panda, nullptr);
  auto pc = panda->Chain();
  ASSERT_TRUE(pc.ok());
  EXPECT_EQ(LimitOf(**pc, "panda_joint4").lower, -3.0718);
  EXPECT_EQ(LimitOf(**pc, "panda_joint4").upper, -0.0698);
  EXPECT_EQ(LimitOf(**pc, "panda_joint4").max_velocity, 2.175);
  EXPECT_EQ(LimitOf(**pc, "panda_joint6").lower, -0.0175);
  EXPECT_EQ(LimitOf(**pc, "panda_joint6").upper, 3.7525);

  auto abb = Load("abb_irb2400.urdf");
  ASSERT_NE(abb, nullptr);
  auto ac = abb->Chain();
  ASSERT_TRUE(ac.ok());
  EXPECT_EQ(LimitOf(**ac, "joint_6").lower, -6.9813);  // +-400 deg, beyond 2 pi on purpose
  EXPECT_EQ(LimitOf(**ac, "joint_6").upper, 6.9813);
  EXPECT_EQ(LimitOf(**ac, "joint_4").upper, 3.49);

  auto m10 = Load("fanuc_m10ia.urdf");
  ASSERT_NE(m10, nullptr);
  auto mc = m10->Chain();
  ASSERT_TRUE(mc.ok());
  EXPECT_EQ(LimitOf(**mc, "joint_3").lower, -3.14);
  EXPECT_EQ(LimitOf(**mc, "joint_3").upper, 4.61);

  auto lrmate = Load("fanuc_lrmate200id.urdf");
  ASSERT_NE(lrmate, nullptr);
  auto lc = lrmate->Chain();
  ASSERT_TRUE(lc.ok());
  EXPECT_EQ(LimitOf(**lc, "joint_3").lower, -1.2217304763960306);
  EXPECT_EQ(LimitOf(**lc, "joint_3").upper, 3.5779249665883754);

  auto ur5 = Load("ur5.urdf");
  ASSERT_NE(ur5, nullptr);
  auto uc = ur5->Chain();
  ASSERT_TRUE(uc.ok());
  EXPECT_EQ(LimitOf(**uc, "elbow_joint").lower, -3.14159265359);
  EXPECT_EQ(LimitOf(**uc, "elbow_joint").upper, 3.14159265359);
  EXPECT_EQ(LimitOf(**uc, "shoulder_pan_joint").upper, 6.28318530718);

  auto planar = Load("planar_2r.urdf");
  ASSERT_NE(planar, nullptr);
  auto plc = planar->Chain();
  ASSERT_TRUE(plc.ok());
  EXPECT_EQ(LimitOf(**plc, "joint2").lower, -2.5);
  EXPECT_EQ(LimitOf(**plc, "joint2").max_velocity, 2.0);
  EXPECT_EQ(LimitOf(**plc, "joint2").max_acceleration, 4.0);  // documented default: 2 x velocity
}

const ChainCandidate* FindCandidate(const RobotModel& model, const std::string& tip) {
  for (const auto& c : model.default_chain().candidates) {
    if (c.tip_link == tip) return &c;
  }
  return nullptr;
}

TEST(CandidateChainsTest, AlternativeTipsAreOffered) {
  struct Alternative {
    std::string file, base, tip;
    int dof;
  };
  const Alternative alternatives[] = {
      {"ur5.urdf", "base_link", "ee_link", 6},
      {"ur10.urdf", "base_link", "ee_link", 6},
      {"iiwa14.urdf", "base", "iiwa_link_ee", 7},
      {"panda.urdf", "panda_link0", "panda_hand_tcp", 7},
      {"panda.urdf", "panda_link0", "panda_leftfinger", 8},
      {"panda.urdf", "panda_link0", "panda_rightfinger", 8},
      {"quirks.urdf", "base_link", "camera_link", 2},
      {"quirks.urdf", "base_link", "finger_left", 5},
      {"quirks.urdf", "base_link", "finger_right", 5},
  };
  for (const Alternative& a : alternatives) {
    SCOPED_TRACE(a.file + ": " + a.tip);
    const auto model = Load(a.file);
    ASSERT_NE(model, nullptr);
    const ChainCandidate* c = FindCandidate(*model, a.tip);
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->base_link, a.base);
    EXPECT_EQ(c->dof, a.dof);
    // The candidate can be used as advertised.
    const auto chain = ChainOf(*model, c->base_link, c->tip_link);
    ASSERT_NE(chain, nullptr);
    EXPECT_EQ(chain->dof(), a.dof);
  }
}

TEST(CandidateChainsTest, EveryMovableCandidateBuildsWithItsDof) {
  for (const ExpectedRobot& robot : ExpectedRobots()) {
    const auto model = Load(robot.file);
    ASSERT_NE(model, nullptr);
    for (const ChainCandidate& c : model->default_chain().candidates) {
      if (c.dof == 0) continue;
      SCOPED_TRACE(robot.file + ": " + c.base_link + " -> " + c.tip_link);
      const auto chain = ChainOf(*model, c.base_link, c.tip_link);
      ASSERT_NE(chain, nullptr);
      EXPECT_EQ(chain->dof(), c.dof);
    }
  }
}

TEST(AlternativeChainsTest, ReadmeAlternativeChainsHaveTheArmJoints) {
  const auto panda = Load("panda.urdf");
  ASSERT_NE(panda, nullptr);
  const auto tcp = ChainOf(*panda, "panda_link0", "panda_hand_tcp");
  ASSERT_NE(tcp, nullptr);
  EXPECT_EQ(tcp->dof_names, Numbered("panda_joint", 7));
  EXPECT_TRUE(tcp->mimics.empty());

  const auto iiwa = Load("iiwa14.urdf");
  ASSERT_NE(iiwa, nullptr);
  const auto ee = ChainOf(*iiwa, "base", "iiwa_link_ee");
  ASSERT_NE(ee, nullptr);
  EXPECT_EQ(ee->dof_names, Numbered("iiwa_joint_", 7));

  const auto ur5 = Load("ur5.urdf");
  ASSERT_NE(ur5, nullptr);
  const auto ee_link = ChainOf(*ur5, "base_link", "ee_link");
  ASSERT_NE(ee_link, nullptr);
  EXPECT_EQ(ee_link->dof_names, kUrJoints);
  // The virtual root is a valid base too; world_joint is fixed.
  const auto from_world = ChainOf(*ur5, "world", "tool0");
  ASSERT_NE(from_world, nullptr);
  EXPECT_EQ(from_world->dof_names, kUrJoints);

  // A panda finger chain: panda_finger_joint2 mimics panda_finger_joint1,
  // which is not on the path, so the DOF is named after the master.
  const auto right = ChainOf(*panda, "panda_link0", "panda_rightfinger");
  ASSERT_NE(right, nullptr);
  ASSERT_EQ(right->dof(), 8);
  EXPECT_EQ(right->dof_names[7], "panda_finger_joint1");
  ASSERT_EQ(right->mimics.size(), 1u);
  EXPECT_EQ(right->mimics[0].joint, "panda_finger_joint2");
  EXPECT_EQ(right->mimics[0].dof_name, "panda_finger_joint1");
  EXPECT_EQ(right->mimics[0].multiplier, 1.0);  // URDF defaults when not given
  EXPECT_EQ(right->mimics[0].offset, 0.0);
}

TEST(QuirksChainTest, DefaultChainTypesAndLimits) {
  const auto model = Load("quirks.urdf");
  ASSERT_NE(model, nullptr);
  auto chain = model->Chain();
  ASSERT_TRUE(chain.ok()) << chain.status();
  const ChainModel& c = **chain;
  ASSERT_EQ(c.dof(), 4);
  EXPECT_EQ(c.dof_types, (std::vector<JointType>{JointType::kRevolute, JointType::kRevolute,
                                                 JointType::kPrismatic, JointType::kContinuous}));
  EXPECT_EQ(c.dof_limits[0].lower, -3.141592653589793);
  EXPECT_EQ(c.dof_limits[0].upper, 3.141592653589793);
  EXPECT_EQ(c.dof_limits[1].lower, -2.0);
  EXPECT_EQ(c.dof_limits[1].upper, 2.0);
  EXPECT_EQ(c.dof_limits[2].lower, 0.0);
  EXPECT_EQ(c.dof_limits[2].upper, 0.1);
  EXPECT_EQ(c.dof_limits[2].max_velocity, 0.25);
  // j4 is continuous: unbounded, velocity still from the file.
  EXPECT_FALSE(c.dof_limits[3].bounded);
  EXPECT_EQ(c.dof_limits[3].lower, -std::numeric_limits<double>::infinity());
  EXPECT_EQ(c.dof_limits[3].upper, std::numeric_limits<double>::infinity());
  EXPECT_EQ(c.dof_limits[3].max_velocity, 3.0);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(c.dof_limits[i].bounded) << i;
  // j2's axis "0 0 2" is stored normalised.
  ASSERT_EQ(c.joints.size(), 4u);
  EXPECT_EQ(c.joints[1].name, "j2");
  EXPECT_NEAR((c.joints[1].axis - Eigen::Vector3d::UnitZ()).norm(), 0.0, 1e-15);
  EXPECT_TRUE(c.mimics.empty());
}

TEST(QuirksChainTest, FingerRightChainFollowsFingerLeft) {
  const auto model = Load("quirks.urdf");
  ASSERT_NE(model, nullptr);
  const auto right = ChainOf(*model, "base_link", "finger_right");
  ASSERT_NE(right, nullptr);
  EXPECT_EQ(right->dof_names,
            (std::vector<std::string>{"j1", "j2", "j3", "j4", "finger_left_joint"}));
  ASSERT_EQ(right->mimics.size(), 1u);
  EXPECT_EQ(right->mimics[0].joint, "finger_right_joint");
  EXPECT_EQ(right->mimics[0].dof_name, "finger_left_joint");
  EXPECT_EQ(right->mimics[0].multiplier, 1.0);
  EXPECT_EQ(right->mimics[0].offset, 0.0);
  EXPECT_EQ(right->dof_types[4], JointType::kPrismatic);
  // The DOF carries the master's limits (finger_left_joint: 0 .. 0.04 m, 0.1 m/s).
  EXPECT_EQ(right->dof_limits[4].lower, 0.0);
  EXPECT_EQ(right->dof_limits[4].upper, 0.04);
  EXPECT_EQ(right->dof_limits[4].max_velocity, 0.1);
  ASSERT_EQ(right->joints.size(), 5u);
  EXPECT_EQ(right->joints[4].name, "finger_right_joint");
  EXPECT_EQ(right->joints[4].dof, 4);

  const auto left = ChainOf(*model, "base_link", "finger_left");
  ASSERT_NE(left, nullptr);
  EXPECT_EQ(left->dof_names,
            (std::vector<std::string>{"j1", "j2", "j3", "j4", "finger_left_joint"}));
  EXPECT_TRUE(left->mimics.empty());

  const auto camera = ChainOf(*model, "base_link", "camera_link");
  ASSERT_NE(camera, nullptr);
  EXPECT_EQ(camera->dof_names, (std::vector<std::string>{"j1", "j2"}));

  // A chain that starts mid-tree.
  const auto sub = ChainOf(*model, "link2", "tool");
  ASSERT_NE(sub, nullptr);
  EXPECT_EQ(sub->dof_names, (std::vector<std::string>{"j3", "j4"}));
}

TEST(ChainErrorsTest, UnknownBaseOrTipIsNamed) {
  const auto model = Load("ur5.urdf");
  ASSERT_NE(model, nullptr);

  auto tip = model->Chain("base_link", "nope");
  ASSERT_FALSE(tip.ok());
  EXPECT_EQ(tip.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(Contains(tip.status(), "tip_link")) << tip.status();
  EXPECT_TRUE(Contains(tip.status(), "nope")) << tip.status();

  auto base = model->Chain("nowhere", "tool0");
  ASSERT_FALSE(base.ok());
  EXPECT_EQ(base.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(Contains(base.status(), "base_link")) << base.status();
  EXPECT_TRUE(Contains(base.status(), "nowhere")) << base.status();
}

TEST(ChainErrorsTest, TipMustBeBelowBase) {
  const auto model = Load("ur5.urdf");
  ASSERT_NE(model, nullptr);
  for (const auto& [base, tip] : std::vector<std::pair<std::string, std::string>>{
           {"tool0", "base_link"},      // reversed
           {"ee_link", "tool0"},        // siblings
           {"base_link", "base_link"},  // empty chain
       }) {
    auto chain = model->Chain(base, tip);
    ASSERT_FALSE(chain.ok()) << base << " -> " << tip;
    EXPECT_EQ(chain.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_TRUE(Contains(chain.status(), tip)) << chain.status();
  }
  auto reversed = model->Chain("tool0", "base_link");
  EXPECT_TRUE(Contains(reversed.status(), "not below")) << reversed.status();
}

TEST(ChainErrorsTest, ChainWithoutMovableJointIsRefused) {
  const auto model = Load("ur5.urdf");
  ASSERT_NE(model, nullptr);
  // wrist_3_link -> tool0 is one fixed joint.
  auto chain = model->Chain("wrist_3_link", "tool0");
  ASSERT_FALSE(chain.ok());
  EXPECT_EQ(chain.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(Contains(chain.status(), "no movable joint")) << chain.status();
}

// Link and joint names come from the request. A refusal quotes them like
// any request text (no raw '%', long names cut), so no message can act as
// a printf format downstream. Found by tests/fuzz/urdf_fuzzer
// (corpus/urdf_fuzzer/regression_unquoted_base_link.urdf).
TEST(ChainErrorsTest, RefusalsQuoteTheNamesTheyMention) {
  auto no_percent = [](const absl::Status& status) {
    return !status.ok() && std::string(status.message()).find('%') == std::string::npos;
  };
  // No movable joint at all: the default chain has nothing to compute.
  auto lone = RobotModel::FromUrdf(
      R"(<robot name="r"><link name="base%n%s"><visual><geometry><sphere radius="0.1"/>)"
      R"(</geometry></visual></link></robot>)");
  ASSERT_FALSE(lone.ok());
  EXPECT_TRUE(no_percent(lone.status())) << lone.status();
  EXPECT_TRUE(Contains(lone.status(), "'base\\x25n\\x25s'")) << lone.status();

  auto fixed_only = RobotModel::FromUrdf(R"(<robot name="r">
  <link name="a%s"/><link name="b%n"/><link name="c"/><link name="d"/>
  <joint name="f%p" type="fixed"><parent link="a%s"/><child link="b%n"/></joint>
  <joint name="j" type="revolute"><parent link="a%s"/><child link="c"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" velocity="1" effort="1"/></joint>
  <joint name="fl%x" type="floating"><parent link="c"/><child link="d"/></joint></robot>)");
  ASSERT_TRUE(fixed_only.ok()) << fixed_only.status();
  const std::string long_name(10000, 'x');
  for (const auto& [base, tip] : std::vector<std::pair<std::string, std::string>>{
           {"a%s", "b%n"},    // no movable joint
           {"a%s", "d"},      // a floating joint on the way
           {"b%n", "a%s"},    // not below
           {"%s%s%s", "c"},   // unknown base
           {"a%s", "%n%n"},   // unknown tip
           {long_name, "c"},  // unknown and long
       }) {
    auto chain = (*fixed_only)->Chain(base, tip);
    EXPECT_TRUE(no_percent(chain.status())) << chain.status();
    EXPECT_LT(chain.status().message().size(), 400u) << base.size();
  }
}

// A standalone parallel gripper: every movable joint takes part in a mimic
// relation (q_right = -q_left, q_tip = 0.5 q_right). It is a valid URDF with
// one independent DOF, so it must load and its default chain must expose
// that DOF.
TEST(RobotModelTest, UrdfWithOnlyMimicJointsLoads) {
  constexpr char kGripper[] = R"(<?xml version="1.0"?>
<robot name="gripper">
  <link name="palm"/><link name="left"/><link name="right"/><link name="right_tip"/>
  <joint name="left_joint" type="prismatic">
    <parent link="palm"/><child link="left"/><axis xyz="0 1 0"/>
    <limit lower="0" upper="0.04" velocity="0.1" effort="1"/>
  </joint>
  <joint name="right_joint" type="prismatic">
    <parent link="palm"/><child link="right"/><axis xyz="0 1 0"/>
    <limit lower="-0.04" upper="0" velocity="0.1" effort="1"/>
    <mimic joint="left_joint" multiplier="-1"/>
  </joint>
  <joint name="right_tip_joint" type="prismatic">
    <parent link="right"/><child link="right_tip"/><axis xyz="0 0 1"/>
    <limit lower="0" upper="0.02" velocity="0.1" effort="1"/>
    <mimic joint="right_joint" multiplier="0.5"/>
  </joint>
</robot>)";
  auto model = RobotModel::FromUrdf(kGripper);
  ASSERT_TRUE(model.ok()) << model.status();
  auto chain = (*model)->Chain();
  ASSERT_TRUE(chain.ok()) << chain.status();
  EXPECT_EQ((*chain)->base_link, "palm");
  EXPECT_EQ((*chain)->dof_names, (std::vector<std::string>{"left_joint"}));
}

TEST(RobotModelTest, UrdfWithoutMovableJointsSaysSo) {
  auto model = RobotModel::FromUrdf(R"(<robot name="statue">
  <link name="a"/><link name="b"/>
  <joint name="weld" type="fixed"><parent link="a"/><child link="b"/></joint>
</robot>)");
  ASSERT_FALSE(model.ok());
  EXPECT_EQ(model.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(Contains(model.status(), "movable")) << model.status();
}

TEST(RobotModelTest, ChainsAreBuiltOnceAndShared) {
  const auto model = Load("ur5.urdf");
  ASSERT_NE(model, nullptr);
  auto a = model->Chain();
  auto b = model->Chain("base_link", "tool0");
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->get(), b->get());
  EXPECT_GT(model->memory_bytes(), 0u);
  EXPECT_EQ(model->urdf_bytes(), ReadRobotFile("ur5.urdf").size());
  const auto spec = ReadRobotSpec("ur5.urdf");
  EXPECT_EQ(model->link_names().size(), spec.links.size());
}

}  // namespace
}  // namespace motion
