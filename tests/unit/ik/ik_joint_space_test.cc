// The joint-space helpers of the IK (joint_space.h), against values worked
// out by hand and the published splitmix64 reference outputs.

#include "core/ik/joint_space.h"

#include <cmath>

#include <gtest/gtest.h>

#include "core/ik/internal/pose_error.h"
#include "core/ik/internal/reach_bound.h"
#include "ik_test_support.h"

namespace motion {
namespace {

using motion_test::ArmName;
using motion_test::ArmSpec;
using motion_test::BundledArms;
using motion_test::kPanda;
using motion_test::kPi;
using motion_test::kQuirks;
using motion_test::kTwoPi;
using motion_test::kUr5;
using motion_test::LoadTestChain;
using motion_test::RotationDistance;
using motion_test::RotAxis;
using motion_test::TestChain;
using motion_test::Vec;

// Vigna's splitmix64.c, x = 0: the first outputs.
TEST(IkSplitMix64Test, MatchesTheReferenceSequence) {
  SplitMix64 rng(0);
  EXPECT_EQ(rng.Next(), 0xe220a8397b1dcdafull);
  EXPECT_EQ(rng.Next(), 0x6e789e6aa1b965f4ull);
  EXPECT_EQ(rng.Next(), 0x06c45d188009454full);
}

TEST(IkSplitMix64Test, UniformStaysInItsHalfOpenRange) {
  SplitMix64 rng(7);
  double lo = 1.0, hi = 0.0;
  for (int i = 0; i < 100000; ++i) {
    const double u = rng.Uniform(-2.0, 3.0);
    ASSERT_GE(u, -2.0);
    ASSERT_LT(u, 3.0);
    lo = std::min(lo, u);
    hi = std::max(hi, u);
  }
  EXPECT_LT(lo, -1.99);
  EXPECT_GT(hi, 2.99);
}

TEST(IkJointSpaceTest, MidRangeIsTheMiddleOfTheUrdfLimits) {
  for (const ArmSpec& arm : {kUr5, kQuirks, kPanda}) {
    const TestChain c = LoadTestChain(arm);
    ASSERT_NE(c.model, nullptr);
    const Eigen::VectorXd mid = MidRangeConfiguration(*c.model);
    EXPECT_LE((mid - c.MidRange()).cwiseAbs().maxCoeff(), 1e-15) << arm.file;
  }
}

TEST(IkJointSpaceTest, RandomConfigurationIsWithinLimitsAndContinuousAroundTheCenter) {
  const TestChain c = LoadTestChain(kQuirks);
  ASSERT_NE(c.model, nullptr);
  const Eigen::VectorXd center = Vec({0.0, 0.0, 0.05, 20.0});
  SplitMix64 rng(3);
  Eigen::VectorXd q(4);
  for (int n = 0; n < 10000; ++n) {
    RandomConfiguration(*c.model, center, rng, q);
    for (int i = 0; i < 3; ++i) {
      ASSERT_GE(q[i], c.lower[i]);
      ASSERT_LE(q[i], c.upper[i]);
    }
    ASSERT_LE(std::abs(q[3] - 20.0), kPi);
  }
}

TEST(IkJointSpaceTest, EnforceLimitsMovesByWholeTurnsThenClamps) {
  const TestChain c = LoadTestChain(kUr5);  // +-2 pi except elbow +-pi
  ASSERT_NE(c.model, nullptr);
  const Eigen::VectorXd before = Vec({7.0, -7.5, 3.5, 20.0, -6.0, 0.4});
  Eigen::VectorXd q = before;
  EnforceLimits(*c.model, q);
  // Past a limit: some whole-turn equivalent inside the limits (which one is
  // the solver's business; the pose is the same).
  for (int i : {0, 1, 2, 3}) {
    EXPECT_NEAR(std::remainder(q[i] - before[i], kTwoPi), 0.0, 1e-12) << i;
    EXPECT_NE(q[i], before[i]) << i;
    EXPECT_GE(q[i], c.lower[i]) << i;
    EXPECT_LE(q[i], c.upper[i]) << i;
  }
  EXPECT_EQ(q[4], -6.0);  // inside: untouched
  EXPECT_EQ(q[5], 0.4);

  const TestChain quirks = LoadTestChain(kQuirks);
  ASSERT_NE(quirks.model, nullptr);
  Eigen::VectorXd r = Vec({-3.5, 2.5, 0.3, 40.0});
  EnforceLimits(*quirks.model, r);
  EXPECT_NEAR(r[0], -3.5 + kTwoPi, 1e-12);  // j1 +-pi
  EXPECT_EQ(r[1], 2.0);                     // j2 +-2: 2.5 - 2 pi < -2, no turn fits: clamped
  EXPECT_EQ(r[2], 0.1);                     // prismatic: clamped, never wrapped
  EXPECT_EQ(r[3], 40.0);                    // continuous: untouched
}

TEST(IkJointSpaceTest, NearestEquivalentPicksTheTurnNearestTheReferenceWithinLimits) {
  const TestChain c = LoadTestChain(kUr5);
  ASSERT_NE(c.model, nullptr);
  const Eigen::VectorXd reference = Vec({5.0, -5.0, 3.0, 0.0, 6.0, -1.0});
  Eigen::VectorXd q = Vec({-1.0, 1.0, -3.0, 6.0, -0.2, 4.0});
  NearestEquivalent(*c.model, reference, q);
  EXPECT_NEAR(q[0], -1.0 + kTwoPi, 1e-12);
  EXPECT_NEAR(q[1], 1.0 - kTwoPi, 1e-12);
  EXPECT_EQ(q[2], -3.0);  // -3 + 2 pi is nearer 3 but outside +-pi
  EXPECT_NEAR(q[3], 6.0 - kTwoPi, 1e-12);
  EXPECT_NEAR(q[4], -0.2 + kTwoPi, 1e-12);  // 6.083 < 2 pi
  EXPECT_NEAR(q[5], 4.0 - kTwoPi, 1e-12);

  const TestChain quirks = LoadTestChain(kQuirks);
  ASSERT_NE(quirks.model, nullptr);
  Eigen::VectorXd r = Vec({0.5, 0.5, 0.05, 0.7});
  NearestEquivalent(*quirks.model, Vec({0.0, 0.0, 0.0, 10.0}), r);
  EXPECT_EQ(r[2], 0.05);                   // prismatic: untouched
  EXPECT_NEAR(r[3], 0.7 + kTwoPi, 1e-12);  // continuous: nearest 10
  EXPECT_LE(std::abs(r[3] - 10.0), kPi);
}

TEST(IkJointSpaceTest, FirstJointOutsideLimits) {
  const TestChain c = LoadTestChain(kPanda);
  ASSERT_NE(c.model, nullptr);
  Eigen::VectorXd q = c.MidRange();
  EXPECT_EQ(FirstJointOutsideLimits(*c.model, q), -1);
  q[3] = c.upper[3] + 1e-9;  // panda_joint4 just above -0.0698
  EXPECT_EQ(FirstJointOutsideLimits(*c.model, q), 3);
  EXPECT_EQ(FirstJointOutsideLimits(*c.model, q, 1e-6), -1);
  q[1] = c.lower[1] - 0.1;
  EXPECT_EQ(FirstJointOutsideLimits(*c.model, q), 1);
  EXPECT_EQ(FirstJointOutsideLimits(*c.model, Eigen::VectorXd::Zero(7)), 3);  // q = 0 is outside
}

// ----------------------------------------------------------- pose error

TEST(IkPoseErrorTest, RotationVectorTakesCurrentToTarget) {
  std::mt19937_64 rng(61);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (double angle : {0.0, 1e-10, 1e-6, 0.3, 2.0, kPi - 1e-6, kPi - 1e-9}) {
    for (int n = 0; n < 20; ++n) {
      const Eigen::Vector3d axis = Eigen::Vector3d(u(rng), u(rng), u(rng)).normalized();
      Eigen::Isometry3d current = Eigen::Isometry3d::Identity(), target;
      current.linear() = RotAxis(Eigen::Vector3d(u(rng), u(rng), u(rng)).normalized(), 2 * u(rng));
      current.translation() = Eigen::Vector3d(u(rng), u(rng), u(rng));
      target = current;
      target.linear() = RotAxis(axis, angle) * current.linear();
      target.translation() += Eigen::Vector3d(0.1, -0.2, 0.3);
      const PoseError e = ComputePoseError(current, target);
      EXPECT_NEAR(e.position, std::sqrt(0.14), 1e-12);
      EXPECT_LT((e.vector.head<3>() - Eigen::Vector3d(0.1, -0.2, 0.3)).norm(), 1e-12);
      EXPECT_NEAR(e.rotation, angle, 1e-9) << angle;
      EXPECT_NEAR(e.rotation, std::abs(RotationDistance(current.linear(), target.linear())), 1e-9);
      // exp(vector) * R_current = R_target.
      const Eigen::Vector3d w = e.vector.tail<3>();
      const Eigen::Matrix3d back =
          (w.norm() > 0 ? RotAxis(w.normalized(), w.norm()) : Eigen::Matrix3d::Identity()) *
          current.linear();
      EXPECT_LT(std::abs(RotationDistance(back, target.linear())), 1e-8) << angle;
    }
  }
}

// ---------------------------------------------------------- reach bound

class IkReachBoundTest : public testing::TestWithParam<ArmSpec> {};

// The bound lets SolveIk give up without iterating, so it must be a true
// upper bound: no configuration puts the TCP farther from the center.
TEST_P(IkReachBoundTest, NoConfigurationReachesBeyondTheBound) {
  const TestChain c = LoadTestChain(GetParam());
  ASSERT_NE(c.model, nullptr);
  Eigen::Isometry3d tool = Eigen::Isometry3d::Identity();
  tool.translation() = Eigen::Vector3d(0.05, -0.02, 0.2);
  for (const Eigen::Isometry3d& t : {Eigen::Isometry3d::Identity(), tool}) {
    const ReachBound bound = ComputeReachBound(*c.model, t);
    std::mt19937_64 rng(62);
    double farthest = 0.0;
    for (int n = 0; n < 5000; ++n) {
      const Eigen::VectorXd q = c.Random(rng);
      farthest = std::max(farthest, ((c.Fk(q) * t).translation() - bound.center).norm());
      // The center does not move with the joints (first joint's origin).
    }
    EXPECT_LE(farthest, bound.radius) << GetParam().file;
    EXPECT_TRUE(std::isfinite(bound.radius));
  }
}

INSTANTIATE_TEST_SUITE_P(BundledArms, IkReachBoundTest, testing::ValuesIn(BundledArms()), ArmName);

}  // namespace
}  // namespace motion
