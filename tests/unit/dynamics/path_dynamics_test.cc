// PathTorqueCoefficients: tau = a sdd + b sd^2 + c must be the torque of the motion
// qd = q' sd, qdd = q' sdd + q'' sd^2 along the path, judged by KDL's RNE on the test-side chain.

#include "core/dynamics/path_dynamics.h"

#include <algorithm>
#include <random>

#include <gtest/gtest.h>

#include "core/dynamics/inverse_dynamics.h"
#include "core/model/robot_model.h"
#include "independent_dynamics.h"
#include "unit_test_support.h"

namespace motion {
namespace {

Eigen::VectorXd Uniform(int n, double bound, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-bound, bound);
  Eigen::VectorXd v(n);
  for (int i = 0; i < n; ++i) v[i] = u(rng);
  return v;
}

class PathDynamicsTest : public ::testing::TestWithParam<const char*> {};

TEST_P(PathDynamicsTest, CoefficientsReproduceTheTorqueOfThePathMotion) {
  const std::string urdf = motion_test::ReadRobotFile(GetParam());
  const auto chain = motion_test::LoadChain(GetParam());
  ASSERT_NE(chain, nullptr);
  const motion_test::UrdfSpec spec = motion_test::ReadUrdfSpec(urdf);
  const motion_test::IndependentChain walk =
      motion_test::WalkChain(spec, chain->base_link, chain->tip_link);
  const KDL::Chain kdl =
      motion_test::IndependentKdlChain(spec, walk, motion_test::ReadInertials(urdf));
  Payload payload;
  payload.mass = 2.0;
  payload.center_of_mass = Eigen::Vector3d(0, 0.01, 0.05);
  payload.inertia = Eigen::Vector3d(0.004, 0.004, 0.002).asDiagonal();
  KDL::Chain kdl_with_payload = kdl;
  kdl_with_payload.addSegment(
      KDL::Segment("payload", KDL::Joint("payload", KDL::Joint::Fixed), KDL::Frame::Identity(),
                   motion_test::KdlInertia(payload.mass, payload.center_of_mass, payload.inertia)));

  DynamicsData data(*chain);
  Eigen::VectorXd a, b, c, tau;
  std::mt19937_64 rng(11);
  const int dof = chain->dof();
  double worst_kdl = 0, worst_rne = 0;
  for (int t = 0; t < 300; ++t) {
    const Eigen::VectorXd q = motion_test::RandomJoints(spec, walk, rng);
    const Eigen::VectorXd dq = Uniform(dof, 1.5, rng), d2q = Uniform(dof, 4.0, rng);
    const double sd = std::uniform_real_distribution<double>(0.0, 2.0)(rng);
    const double sdd = std::uniform_real_distribution<double>(-5.0, 5.0)(rng);
    PathTorqueCoefficients(*chain, data, q, dq, d2q, kDefaultGravity, payload, a, b, c);
    const Eigen::VectorXd from_coefficients = a * sdd + b * sd * sd + c;
    const Eigen::VectorXd qd = dq * sd, qdd = dq * sdd + d2q * sd * sd;
    const Eigen::VectorXd expected =
        motion_test::KdlInverseDynamics(kdl_with_payload, walk, q, qd, qdd, kDefaultGravity);
    const double scale = std::max(1.0, expected.lpNorm<Eigen::Infinity>());
    worst_kdl =
        std::max(worst_kdl, (from_coefficients - expected).lpNorm<Eigen::Infinity>() / scale);
    InverseDynamics(*chain, data, q, qd, qdd, kDefaultGravity, payload, tau);
    worst_rne = std::max(worst_rne, (from_coefficients - tau).lpNorm<Eigen::Infinity>() / scale);
    // c is the static gravity torque, a the inertia matrix times q'.
    const Eigen::VectorXd zero = Eigen::VectorXd::Zero(dof);
    const Eigen::VectorXd gravity_only =
        motion_test::KdlInverseDynamics(kdl_with_payload, walk, q, zero, zero, kDefaultGravity);
    EXPECT_LE((c - gravity_only).lpNorm<Eigen::Infinity>(),
              1e-9 * std::max(1.0, gravity_only.lpNorm<Eigen::Infinity>()));
  }
  std::printf("%s: a sdd + b sd^2 + c vs KDL RNE: %.3g, vs InverseDynamics: %.3g (relative)\n",
              GetParam(), worst_kdl, worst_rne);
  EXPECT_LE(worst_kdl, 1e-9);
  EXPECT_LE(worst_rne, 1e-9);
}

INSTANTIATE_TEST_SUITE_P(Dynamics, PathDynamicsTest,
                         ::testing::Values("ur5.urdf", "panda.urdf", "iiwa14.urdf"));

}  // namespace
}  // namespace motion
