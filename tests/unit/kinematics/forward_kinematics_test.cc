// ForwardKinematics and LinkPoses against independent truth: the closed
// forms of the synthetic robots, the test-side URDF FK (independent_fk.h) on
// every bundled robot, and the README reference table (KDL + a separate
// Python FK).

#include "core/kinematics/forward_kinematics.h"

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/model/robot_model.h"
#include "independent_fk.h"
#include "unit_test_support.h"

namespace motion {
namespace {

using motion_test::IndependentChain;
using motion_test::IndependentFk;
using motion_test::IndependentLinkPoses;
using motion_test::kPi;
using motion_test::LoadChain;
using motion_test::RandomJoints;
using motion_test::ReadRobotFile;
using motion_test::ReadRobotSpec;
using motion_test::RotationDistance;
using motion_test::RotX;
using motion_test::RotY;
using motion_test::RotZ;
using motion_test::Vec;
using motion_test::WalkChain;

Eigen::Isometry3d Fk(const ChainModel& chain, const Eigen::VectorXd& q) {
  ChainData data(chain);
  return ForwardKinematics(chain, data, q);
}

// ---------------------------------------------------------------- planar_2r

Eigen::Vector3d Planar2rTip(double q1, double q2) {
  return {0.1 * std::cos(q1) + 0.2 * std::cos(q1 + q2),
          0.1 * std::sin(q1) + 0.2 * std::sin(q1 + q2), 0.0};
}

TEST(Planar2rFkTest, MatchesClosedFormOnRandomJoints) {
  const auto chain = LoadChain("planar_2r.urdf");
  ASSERT_NE(chain, nullptr);
  ASSERT_EQ(chain->dof(), 2);
  ChainData data(*chain);
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> u(-2 * kPi, 2 * kPi);  // FK is defined beyond limits
  for (int i = 0; i < 2000; ++i) {
    const double q1 = u(rng), q2 = u(rng);
    const Eigen::Isometry3d t = ForwardKinematics(*chain, data, Vec({q1, q2}));
    EXPECT_LT((t.translation() - Planar2rTip(q1, q2)).norm(), 1e-12) << q1 << ", " << q2;
    EXPECT_LT((t.linear() - RotZ(q1 + q2)).norm(), 1e-12) << q1 << ", " << q2;
  }
}

TEST(Planar2rFkTest, WorkedValues) {
  const auto chain = LoadChain("planar_2r.urdf");
  ASSERT_NE(chain, nullptr);
  const double s = std::sqrt(0.5);
  struct Case {
    double q1, q2;
    Eigen::Vector3d p;
    double yaw;
  };
  const Case cases[] = {
      {0, 0, {0.3, 0, 0}, 0},
      {kPi / 2, 0, {0, 0.3, 0}, kPi / 2},
      {0, kPi / 2, {0.1, 0.2, 0}, kPi / 2},
      {kPi / 2, -kPi / 2, {0.2, 0.1, 0}, 0},
      {kPi / 4, kPi / 4, {0.1 * s, 0.1 * s + 0.2, 0}, kPi / 2},
      {0, 2.5, {0.1 + 0.2 * std::cos(2.5), 0.2 * std::sin(2.5), 0}, 2.5},
  };
  for (const Case& c : cases) {
    const Eigen::Isometry3d t = Fk(*chain, Vec({c.q1, c.q2}));
    EXPECT_LT((t.translation() - c.p).norm(), 1e-12) << c.q1 << ", " << c.q2;
    EXPECT_LT(RotationDistance(t.linear(), RotZ(c.yaw)), 1e-12) << c.q1 << ", " << c.q2;
  }
  // The README prints (pi/4, pi/4) rounded to 7 digits.
  const Eigen::Isometry3d t = Fk(*chain, Vec({kPi / 4, kPi / 4}));
  EXPECT_NEAR(t.translation().x(), 0.0707107, 5e-8);
  EXPECT_NEAR(t.translation().y(), 0.2707107, 5e-8);
}

// ------------------------------------------------------------------- quirks

// Frame of link4 (after j4) in base_link, from the quirks.urdf header.
Eigen::Isometry3d QuirksLink4(const Eigen::VectorXd& q) {
  Eigen::Isometry3d t = Eigen::Isometry3d::Identity();
  t.translation() << 0.3 * std::cos(q[0]) + (0.2 + q[2]) * std::cos(q[0] + q[1]),
      0.3 * std::sin(q[0]) + (0.2 + q[2]) * std::sin(q[0] + q[1]), 0.5;
  t.linear() = RotZ(q[0] + q[1] + q[3]);
  return t;
}

TEST(QuirksFkTest, ToolMatchesClosedFormOnRandomJoints) {
  const auto chain = LoadChain("quirks.urdf");
  ASSERT_NE(chain, nullptr);
  ASSERT_EQ(chain->dof(), 4);
  ChainData data(*chain);
  std::mt19937_64 rng(2);
  std::uniform_real_distribution<double> angle(-2 * kPi, 2 * kPi);
  std::uniform_real_distribution<double> slide(-0.2, 0.3);
  for (int i = 0; i < 2000; ++i) {
    const Eigen::VectorXd q = Vec({angle(rng), angle(rng), slide(rng), angle(rng)});
    const Eigen::Isometry3d t = ForwardKinematics(*chain, data, q);
    const Eigen::Vector3d p(0.3 * std::cos(q[0]) + (0.2 + q[2]) * std::cos(q[0] + q[1]),
                            0.3 * std::sin(q[0]) + (0.2 + q[2]) * std::sin(q[0] + q[1]), 0.45);
    const Eigen::Matrix3d r = RotZ(q[0] + q[1] + q[3]) * RotX(kPi);
    EXPECT_LT((t.translation() - p).norm(), 1e-12) << q.transpose();
    EXPECT_LT((t.linear() - r).norm(), 1e-12) << q.transpose();
  }
}

TEST(QuirksFkTest, WorkedValues) {
  const auto chain = LoadChain("quirks.urdf");
  ASSERT_NE(chain, nullptr);
  struct Case {
    Eigen::VectorXd q;
    Eigen::Vector3d p;
    double yaw;  // R = Rz(yaw) * Rx(pi)
  };
  const Case cases[] = {
      {Vec({0, 0, 0, 0}), {0.5, 0, 0.45}, 0},
      {Vec({kPi / 2, 0, 0, 0}), {0, 0.5, 0.45}, kPi / 2},
      {Vec({0, kPi / 2, 0.1, 0}), {0.3, 0.3, 0.45}, kPi / 2},
      {Vec({0, 0, 0, kPi / 2}), {0.5, 0, 0.45}, kPi / 2},
  };
  for (const Case& c : cases) {
    const Eigen::Isometry3d t = Fk(*chain, c.q);
    EXPECT_LT((t.translation() - c.p).norm(), 1e-12) << c.q.transpose();
    EXPECT_LT(RotationDistance(t.linear(), RotZ(c.yaw) * RotX(kPi)), 1e-12) << c.q.transpose();
  }
}

TEST(QuirksFkTest, NonUnitAxisIsNormalised) {
  // j2 has axis "0 0 2": used un-normalised, q2 = pi/4 would turn by pi/2.
  const auto chain = LoadChain("quirks.urdf");
  ASSERT_NE(chain, nullptr);
  const Eigen::Isometry3d t = Fk(*chain, Vec({0, kPi / 4, 0, 0}));
  const Eigen::Vector3d p(0.3 + 0.2 * std::cos(kPi / 4), 0.2 * std::sin(kPi / 4), 0.45);
  EXPECT_LT((t.translation() - p).norm(), 1e-12);
  EXPECT_LT(RotationDistance(t.linear(), RotZ(kPi / 4) * RotX(kPi)), 1e-12);
  EXPECT_GT(RotationDistance(t.linear(), RotZ(kPi / 2) * RotX(kPi)), 0.7);
}

TEST(QuirksFkTest, CameraLinkMatchesClosedForm) {
  const auto chain = LoadChain("quirks.urdf", "base_link", "camera_link");
  ASSERT_NE(chain, nullptr);
  ASSERT_EQ(chain->dof(), 2);
  ChainData data(*chain);
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> angle(-kPi, kPi);
  for (int i = 0; i < 500; ++i) {
    const double q1 = angle(rng), q2 = angle(rng);
    const Eigen::Isometry3d t = ForwardKinematics(*chain, data, Vec({q1, q2}));
    const Eigen::Vector3d p =
        Eigen::Vector3d(0, 0, 0.5) +
        RotZ(q1) * (Eigen::Vector3d(0.3, 0, 0) + RotZ(q2) * Eigen::Vector3d(0.1, 0, 0.05));
    EXPECT_LT((t.translation() - p).norm(), 1e-12);
    EXPECT_LT((t.linear() - RotZ(q1 + q2) * RotY(kPi / 2)).norm(), 1e-12);
  }
  const Eigen::Isometry3d zero = Fk(*chain, Vec({0, 0}));
  EXPECT_LT((zero.translation() - Eigen::Vector3d(0.4, 0, 0.55)).norm(), 1e-12);
}

TEST(QuirksFkTest, MimicFingerMovesWithItsMaster) {
  // finger_right: link4 frame, then (0, 0, -0.05), then -Y by q (mimic of
  // finger_left_joint, multiplier 1, offset 0); finger_left the same along +Y.
  const auto right = LoadChain("quirks.urdf", "base_link", "finger_right");
  const auto left = LoadChain("quirks.urdf", "base_link", "finger_left");
  ASSERT_NE(right, nullptr);
  ASSERT_NE(left, nullptr);
  ASSERT_EQ(right->dof(), 5);
  ASSERT_EQ(left->dof(), 5);
  ChainData right_data(*right), left_data(*left);
  std::mt19937_64 rng(4);
  std::uniform_real_distribution<double> angle(-kPi, kPi);
  std::uniform_real_distribution<double> slide(0.0, 0.1);
  std::uniform_real_distribution<double> finger(-0.02, 0.06);
  for (int i = 0; i < 500; ++i) {
    const Eigen::VectorXd q = Vec({angle(rng), angle(rng), slide(rng), angle(rng), finger(rng)});
    const Eigen::Isometry3d link4 = QuirksLink4(q);
    const Eigen::Isometry3d r = ForwardKinematics(*right, right_data, q);
    const Eigen::Isometry3d l = ForwardKinematics(*left, left_data, q);
    EXPECT_LT((r.translation() - link4 * Eigen::Vector3d(0, -q[4], -0.05)).norm(), 1e-12);
    EXPECT_LT((l.translation() - link4 * Eigen::Vector3d(0, q[4], -0.05)).norm(), 1e-12);
    EXPECT_LT((r.linear() - link4.linear()).norm(), 1e-12);
    EXPECT_LT((l.linear() - link4.linear()).norm(), 1e-12);
    // The fingers are 2 q apart along link4's Y axis.
    EXPECT_NEAR((l.translation() - r.translation()).norm(), 2 * std::abs(q[4]), 1e-12);
  }
}

// A chain whose mimic master is on the chain itself (not a DOF), and a
// mimic of a mimic: q2 = -0.5 q1 + 0.3, q3 = 2 q2 + 0.1 = -q1 + 0.7.
// (The independent joint "arm" only gives the model a default chain; see
// RobotModelTest.UrdfWithOnlyMimicJointsLoads for why it is needed.)
constexpr char kMimicChainUrdf[] = R"(<?xml version="1.0"?>
<robot name="mimic_chain">
  <link name="base"/><link name="a"/><link name="b"/><link name="c"/><link name="arm_link"/>
  <joint name="arm" type="prismatic">
    <parent link="base"/><child link="arm_link"/><axis xyz="1 0 0"/>
    <limit lower="0" upper="1" velocity="1" effort="1"/>
  </joint>
  <joint name="j3" type="revolute">
    <parent link="b"/><child link="c"/><origin xyz="0.15 0 0"/><axis xyz="0 0 1"/>
    <limit lower="-3" upper="3" velocity="1" effort="1"/>
    <mimic joint="j2" multiplier="2" offset="0.1"/>
  </joint>
  <joint name="j1" type="revolute">
    <parent link="base"/><child link="a"/><axis xyz="0 0 1"/>
    <limit lower="-3" upper="3" velocity="1" effort="1"/>
  </joint>
  <joint name="j2" type="revolute">
    <parent link="a"/><child link="b"/><origin xyz="0.4 0 0"/><axis xyz="0 0 1"/>
    <limit lower="-3" upper="3" velocity="1" effort="1"/>
    <mimic joint="j1" multiplier="-0.5" offset="0.3"/>
  </joint>
</robot>)";

TEST(MimicFkTest, MimicOfMimicOnTheChain) {
  auto model = RobotModel::FromUrdf(kMimicChainUrdf);
  ASSERT_TRUE(model.ok()) << model.status();
  auto chain = (*model)->Chain("base", "c");
  ASSERT_TRUE(chain.ok()) << chain.status();
  ASSERT_EQ((*chain)->dof(), 1);
  EXPECT_EQ((*chain)->dof_names[0], "j1");
  ASSERT_EQ((*chain)->mimics.size(), 2u);
  ChainData data(**chain);
  for (double q1 = -3; q1 <= 3; q1 += 0.05) {
    const double a1 = q1, a2 = a1 + (-0.5 * q1 + 0.3), a3 = a2 + (-q1 + 0.7);
    const Eigen::Isometry3d t = ForwardKinematics(**chain, data, Vec({q1}));
    const Eigen::Vector3d p(0.4 * std::cos(a1) + 0.15 * std::cos(a2),
                            0.4 * std::sin(a1) + 0.15 * std::sin(a2), 0);
    EXPECT_LT((t.translation() - p).norm(), 1e-12) << q1;
    EXPECT_LT((t.linear() - RotZ(a3)).norm(), 1e-12) << q1;
  }
}

// ------------------------------------------ every robot vs independent FK

const char* const kAllRobots[] = {
    "ur5.urdf",         "ur5e.urdf",
    "ur10.urdf",        "panda.urdf",
    "iiwa14.urdf",      "kuka_iiwa14_r820.urdf",
    "abb_irb2400.urdf", "abb_irb120.urdf",
    "fanuc_m10ia.urdf", "fanuc_lrmate200id.urdf",
    "planar_2r.urdf",   "quirks.urdf",
};

class RobotFkTest : public ::testing::TestWithParam<const char*> {};

TEST_P(RobotFkTest, DefaultChainMatchesIndependentFk) {
  const std::string file = GetParam();
  const auto chain = LoadChain(file);
  ASSERT_NE(chain, nullptr);
  const auto spec = ReadRobotSpec(file);
  const IndependentChain reference = WalkChain(spec, chain->base_link, chain->tip_link);
  ASSERT_EQ(chain->dof_names, reference.dof_names);
  ChainData data(*chain);
  std::mt19937_64 rng(5);
  double worst_p = 0, worst_r = 0;
  for (int i = 0; i < 300; ++i) {
    const Eigen::VectorXd q = RandomJoints(spec, reference, rng, /*margin=*/0.5);
    const Eigen::Isometry3d expected = IndependentFk(reference, q);
    const Eigen::Isometry3d actual = ForwardKinematics(*chain, data, q);
    worst_p = std::max(worst_p, (actual.translation() - expected.translation()).norm());
    worst_r = std::max(worst_r, RotationDistance(actual.linear(), expected.linear()));
  }
  EXPECT_LT(worst_p, 1e-9);
  EXPECT_LT(worst_r, 1e-9);
}

TEST_P(RobotFkTest, EveryCandidateChainMatchesIndependentFk) {
  const std::string file = GetParam();
  auto model = RobotModel::FromUrdf(ReadRobotFile(file));
  ASSERT_TRUE(model.ok()) << model.status();
  const auto spec = ReadRobotSpec(file);
  std::mt19937_64 rng(6);
  for (const ChainCandidate& candidate : (*model)->default_chain().candidates) {
    if (candidate.dof == 0) continue;
    SCOPED_TRACE(candidate.base_link + " -> " + candidate.tip_link);
    auto chain = (*model)->Chain(candidate.base_link, candidate.tip_link);
    ASSERT_TRUE(chain.ok()) << chain.status();
    const IndependentChain reference = WalkChain(spec, candidate.base_link, candidate.tip_link);
    ASSERT_EQ((*chain)->dof_names, reference.dof_names);
    ChainData data(**chain);
    for (int i = 0; i < 100; ++i) {
      const Eigen::VectorXd q = RandomJoints(spec, reference, rng, 0.2);
      const Eigen::Isometry3d expected = IndependentFk(reference, q);
      const Eigen::Isometry3d actual = ForwardKinematics(**chain, data, q);
      ASSERT_LT((actual.translation() - expected.translation()).norm(), 1e-9) << q.transpose();
      ASSERT_LT(RotationDistance(actual.linear(), expected.linear()), 1e-9) << q.transpose();
    }
  }
}

TEST_P(RobotFkTest, LinkPosesMatchIndependentFkOfEachSubChain) {
  const std::string file = GetParam();
  const auto chain = LoadChain(file);
  ASSERT_NE(chain, nullptr);
  const auto spec = ReadRobotSpec(file);
  const IndependentChain full = WalkChain(spec, chain->base_link, chain->tip_link);
  ChainData data(*chain);
  std::mt19937_64 rng(7);
  for (int i = 0; i < 50; ++i) {
    const Eigen::VectorXd q = RandomJoints(spec, full, rng, 0.2);
    const Eigen::Isometry3d tip = ForwardKinematics(*chain, data, q);
    const std::vector<LinkPose> links = LinkPoses(*chain, data);
    std::vector<std::string> names;
    for (const LinkPose& l : links) names.push_back(l.link);
    ASSERT_EQ(names, full.links);  // every link base .. tip, in order
    for (const LinkPose& link : links) {
      // base -> link on its own; its DOF are a prefix of the full chain's.
      const IndependentChain sub = WalkChain(spec, chain->base_link, link.link);
      ASSERT_LE(sub.dof_names.size(), full.dof_names.size());
      for (std::size_t k = 0; k < sub.dof_names.size(); ++k) {
        ASSERT_EQ(sub.dof_names[k], full.dof_names[k]);
      }
      const Eigen::Isometry3d expected =
          IndependentFk(sub, q.head(static_cast<Eigen::Index>(sub.dof_names.size())));
      EXPECT_LT((link.pose.translation() - expected.translation()).norm(), 1e-9) << link.link;
      EXPECT_LT(RotationDistance(link.pose.linear(), expected.linear()), 1e-9) << link.link;
    }
    EXPECT_LT((links.back().pose.translation() - tip.translation()).norm(), 1e-12);
    EXPECT_LT((links.back().pose.linear() - tip.linear()).norm(), 1e-12);
  }
}

INSTANTIATE_TEST_SUITE_P(Robots, RobotFkTest, ::testing::ValuesIn(kAllRobots),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                           const std::string file = info.param;
                           return file.substr(0, file.find('.'));
                         });

TEST(LinkPosesTest, QuirksLinksIncludeFixedFrames) {
  const auto chain = LoadChain("quirks.urdf");
  ASSERT_NE(chain, nullptr);
  ChainData data(*chain);
  const Eigen::VectorXd q = Vec({0.3, -0.7, 0.05, 1.1});
  ForwardKinematics(*chain, data, q);
  const std::vector<LinkPose> links = LinkPoses(*chain, data);
  std::vector<std::string> names;
  for (const LinkPose& l : links) names.push_back(l.link);
  EXPECT_EQ(names, (std::vector<std::string>{"base_link", "link1", "link1b", "link2", "link3",
                                             "link4", "tool"}));
  // link1b sits 0.3 m along link1's X, which is rotated by q1 about Z at z 0.5.
  ASSERT_EQ(links.size(), 7u);
  EXPECT_LT((links[2].pose.translation() -
             Eigen::Vector3d(0.3 * std::cos(q[0]), 0.3 * std::sin(q[0]), 0.5))
                .norm(),
            1e-12);
  EXPECT_LT((links[5].pose.translation() - QuirksLink4(q).translation()).norm(), 1e-12);
  EXPECT_TRUE(links[0].pose.matrix() == Eigen::Matrix4d::Identity());
}

// -------------------------------------------- README reference FK table

struct ReferenceRow {
  const char* file;
  const char* base;
  const char* tip;
  bool ramp;  // false: q = 0; true: q_i = 0.1 (i + 1)
  Eigen::Vector3d p;
  double qx, qy, qz, qw;
};

// clang-format off
const ReferenceRow kReferenceTable[] = {
    {"ur5.urdf", "base_link", "tool0", false, {0.817250, 0.191450, -0.005491}, 0.000000, 0.707107, 0.707107, 0.000000},
    {"ur5.urdf", "base_link", "tool0", true, {0.689485, 0.251465, -0.273073}, -0.612823, -0.558768, -0.459866, 0.317411},
    {"ur5e.urdf", "base_link", "tool0", false, {0.817200, 0.232900, 0.062800}, 0.000000, -0.707107, -0.707107, 0.000000},
    {"ur5e.urdf", "base_link", "tool0", true, {0.686708, 0.290716, -0.209344}, -0.612823, -0.558768, -0.459866, 0.317411},
    {"ur10.urdf", "base_link", "tool0", false, {1.184300, 0.256141, 0.011600}, 0.000000, 0.707107, 0.707107, 0.000000},
    {"ur10.urdf", "base_link", "tool0", true, {1.009253, 0.347347, -0.375207}, -0.612823, -0.558768, -0.459866, 0.317411},
    {"panda.urdf", "panda_link0", "panda_link8", false, {0.088000, 0.000000, 0.926000}, 1.000000, 0.000000, 0.000000, 0.000000},
    {"panda.urdf", "panda_link0", "panda_link8", true, {0.085081, 0.063708, 0.975174}, -0.913841, -0.093363, -0.292862, 0.265348},
    {"panda.urdf", "panda_link0", "panda_hand_tcp", false, {0.088000, 0.000000, 0.822600}, 0.923880, 0.382683, 0.000000, 0.000000},
    {"panda.urdf", "panda_link0", "panda_hand_tcp", true, {0.135303, 0.119509, 0.904071}, -0.808550, -0.435968, -0.372114, 0.133076},
    {"iiwa14.urdf", "base", "iiwa_link_ee_kuka", false, {0.000000, 0.000000, 1.306000}, 0.000000, 0.000000, 0.000000, 1.000000},
    {"iiwa14.urdf", "base", "iiwa_link_ee_kuka", true, {0.041337, -0.004315, 1.278749}, -0.040929, 0.190039, 0.694648, 0.692585},
    {"iiwa14.urdf", "base", "iiwa_link_ee", false, {0.000000, 0.000000, 1.306000}, 0.000000, -0.707107, 0.000000, 0.707107},
    {"iiwa14.urdf", "base", "iiwa_link_ee", true, {0.041337, -0.004315, 1.278749}, 0.462249, -0.355354, 0.520132, 0.624110},
    {"kuka_iiwa14_r820.urdf", "base_link", "tool0", false, {0.000000, 0.000000, 1.306000}, 0.000000, 0.000000, 0.000000, 1.000000},
    {"kuka_iiwa14_r820.urdf", "base_link", "tool0", true, {0.041296, -0.004189, 1.278667}, -0.040929, 0.190039, 0.694648, 0.692585},
    {"abb_irb2400.urdf", "base_link", "tool0", false, {0.940000, 0.000000, 1.455000}, 0.000000, 0.707107, 0.000000, 0.707107},
    {"abb_irb2400.urdf", "base_link", "tool0", true, {1.008173, 0.117104, 0.993752}, 0.368777, 0.876432, 0.226578, 0.211028},
    {"abb_irb120.urdf", "base_link", "tool0", false, {0.374000, 0.000000, 0.630000}, 0.000000, 0.707107, 0.000000, 0.707107},
    {"abb_irb120.urdf", "base_link", "tool0", true, {0.389136, 0.052554, 0.413068}, 0.368777, 0.876432, 0.226578, 0.211028},
    {"fanuc_m10ia.urdf", "base_link", "tool0", false, {0.890000, 0.000000, 1.250000}, 0.707107, 0.000000, 0.707107, 0.000000},
    {"fanuc_m10ia.urdf", "base_link", "tool0", true, {0.962244, 0.115310, 1.353633}, 0.372758, 0.312344, 0.812752, 0.320823},
    {"fanuc_lrmate200id.urdf", "base_link", "tool0", false, {0.465000, 0.000000, 0.695000}, 0.707107, 0.000000, 0.707107, 0.000000},
    {"fanuc_lrmate200id.urdf", "base_link", "tool0", true, {0.507675, 0.065948, 0.763850}, 0.372758, 0.312344, 0.812752, 0.320823},
    {"planar_2r.urdf", "base_link", "tool", false, {0.300000, 0.000000, 0.000000}, 0.000000, 0.000000, 0.000000, 1.000000},
    {"planar_2r.urdf", "base_link", "tool", true, {0.290568, 0.069087, 0.000000}, 0.000000, 0.000000, 0.149438, 0.988771},
    {"quirks.urdf", "base_link", "tool", false, {0.500000, 0.000000, 0.450000}, 1.000000, 0.000000, 0.000000, 0.000000},
    {"quirks.urdf", "base_link", "tool", true, {0.776169, 0.177710, 0.450000}, 0.939373, 0.342898, 0.000000, 0.000000},
};
// clang-format on

TEST(ReferenceTableTest, MatchesKdlAndPythonReference) {
  for (const ReferenceRow& row : kReferenceTable) {
    SCOPED_TRACE(std::string(row.file) + " " + row.base + " -> " + row.tip +
                 (row.ramp ? " q_i = 0.1 (i+1)" : " q = 0"));
    const auto chain = LoadChain(row.file, row.base, row.tip);
    ASSERT_NE(chain, nullptr);
    Eigen::VectorXd q = Eigen::VectorXd::Zero(chain->dof());
    if (row.ramp) {
      for (int i = 0; i < chain->dof(); ++i) q[i] = 0.1 * (i + 1);
    }
    const Eigen::Isometry3d t = Fk(*chain, q);
    // The table is rounded to 1e-6 (error <= 5e-7).
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(t.translation()[k], row.p[k], 1e-6) << k;
    Eigen::Quaterniond actual(t.linear());
    const Eigen::Quaterniond expected(row.qw, row.qx, row.qy, row.qz);
    if (actual.dot(expected) < 0) actual.coeffs() = -actual.coeffs();  // q ~ -q
    EXPECT_NEAR(actual.x(), expected.x(), 1e-6);
    EXPECT_NEAR(actual.y(), expected.y(), 1e-6);
    EXPECT_NEAR(actual.z(), expected.z(), 1e-6);
    EXPECT_NEAR(actual.w(), expected.w(), 1e-6);
  }
}

}  // namespace
}  // namespace motion
