// EffortAccelerations and the chain's accelerations it sets: judged against KDL's
// ChainIdSolver_RNE on the test-side chain (independent_dynamics.h) over random poses, and
// against the closed form of a two-link arm in a vertical plane.

#include "core/model/effort_acceleration.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <regex>
#include <string>

#include <gtest/gtest.h>

#include "core/dynamics/payload.h"
#include "core/model/robot_model.h"
#include "independent_dynamics.h"
#include "unit_test_support.h"

namespace motion {
namespace {

std::shared_ptr<const ChainModel> ChainOf(const std::string& urdf) {
  auto model = RobotModel::FromUrdf(urdf);
  EXPECT_TRUE(model.ok()) << model.status();
  if (!model.ok()) return nullptr;
  auto chain = (*model)->Chain();
  EXPECT_TRUE(chain.ok()) << chain.status();
  return chain.ok() ? *chain : nullptr;
}

class CompleteDynamicsTest : public ::testing::TestWithParam<const char*> {};

// The worst of 3 000 random poses by KDL: (effort - |g_i|) / M_ii, with M_ii the i-th torque of
// a unit acceleration of DOF i without gravity. The pose set of core is another sample of the
// same function: the two worst values agree within a few per cent.
TEST_P(CompleteDynamicsTest, WorstPoseAgreesWithKdlOverRandomPoses) {
  const std::string urdf = motion_test::ReadRobotFile(GetParam());
  const auto chain = ChainOf(urdf);
  ASSERT_NE(chain, nullptr);
  const auto spec = motion_test::ReadUrdfSpec(urdf);
  const auto walk = motion_test::WalkChain(spec, chain->base_link, chain->tip_link);
  const KDL::Chain kdl =
      motion_test::IndependentKdlChain(spec, walk, motion_test::ReadInertials(urdf));
  const int dof = chain->dof();
  std::vector<double> worst(dof, std::numeric_limits<double>::infinity());
  std::mt19937_64 rng(26);
  const Eigen::VectorXd rest = Eigen::VectorXd::Zero(dof);
  for (int t = 0; t < 3000; ++t) {  // not scaled: fewer poses miss the worst by more
    const Eigen::VectorXd q = motion_test::RandomJoints(spec, walk, rng);
    const Eigen::VectorXd g =
        motion_test::KdlInverseDynamics(kdl, walk, q, rest, rest, kDefaultGravity);
    for (int i = 0; i < dof; ++i) {
      Eigen::VectorXd unit = rest;
      unit[i] = 1.0;
      const double inertia =
          motion_test::KdlInverseDynamics(kdl, walk, q, rest, unit, Eigen::Vector3d::Zero())[i];
      worst[i] = std::min(worst[i], (chain->dof_limits[i].max_torque - std::abs(g[i])) / inertia);
    }
  }
  const std::vector<double> a = EffortAccelerations(*chain, chain->dof_limits, kDefaultGravity);
  ASSERT_EQ(static_cast<int>(a.size()), dof);
  for (int i = 0; i < dof; ++i) {
    SCOPED_TRACE(chain->dof_names[i]);
    EXPECT_GT(a[i], 0.0);
    EXPECT_NEAR(a[i] / worst[i], 1.0, 0.05) << a[i] << " against " << worst[i];
  }
}

// The chain's limits use them, capped at 10 x velocity, with the jerk that goes with them.
TEST_P(CompleteDynamicsTest, ChainAccelerationsComeFromEfforts) {
  const auto chain = motion_test::LoadChain(GetParam());
  ASSERT_NE(chain, nullptr);
  const std::vector<double> a = EffortAccelerations(*chain, chain->dof_limits, kDefaultGravity);
  const std::regex source(
      R"(effort: [0-9]+\.[0-9] rad/s\^2 in the worst pose( \(URDF inertials and efforts, no )"
      R"(payload\)|, capped at 10 x max_velocity per second))");
  for (int i = 0; i < chain->dof(); ++i) {
    const JointLimits& l = chain->dof_limits[i];
    SCOPED_TRACE(chain->dof_names[i]);
    EXPECT_TRUE(std::regex_match(l.acceleration_source, source)) << l.acceleration_source;
    EXPECT_DOUBLE_EQ(l.max_acceleration, std::min(a[i], 10.0 * l.max_velocity));
    EXPECT_EQ(l.acceleration_source.find("capped") != std::string::npos,
              a[i] > 10.0 * l.max_velocity);
    EXPECT_DOUBLE_EQ(l.max_jerk, 10.0 * l.max_acceleration);
    EXPECT_EQ(l.jerk_source, "default: 10 x max_acceleration per second");
  }
}

INSTANTIATE_TEST_SUITE_P(Robots, CompleteDynamicsTest,
                         ::testing::Values("ur5.urdf", "ur5e.urdf", "ur10.urdf", "panda.urdf",
                                           "iiwa14.urdf"));

// Two links in the vertical x-z plane about y, point masses at their ends (inertias 1e-6): the
// worst pose of either joint is its part of the arm stretched horizontally, where
//   a1 = (tau1 - g (m1 l1 + m2 (l1 + l2))) / (m1 l1^2 + m2 (l1 + l2)^2),
//   a2 = (tau2 - g m2 l2) / (m2 l2^2),
// and no pose gives less. The sampled poses come near it, never below it.
TEST(EffortAccelerationTest, TwoLinkArmMatchesItsClosedForm) {
  const double l1 = 0.5, l2 = 0.3, m1 = 4.0, m2 = 2.0, tau1 = 120.0, tau2 = 30.0, g = 9.81;
  const std::string urdf = R"(<robot name="two_link">
  <link name="base"/>
  <link name="upper"><inertial><origin xyz="0.5 0 0"/><mass value="4"/>
    <inertia ixx="1e-6" iyy="1e-6" izz="1e-6" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="fore"><inertial><origin xyz="0.3 0 0"/><mass value="2"/>
    <inertia ixx="1e-6" iyy="1e-6" izz="1e-6" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="tip"/>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="upper"/>
    <axis xyz="0 1 0"/><limit lower="-3.1416" upper="3.1416" velocity="4" effort="120"/></joint>
  <joint name="elbow" type="revolute"><parent link="upper"/><child link="fore"/>
    <origin xyz="0.5 0 0"/><axis xyz="0 1 0"/>
    <limit lower="-3.1416" upper="3.1416" velocity="3" effort="30"/></joint>
  <joint name="flange" type="fixed"><parent link="fore"/><child link="tip"/>
    <origin xyz="0.3 0 0"/></joint>
</robot>)";
  const auto chain = ChainOf(urdf);
  ASSERT_NE(chain, nullptr);
  const std::vector<double> a = EffortAccelerations(*chain, chain->dof_limits, kDefaultGravity);
  const double i1 = m1 * l1 * l1 + m2 * (l1 + l2) * (l1 + l2) + 2e-6, i2 = m2 * l2 * l2 + 1e-6;
  const double a1 = (tau1 - g * (m1 * l1 + m2 * (l1 + l2))) / i1, a2 = (tau2 - g * m2 * l2) / i2;
  ASSERT_EQ(a.size(), 2u);
  EXPECT_GE(a[0], a1 * (1 - 1e-9));
  EXPECT_LE(a[0], a1 * 1.03);
  EXPECT_GE(a[1], a2 * (1 - 1e-9));
  EXPECT_LE(a[1], a2 * 1.03);
  // With gravity along the shoulder's axis nothing needs holding: tau / M at the stretched pose.
  const std::vector<double> sideways =
      EffortAccelerations(*chain, chain->dof_limits, Eigen::Vector3d(0, -9.81, 0));
  EXPECT_NEAR(sideways[0], tau1 / i1, 1e-9 * tau1 / i1);
  EXPECT_NEAR(sideways[1], tau2 / i2, 1e-9 * tau2 / i2);
  // The chain took them: the shoulder's 37 rad/s^2 as it is, the elbow's 134 capped at 10 x 3.
  EXPECT_DOUBLE_EQ(chain->dof_limits[0].max_acceleration, a[0]);
  EXPECT_DOUBLE_EQ(chain->dof_limits[1].max_acceleration, 30.0);
  EXPECT_NE(chain->dof_limits[1].acceleration_source.find("capped"), std::string::npos);
}

// A vertical lift (prismatic along z) of 10 kg with 300 N: (300 - 10 g) / 10 in every pose. With
// a mimic joint on it that lifts a second 5 kg carriage by twice the DOF (3 x the DOF in all):
// gravity exactly 10 g + 3 * 5 g = 25 g (the generalized force), inertia the Cauchy-Schwarz
// bound (sqrt(15) + 2 sqrt(5))^2 = 69.6 over the joints' own (15 and 5), above the exact
// 10 + 9 * 5 = 55.
TEST(EffortAccelerationTest, PrismaticLiftAndItsMimic) {
  const std::string lift = R"(<robot name="lift">
  <link name="base"/>
  <link name="carriage"><inertial><mass value="10"/>
    <inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="z" type="prismatic"><parent link="base"/><child link="carriage"/>
    <axis xyz="0 0 1"/><limit lower="0" upper="1" velocity="0.5" effort="300"/></joint>
)";
  const auto single = ChainOf(lift + "</robot>");
  ASSERT_NE(single, nullptr);
  const double a = (300.0 - 10 * 9.81) / 10.0;
  EXPECT_NEAR(EffortAccelerations(*single, single->dof_limits, kDefaultGravity)[0], a, 1e-12);
  EXPECT_DOUBLE_EQ(single->dof_limits[0].max_acceleration, 5.0);  // capped at 10 x 0.5 m/s
  const auto coupled = ChainOf(lift + R"(
  <link name="upper"><inertial><mass value="5"/>
    <inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="z2" type="prismatic"><parent link="carriage"/><child link="upper"/>
    <axis xyz="0 0 1"/><limit lower="0" upper="2" velocity="1" effort="300"/>
    <mimic joint="z" multiplier="2"/></joint>
</robot>)");
  ASSERT_NE(coupled, nullptr);
  ASSERT_EQ(coupled->dof(), 1);
  const double root = std::sqrt(15.0) + 2.0 * std::sqrt(5.0);
  EXPECT_NEAR(EffortAccelerations(*coupled, coupled->dof_limits, kDefaultGravity)[0],
              (300.0 - 25 * 9.81) / (root * root), 1e-12);
  EXPECT_GT(root * root, 55.0);
}

// Nothing derived: EffortAccelerations says 0 everywhere and the chain keeps the documented
// 2 x velocity (and 10 x that for jerk).
void ExpectDocumentedDefaults(const ChainModel& chain) {
  for (double a : EffortAccelerations(chain, chain.dof_limits, kDefaultGravity)) {
    EXPECT_EQ(a, 0.0);
  }
  for (const JointLimits& l : chain.dof_limits) {
    EXPECT_EQ(l.acceleration_source, "default: 2 x max_velocity per second");
    EXPECT_DOUBLE_EQ(l.max_acceleration, 2.0 * l.max_velocity);
    EXPECT_DOUBLE_EQ(l.max_jerk, 10.0 * l.max_acceleration);
  }
}

// Efforts that cannot hold the arm somewhere (1 N*m on a UR5) are placeholders.
TEST(EffortAccelerationTest, PlaceholderEffortsKeepTheDefaults) {
  std::string urdf = motion_test::ReadRobotFile("ur5.urdf");
  urdf = std::regex_replace(urdf, std::regex(R"(effort="[0-9.]+")"), R"(effort="1")");
  const auto chain = ChainOf(urdf);
  ASSERT_NE(chain, nullptr);
  ExpectDocumentedDefaults(*chain);
}

// Without inertials (the FANUC, r820 and IRB 2400 files) or without efforts (IRB 120).
TEST(EffortAccelerationTest, MissingDataKeepsTheDefaults) {
  for (const char* file : {"fanuc_lrmate200id.urdf", "abb_irb120.urdf", "kuka_iiwa14_r820.urdf"}) {
    SCOPED_TRACE(file);
    const auto chain = motion_test::LoadChain(file);
    ASSERT_NE(chain, nullptr);
    ExpectDocumentedDefaults(*chain);
  }
}

}  // namespace
}  // namespace motion
