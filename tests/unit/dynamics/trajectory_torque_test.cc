// SampledTorqueRatio: torques of positions on a grid by central differences, checked on motions
// whose central differences are exact (constant acceleration) against KDL's RNE.

#include "core/dynamics/trajectory_torque.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "core/model/robot_model.h"
#include "independent_dynamics.h"
#include "unit_test_support.h"

namespace motion {
namespace {

struct Fixture {
  std::shared_ptr<const ChainModel> chain;
  motion_test::UrdfSpec spec;
  motion_test::IndependentChain walk;
  KDL::Chain kdl;
};

Fixture LoadUr5() {
  Fixture f;
  const std::string urdf = motion_test::ReadRobotFile("ur5.urdf");
  f.chain = motion_test::LoadChain("ur5.urdf");
  f.spec = motion_test::ReadUrdfSpec(urdf);
  f.walk = motion_test::WalkChain(f.spec, f.chain->base_link, f.chain->tip_link);
  f.kdl = motion_test::IndependentKdlChain(f.spec, f.walk, motion_test::ReadInertials(urdf));
  return f;
}

TEST(TrajectoryTorqueTest, InteriorSamplesOfAConstantAccelerationMotionMatchKdl) {
  const Fixture f = LoadUr5();
  ASSERT_NE(f.chain, nullptr);
  const int dof = 6;
  const double dt = 0.004;
  const int n = 200;
  const Eigen::VectorXd q0 = motion_test::Vec({0.1, -1.0, 1.2, -0.5, 0.7, 0.0});
  const Eigen::VectorXd v0 = motion_test::Vec({0.5, -0.3, 0.8, 1.0, -0.6, 1.5});
  const Eigen::VectorXd acc = motion_test::Vec({2.0, 3.0, -4.0, 5.0, 1.0, -2.0});
  std::vector<double> positions;
  for (int i = 0; i < n; ++i) {
    const double t = i * dt;
    const Eigen::VectorXd q = q0 + v0 * t + 0.5 * acc * t * t;
    positions.insert(positions.end(), q.data(), q.data() + dof);
  }
  DynamicsData data(*f.chain);
  std::vector<double> torques;
  const TorqueRatio worst = SampledTorqueRatio(*f.chain, data, f.chain->dof_limits, positions, dt,
                                               kDefaultGravity, Payload{}, 1, n - 2, &torques);
  ASSERT_EQ(torques.size(), static_cast<std::size_t>((n - 2) * dof));
  double max_difference = 0, expected_ratio = 0;
  int expected_dof = -1;
  std::int64_t expected_sample = -1;
  for (int i = 1; i < n - 1; ++i) {
    const double t = i * dt;
    const Eigen::VectorXd q = q0 + v0 * t + 0.5 * acc * t * t, qd = v0 + acc * t;
    const Eigen::VectorXd tau =
        motion_test::KdlInverseDynamics(f.kdl, f.walk, q, qd, acc, kDefaultGravity);
    for (int j = 0; j < dof; ++j) {
      // Central differences of a quadratic are exact up to round-off of q / dt^2 (~1e-10).
      max_difference = std::max(max_difference, std::abs(torques[(i - 1) * dof + j] - tau[j]));
      const double ratio = std::abs(tau[j]) / f.chain->dof_limits[j].max_torque;
      if (ratio > expected_ratio) {
        expected_ratio = ratio;
        expected_dof = j;
        expected_sample = i;
      }
    }
  }
  std::printf("ur5 sampled torque vs KDL: max |difference| %.3g N*m, worst ratio %.4f\n",
              max_difference, worst.ratio);
  EXPECT_LT(max_difference, 1e-6);
  EXPECT_NEAR(worst.ratio, expected_ratio, 1e-8);
  EXPECT_EQ(worst.dof, expected_dof);
  EXPECT_EQ(worst.sample, expected_sample);
  EXPECT_DOUBLE_EQ(worst.limit, f.chain->dof_limits[expected_dof].max_torque);
}

TEST(TrajectoryTorqueTest, AtRestTheTorqueIsTheStaticGravityTorque) {
  const Fixture f = LoadUr5();
  ASSERT_NE(f.chain, nullptr);
  // One sample: at rest before and after, so qd = qdd = 0 there.
  const Eigen::VectorXd q = motion_test::Vec({0.0, -0.4, 0.3, 0.0, 0.0, 0.0});
  const std::vector<double> positions(q.data(), q.data() + 6);
  DynamicsData data(*f.chain);
  const TorqueRatio worst = SampledTorqueRatio(*f.chain, data, f.chain->dof_limits, positions, 0.01,
                                               kDefaultGravity, Payload{});
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(6);
  const Eigen::VectorXd g =
      motion_test::KdlInverseDynamics(f.kdl, f.walk, q, zero, zero, kDefaultGravity);
  EXPECT_EQ(worst.sample, 0);
  EXPECT_EQ(worst.dof, 1);  // the shoulder lift carries the arm
  EXPECT_NEAR(worst.torque, g[1], 1e-9);
  EXPECT_NEAR(worst.ratio, std::abs(g[1]) / 150.0, 1e-12);
}

TEST(TrajectoryTorqueTest, JointsWithoutATorqueLimitAreSkipped) {
  const Fixture f = LoadUr5();
  ASSERT_NE(f.chain, nullptr);
  std::vector<JointLimits> limits = f.chain->dof_limits;
  for (JointLimits& l : limits) l.max_torque = 0;
  const std::vector<double> positions(12, 0.2);
  DynamicsData data(*f.chain);
  const TorqueRatio worst =
      SampledTorqueRatio(*f.chain, data, limits, positions, 0.01, kDefaultGravity, Payload{});
  EXPECT_EQ(worst.dof, -1);
  EXPECT_EQ(worst.ratio, 0.0);
}

TEST(TrajectoryTorqueTest, TorqueLimitErrorNamesTheJointAndTheSample) {
  const Fixture f = LoadUr5();
  ASSERT_NE(f.chain, nullptr);
  const TorqueRatio within{0.9, 1, 3, -135.0, 150.0};
  EXPECT_FALSE(TorqueLimitError(*f.chain, within, 100).has_value());
  const TorqueRatio beyond{1.2, 1, 3, -180.0, 150.0};
  const auto error = TorqueLimitError(*f.chain, beyond, 100);
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->severity, Severity::kError);
  EXPECT_EQ(error->code, DiagnosticCode::kTorqueLimit);
  EXPECT_EQ(error->joint_name, "shoulder_lift_joint");
  EXPECT_EQ(error->point_index, 103);
  EXPECT_EQ(error->value, 180.0);
  EXPECT_EQ(error->limit, 150.0);
  EXPECT_NE(error->message.find("shoulder_lift_joint"), std::string::npos) << error->message;
  EXPECT_FALSE(TorqueLimitError(*f.chain, beyond, 0, 0.25).has_value());   // within tolerance
  EXPECT_FALSE(TorqueLimitError(*f.chain, TorqueRatio{}, 0).has_value());  // no limits known
}

}  // namespace
}  // namespace motion
