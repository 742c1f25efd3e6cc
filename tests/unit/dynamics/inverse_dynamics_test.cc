// motion::InverseDynamics against KDL's ChainIdSolver_RNE on a chain built test-side from the
// URDF text (independent_dynamics.h), and against the textbook dynamics of a planar 2R arm.

#include "core/dynamics/inverse_dynamics.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "core/model/robot_model.h"
#include "independent_dynamics.h"
#include "unit_test_support.h"

namespace motion {
namespace {

using motion_test::IndependentKdlChain;
using motion_test::KdlInverseDynamics;
using motion_test::ReadInertials;
using motion_test::ReadUrdfSpec;
using motion_test::WalkChain;

constexpr double kRelativeTolerance = 1e-9;

// |a - b|_inf relative to the size of the reference torques (1 N*m floor, so joints that carry
// almost nothing are not judged against round-off).
double RelativeDifference(const Eigen::VectorXd& a, const Eigen::VectorXd& reference) {
  return (a - reference).lpNorm<Eigen::Infinity>() /
         std::max(1.0, reference.lpNorm<Eigen::Infinity>());
}

Eigen::VectorXd Uniform(int n, double bound, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-bound, bound);
  Eigen::VectorXd v(n);
  for (int i = 0; i < n; ++i) v[i] = u(rng);
  return v;
}

struct Reference {
  std::shared_ptr<const ChainModel> chain;
  motion_test::UrdfSpec spec;
  motion_test::IndependentChain walk;
  KDL::Chain kdl;
};

Reference Load(const std::string& urdf, const std::string& base = "", const std::string& tip = "") {
  Reference r;
  auto model = RobotModel::FromUrdf(urdf);
  EXPECT_TRUE(model.ok()) << model.status();
  if (!model.ok()) return r;
  auto chain = (*model)->Chain(base, tip);
  EXPECT_TRUE(chain.ok()) << chain.status();
  if (!chain.ok()) return r;
  r.chain = *chain;
  r.spec = ReadUrdfSpec(urdf);
  r.walk = WalkChain(r.spec, r.chain->base_link, r.chain->tip_link);
  r.kdl = IndependentKdlChain(r.spec, r.walk, ReadInertials(urdf));
  return r;
}

// Random q (within limits), qd, qdd and gravity directions; returns the worst relative difference.
double WorstAgainstKdl(const Reference& r, int trials, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  DynamicsData data(*r.chain);
  Eigen::VectorXd tau;
  double worst = 0;
  const int dof = r.chain->dof();
  for (int t = 0; t < trials; ++t) {
    const Eigen::VectorXd q = motion_test::RandomJoints(r.spec, r.walk, rng);
    const Eigen::VectorXd qd = Uniform(dof, 2.0, rng), qdd = Uniform(dof, 5.0, rng);
    const Eigen::Vector3d gravity =
        t % 2 == 0 ? kDefaultGravity : Eigen::Vector3d(Uniform(3, 10.0, rng));
    InverseDynamics(*r.chain, data, q, qd, qdd, gravity, Payload{}, tau);
    const Eigen::VectorXd expected = KdlInverseDynamics(r.kdl, r.walk, q, qd, qdd, gravity);
    worst = std::max(worst, RelativeDifference(tau, expected));
  }
  return worst;
}

class BundledRobotTest : public ::testing::TestWithParam<const char*> {};

TEST_P(BundledRobotTest, MatchesKdlRneAtRandomStates) {
  const Reference r = Load(motion_test::ReadRobotFile(GetParam()));
  ASSERT_NE(r.chain, nullptr);
  ASSERT_EQ(static_cast<int>(r.kdl.getNrOfJoints()), r.chain->dof());
  const double worst = WorstAgainstKdl(r, 500, 26);
  RecordProperty("max_relative_difference", std::to_string(worst));
  std::printf("%s: max relative difference vs KDL RNE over 500 states: %.3g\n", GetParam(), worst);
  EXPECT_LE(worst, kRelativeTolerance);
}

INSTANTIATE_TEST_SUITE_P(Dynamics, BundledRobotTest,
                         ::testing::Values("ur5.urdf", "ur5e.urdf", "ur10.urdf", "panda.urdf",
                                           "iiwa14.urdf", "abb_irb120.urdf"));

TEST(InverseDynamicsTest, AtRestWithoutGravityIsZero) {
  const auto chain = motion_test::LoadChain("ur5.urdf");
  ASSERT_NE(chain, nullptr);
  DynamicsData data(*chain);
  Eigen::VectorXd tau;
  const Eigen::VectorXd q = motion_test::Vec({0.3, -1.2, 1.5, 0.2, -0.4, 0.9});
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(6);
  InverseDynamics(*chain, data, q, zero, zero, Eigen::Vector3d::Zero(), Payload{}, tau);
  EXPECT_LT(tau.lpNorm<Eigen::Infinity>(), 1e-12);
}

// Revolute with a non-unit axis, a prismatic joint, a mimic joint with multiplier and offset, an
// inertial origin with rpy and off-diagonal inertia, a fixed link with mass after the last joint
// and a side branch on a joint whose limits exclude 0 (at rest at its lower limit, 0.3): what the
// bundled robots do not exercise.
constexpr char kMixedUrdf[] = R"(<?xml version="1.0"?>
<robot name="mixed">
  <link name="base"/>
  <link name="a">
    <inertial><origin xyz="0.05 0.02 0.3" rpy="0.3 -0.5 1.1"/><mass value="3.5"/>
      <inertia ixx="0.05" iyy="0.04" izz="0.03" ixy="0.004" ixz="-0.003" iyz="0.002"/></inertial>
  </link>
  <link name="b">
    <inertial><origin xyz="0.0 0.1 0.05" rpy="1.2 0.1 -0.7"/><mass value="2.0"/>
      <inertia ixx="0.02" iyy="0.025" izz="0.015" ixy="0.001" ixz="0.002" iyz="-0.001"/></inertial>
  </link>
  <link name="c">
    <inertial><origin xyz="0.2 0.0 0.0" rpy="0 0.4 0"/><mass value="1.2"/>
      <inertia ixx="0.004" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <link name="tool">
    <inertial><origin xyz="0 0 0.08" rpy="0 0 0"/><mass value="0.7"/>
      <inertia ixx="0.001" iyy="0.001" izz="0.0005" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <joint name="j1" type="revolute">
    <parent link="base"/><child link="a"/>
    <origin xyz="0 0 0.4" rpy="0.1 0.2 0.3"/><axis xyz="0 2 0.5"/>
    <limit lower="-2" upper="2" velocity="2" effort="100"/>
  </joint>
  <joint name="j2" type="prismatic">
    <parent link="a"/><child link="b"/>
    <origin xyz="0.1 0 0.5" rpy="0 1.5707963 0"/><axis xyz="1 0 0"/>
    <limit lower="-0.3" upper="0.3" velocity="0.5" effort="500"/>
  </joint>
  <joint name="j3" type="revolute">
    <parent link="b"/><child link="c"/>
    <origin xyz="0 0.2 0.1" rpy="-0.4 0 0.2"/><axis xyz="0 0 1"/>
    <limit lower="-2" upper="2" velocity="2" effort="50"/>
    <mimic joint="j1" multiplier="-0.5" offset="0.2"/>
  </joint>
  <link name="camera">
    <inertial><origin xyz="0.03 0 0.02" rpy="0.2 0 0"/><mass value="0.9"/>
      <inertia ixx="0.002" iyy="0.003" izz="0.002" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <joint name="camera_tilt" type="revolute">
    <parent link="b"/><child link="camera"/>
    <origin xyz="0.05 -0.1 0.02" rpy="0 0 0.5"/><axis xyz="0 1 0"/>
    <limit lower="0.3" upper="1.0" velocity="1" effort="5"/>
  </joint>
  <joint name="flange" type="fixed">
    <parent link="c"/><child link="tool"/>
    <origin xyz="0.3 0 0" rpy="0 0.3 0"/>
  </joint>
</robot>)";

TEST(InverseDynamicsTest, PrismaticMimicAndRotatedInertialsMatchKdl) {
  const Reference r = Load(kMixedUrdf, "base", "tool");
  ASSERT_NE(r.chain, nullptr);
  ASSERT_EQ(r.chain->dof(), 2);  // j3 follows j1
  ASSERT_EQ(r.chain->bodies.size(), 3u);
  EXPECT_DOUBLE_EQ(r.chain->bodies[1].mass, 2.0 + 0.9);  // link b carries the camera branch
  EXPECT_DOUBLE_EQ(r.chain->bodies[2].mass, 1.2 + 0.7);  // link c and the fixed tool
  const double worst = WorstAgainstKdl(r, 500, 7);
  std::printf("mixed chain: max relative difference vs KDL RNE: %.3g\n", worst);
  EXPECT_LE(worst, kRelativeTolerance);
}

TEST(InverseDynamicsTest, PayloadEqualsAnExtraFixedBodyAtTheTip) {
  Reference r = Load(motion_test::ReadRobotFile("ur5.urdf"));
  ASSERT_NE(r.chain, nullptr);
  Payload payload;
  payload.mass = 5.0;
  payload.center_of_mass = Eigen::Vector3d(0.02, -0.03, 0.12);
  payload.inertia << 0.03, 0.002, -0.001, 0.002, 0.025, 0.003, -0.001, 0.003, 0.02;
  // The same payload as one more KDL segment fixed to the tip link (tip frame = flange).
  KDL::Chain with_payload = r.kdl;
  with_payload.addSegment(
      KDL::Segment("payload", KDL::Joint("payload", KDL::Joint::Fixed), KDL::Frame::Identity(),
                   motion_test::KdlInertia(payload.mass, payload.center_of_mass, payload.inertia)));
  std::mt19937_64 rng(3);
  DynamicsData data(*r.chain);
  Eigen::VectorXd tau;
  double worst = 0;
  for (int t = 0; t < 200; ++t) {
    const Eigen::VectorXd q = motion_test::RandomJoints(r.spec, r.walk, rng);
    const Eigen::VectorXd qd = Uniform(6, 2.0, rng), qdd = Uniform(6, 5.0, rng);
    InverseDynamics(*r.chain, data, q, qd, qdd, kDefaultGravity, payload, tau);
    const Eigen::VectorXd expected =
        KdlInverseDynamics(with_payload, r.walk, q, qd, qdd, kDefaultGravity);
    worst = std::max(worst, RelativeDifference(tau, expected));
    // And the payload matters: without it the torques differ.
    Eigen::VectorXd bare;
    InverseDynamics(*r.chain, data, q, qd, qdd, kDefaultGravity, Payload{}, bare);
    EXPECT_GT((bare - tau).norm(), 1e-3);
  }
  std::printf("ur5 + 5 kg payload: max relative difference vs KDL RNE: %.3g\n", worst);
  EXPECT_LE(worst, kRelativeTolerance);
}

// A planar 2R arm in the x-y plane (joints about z, gravity along -y), the textbook's dynamics
// (e.g. Spong, Hutchinson & Vidyasagar, Robot Modeling and Control, 7.4.2). Link 2's inertia is
// given about a rotated inertial frame (rpy about x turns its iyy into the link's izz), and a
// point-ish tool mass is fixed at its end, folded into link 2 by hand here.
constexpr char kPlanar2rUrdf[] = R"(<?xml version="1.0"?>
<robot name="planar_2r_dynamics">
  <link name="base"/>
  <link name="link1">
    <inertial><origin xyz="0.25 0 0" rpy="0 0 0"/><mass value="2.0"/>
      <inertia ixx="0.001" iyy="0.04" izz="0.05" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <link name="link2">
    <inertial><origin xyz="0.15 0 0" rpy="1.5707963267948966 0 0"/><mass value="1.5"/>
      <inertia ixx="0.02" iyy="0.03" izz="0.001" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <link name="tool">
    <inertial><origin xyz="0 0 0" rpy="0 0 0"/><mass value="0.5"/>
      <inertia ixx="1e-6" iyy="1e-6" izz="1e-6" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <joint name="shoulder" type="revolute">
    <parent link="base"/><child link="link1"/><origin xyz="0 0 0"/><axis xyz="0 0 1"/>
    <limit lower="-3.14" upper="3.14" velocity="2" effort="100"/>
  </joint>
  <joint name="elbow" type="revolute">
    <parent link="link1"/><child link="link2"/><origin xyz="0.5 0 0"/><axis xyz="0 0 1"/>
    <limit lower="-3.14" upper="3.14" velocity="2" effort="100"/>
  </joint>
  <joint name="tool_joint" type="fixed">
    <parent link="link2"/><child link="tool"/><origin xyz="0.4 0 0"/>
  </joint>
</robot>)";

Eigen::Vector2d Textbook2r(const Eigen::Vector2d& q, const Eigen::Vector2d& qd,
                           const Eigen::Vector2d& qdd, double g) {
  const double m1 = 2.0, l1 = 0.5, lc1 = 0.25, I1 = 0.05;
  // Link 2 with the tool folded in: mass, centre and inertia about it along z.
  const double mb = 1.5, lcb = 0.15, Ib = 0.03 /* iyy rotated onto z */, mt = 0.5, lt = 0.4,
               It = 1e-6;
  const double m2 = mb + mt, lc2 = (mb * lcb + mt * lt) / m2;
  const double I2 = Ib + mb * (lcb - lc2) * (lcb - lc2) + It + mt * (lt - lc2) * (lt - lc2);
  const double c2 = std::cos(q[1]), s2 = std::sin(q[1]);
  const double d11 = m1 * lc1 * lc1 + m2 * (l1 * l1 + lc2 * lc2 + 2 * l1 * lc2 * c2) + I1 + I2;
  const double d12 = m2 * (lc2 * lc2 + l1 * lc2 * c2) + I2;
  const double d22 = m2 * lc2 * lc2 + I2;
  const double h = -m2 * l1 * lc2 * s2;
  const double g1 =
      (m1 * lc1 + m2 * l1) * g * std::cos(q[0]) + m2 * lc2 * g * std::cos(q[0] + q[1]);
  const double g2 = m2 * lc2 * g * std::cos(q[0] + q[1]);
  return Eigen::Vector2d(d11 * qdd[0] + d12 * qdd[1] + h * (2 * qd[0] * qd[1] + qd[1] * qd[1]) + g1,
                         d12 * qdd[0] + d22 * qdd[1] - h * qd[0] * qd[0] + g2);
}

TEST(InverseDynamicsTest, Planar2rMatchesTheTextbookFormula) {
  auto model = RobotModel::FromUrdf(kPlanar2rUrdf);
  ASSERT_TRUE(model.ok()) << model.status();
  auto chain = (*model)->Chain("base", "tool");
  ASSERT_TRUE(chain.ok()) << chain.status();
  DynamicsData data(**chain);
  std::mt19937_64 rng(2);
  Eigen::VectorXd tau;
  double worst = 0;
  for (int t = 0; t < 1000; ++t) {
    const Eigen::VectorXd q = Uniform(2, 3.0, rng), qd = Uniform(2, 3.0, rng),
                          qdd = Uniform(2, 8.0, rng);
    InverseDynamics(**chain, data, q, qd, qdd, Eigen::Vector3d(0, -9.81, 0), Payload{}, tau);
    const Eigen::Vector2d expected = Textbook2r(q, qd, qdd, 9.81);
    worst = std::max(worst, RelativeDifference(tau, expected));
  }
  std::printf("planar 2R: max relative difference vs textbook: %.3g\n", worst);
  EXPECT_LE(worst, kRelativeTolerance);
}

}  // namespace
}  // namespace motion
