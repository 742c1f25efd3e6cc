// Robot configurations: the family detected from the chain's geometry, the
// flags of a joint vector (against the test's own computation from the
// independent FK, and against hand-derived IRB 120 boundaries), whole turns,
// and the validation of a requested configuration.

#include <array>
#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "configuration_test_support.h"
#include "core/ik/arm_geometry.h"
#include "core/ik/robot_configuration.h"

namespace motion {
namespace {

using motion_test::ArmSpec;
using motion_test::Family;
using motion_test::IndependentFlags;
using motion_test::kPi;
using motion_test::LoadTestChain;
using motion_test::LoadTestChainFromText;
using motion_test::TestChain;
using motion_test::Vec;

struct FamilyCase {
  ArmSpec arm;
  ArmFamily family;
};

std::vector<FamilyCase> FamilyCases() {
  return {
      {{"abb_irb120", "abb_irb120.urdf", "base_link", "tool0"}, ArmFamily::kSphericalWrist},
      {{"abb_irb2400", "abb_irb2400.urdf", "base_link", "tool0"}, ArmFamily::kSphericalWrist},
      {{"fanuc_m10ia", "fanuc_m10ia.urdf", "base_link", "tool0"}, ArmFamily::kSphericalWrist},
      {{"fanuc_lrmate200id", "fanuc_lrmate200id.urdf", "base_link", "tool0"},
       ArmFamily::kSphericalWrist},
      {{"ur5", "ur5.urdf", "base_link", "tool0"}, ArmFamily::kUr},
      {{"ur5e", "ur5e.urdf", "base_link", "tool0"}, ArmFamily::kUr},
      {{"ur10", "ur10.urdf", "base_link", "tool0"}, ArmFamily::kUr},
      {{"panda", "panda.urdf", "panda_link0", "panda_link8"}, ArmFamily::kSevenAxis},
      {{"iiwa14", "iiwa14.urdf", "base", "iiwa_link_ee_kuka"}, ArmFamily::kSevenAxis},
      {{"kuka_iiwa14_r820", "kuka_iiwa14_r820.urdf", "base_link", "tool0"}, ArmFamily::kSevenAxis},
      {{"planar_2r", "planar_2r.urdf", "base_link", "tool"}, ArmFamily::kOther},
      {{"quirks", "quirks.urdf", "base_link", "tool"}, ArmFamily::kOther},
      // A 3-DOF sub-chain of the UR5 is no arm family.
      {{"ur5_planar_3r", "ur5.urdf", "shoulder_link", "wrist_1_link"}, ArmFamily::kOther},
  };
}

Family TestFamily(ArmFamily f) {
  return f == ArmFamily::kSphericalWrist ? Family::kSphericalWrist
         : f == ArmFamily::kUr           ? Family::kUr
                                         : Family::kSevenAxis;
}

class ConfigurationFamilyTest : public testing::TestWithParam<FamilyCase> {};

TEST_P(ConfigurationFamilyTest, FamilyIsDetectedFromTheGeometry) {
  const TestChain c = LoadTestChain(GetParam().arm);
  ASSERT_NE(c.model, nullptr);
  EXPECT_EQ(DetectArmGeometry(*c.model).family, GetParam().family)
      << ArmFamilyName(DetectArmGeometry(*c.model).family);
}

// Flags of random joint vectors equal the test's own computation from the
// independent FK; turns are ceil((q - pi) / 2 pi).
TEST_P(ConfigurationFamilyTest, FlagsMatchTheIndependentGeometry) {
  const TestChain c = LoadTestChain(GetParam().arm);
  ASSERT_NE(c.model, nullptr);
  const ArmGeometry g = DetectArmGeometry(*c.model);
  std::mt19937_64 rng(71);
  std::array<int, 6> seen{};  // -1/+1 of each flag seen at least once
  for (int n = 0; n < 500; ++n) {
    const Eigen::VectorXd q = c.Random(rng);
    const RobotConfiguration got = ComputeConfiguration(*c.model, g, q);
    ASSERT_EQ(static_cast<int>(got.turns.size()), c.dof());
    for (int i = 0; i < c.dof(); ++i) {
      if (c.type[i] == "prismatic") {
        EXPECT_EQ(got.turns[i], 0);
        continue;
      }
      // q = r + 2 pi k with r in (-pi, pi].
      const double r = q[i] - 2 * kPi * got.turns[i];
      EXPECT_TRUE(r > -kPi && r <= kPi + 1e-12) << q[i] << " turns " << got.turns[i];
    }
    if (GetParam().family == ArmFamily::kOther) {
      EXPECT_EQ(got.shoulder, 0);
      EXPECT_EQ(got.elbow, 0);
      EXPECT_EQ(got.wrist, 0);
      continue;
    }
    const std::array<int, 3> expected = IndependentFlags(c, TestFamily(GetParam().family), q);
    EXPECT_EQ(got.shoulder, expected[0]) << "q = " << q.transpose();
    EXPECT_EQ(got.elbow, expected[1]) << "q = " << q.transpose();
    EXPECT_EQ(got.wrist, expected[2]) << "q = " << q.transpose();
    seen[got.shoulder > 0 ? 0 : 1] = 1;
    seen[got.elbow > 0 ? 2 : 3] = 1;
    seen[got.wrist > 0 ? 4 : 5] = 1;
  }
  if (GetParam().family != ArmFamily::kOther) {
    // Every flag takes both values somewhere in the limits, except: Panda's
    // joint 4 is always negative (one elbow value); the IRB 2400's forearm
    // (0.755 m, 0.135 m up) is stretched at q3 = atan2(-0.755, 0.135) =
    // -1.394, below joint 3's lower limit -1.047 (no elbow down).
    for (int k = 0; k < 6; ++k) {
      if (GetParam().arm.file == std::string("panda.urdf") && (k == 2 || k == 3)) continue;
      if (GetParam().arm.file == std::string("abb_irb2400.urdf") && k == 3) continue;
      EXPECT_EQ(seen[k], 1) << "flag value " << k << " never seen";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(BundledArms, ConfigurationFamilyTest, testing::ValuesIn(FamilyCases()),
                         [](const testing::TestParamInfo<FamilyCase>& info) {
                           return std::string(info.param.arm.label);
                         });

// By hand from abb_irb120.urdf: the shoulder (axis 2) at z = 0.29, the elbow
// 0.27 above it, the wrist centre (0.302, 0, 0.07) from the elbow in link 3.
// With q1 = 0 the arm plane is x-z and the wrist centre is at
//   x = 0.27 sin q2 + 0.302 cos(q2 + q3) + 0.07 sin(q2 + q3).
// The elbow is on the shoulder-wrist line when the forearm is along the
// upper arm: q3 = atan2(-0.302, 0.07) = -1.3430 (stretched) or that + pi.
TEST(RobotConfigurationTest, Irb120FlagsChangeWhereTheHandDerivedBoundariesAre) {
  const TestChain c = LoadTestChain({"abb_irb120", "abb_irb120.urdf", "base_link", "tool0"});
  ASSERT_NE(c.model, nullptr);
  const ArmGeometry g = DetectArmGeometry(*c.model);
  const auto flags = [&](const Eigen::VectorXd& q) { return ComputeConfiguration(*c.model, g, q); };
  // Zero: wrist centre in front, elbow up, wrist on the boundary.
  const RobotConfiguration zero = flags(Vec({0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(zero.shoulder, 1);
  EXPECT_EQ(zero.elbow, 1);
  EXPECT_EQ(zero.wrist, 0);
  // Wrist: the sign of q5 (axes 4 and 6 are both +x at q5 = 0).
  EXPECT_EQ(flags(Vec({0, 0, 0, 0.3, 0.5, 0})).wrist, 1);
  EXPECT_EQ(flags(Vec({0, 0, 0, 0.3, -0.5, 0})).wrist, -1);
  // Elbow: up above q3 = -1.3430, down below.
  const double stretched = std::atan2(-0.302, 0.07);
  EXPECT_EQ(flags(Vec({0, 0.2, stretched + 0.01, 0, 0.5, 0})).elbow, 1);
  EXPECT_EQ(flags(Vec({0, 0.2, stretched - 0.01, 0, 0.5, 0})).elbow, -1);
  // Shoulder: the wrist centre's x in the arm plane changes sign; q2 = -1
  // (leaning back), q3 at the root found by bisection of the closed form.
  const auto x = [](double q2, double q3) {
    return 0.27 * std::sin(q2) + 0.302 * std::cos(q2 + q3) + 0.07 * std::sin(q2 + q3);
  };
  double lo = 0.0, hi = 1.0;
  ASSERT_LT(x(-1.0, lo), 0.0);
  ASSERT_GT(x(-1.0, hi), 0.0);
  for (int i = 0; i < 60; ++i) {
    const double mid = 0.5 * (lo + hi);
    (x(-1.0, mid) < 0 ? lo : hi) = mid;
  }
  EXPECT_EQ(flags(Vec({0.4, -1.0, lo - 0.01, 0, 0.5, 0})).shoulder, -1);
  EXPECT_EQ(flags(Vec({0.4, -1.0, hi + 0.01, 0, 0.5, 0})).shoulder, 1);
  // Flags are relative to the arm: turning joint 1 changes none of them.
  const RobotConfiguration a = flags(Vec({0.4, -1.0, hi + 0.01, 0.2, 0.5, 0}));
  const RobotConfiguration b = flags(Vec({0.4 - kPi, -1.0, hi + 0.01, 0.2, 0.5, 0}));
  EXPECT_EQ(a.shoulder, b.shoulder);
  EXPECT_EQ(a.elbow, b.elbow);
  EXPECT_EQ(a.wrist, b.wrist);
}

TEST(RobotConfigurationTest, WholeTurnsAreRelativeToMinusPiPi) {
  EXPECT_EQ(WholeTurns(0.0), 0);
  EXPECT_EQ(WholeTurns(kPi), 0);
  EXPECT_EQ(WholeTurns(-kPi), -1);
  EXPECT_EQ(WholeTurns(kPi + 1e-9), 1);
  EXPECT_EQ(WholeTurns(-kPi + 1e-9), 0);
  EXPECT_EQ(WholeTurns(6.98132), 1);
  EXPECT_EQ(WholeTurns(-6.98132), -1);
  EXPECT_EQ(WholeTurns(-4.6), -1);
}

// The detection is general: synthetic arms with random lengths, offsets,
// axis signs, frame rotations and base / tool transforms.
TEST(RobotConfigurationTest, SyntheticArmsAreDetectedAndTheirFlagsMatch) {
  std::mt19937_64 rng(72);
  for (int n = 0; n < 20; ++n) {
    const bool ur = n % 2 == 1;
    const std::string urdf = motion_test::SyntheticUrdf(
        ur ? motion_test::RandomUrArm(rng) : motion_test::RandomSphericalWristArm(rng), rng);
    const TestChain c = LoadTestChainFromText(urdf);
    ASSERT_NE(c.model, nullptr);
    const ArmGeometry g = DetectArmGeometry(*c.model);
    ASSERT_EQ(g.family, ur ? ArmFamily::kUr : ArmFamily::kSphericalWrist) << urdf;
    for (int k = 0; k < 50; ++k) {
      const Eigen::VectorXd q = c.Random(rng);
      const RobotConfiguration got = ComputeConfiguration(*c.model, g, q);
      const std::array<int, 3> expected =
          IndependentFlags(c, ur ? Family::kUr : Family::kSphericalWrist, q);
      EXPECT_EQ(got.shoulder, expected[0]);
      EXPECT_EQ(got.elbow, expected[1]);
      EXPECT_EQ(got.wrist, expected[2]);
    }
  }
}

TEST(RobotConfigurationTest, ValidationNamesTheField) {
  const TestChain arm = LoadTestChain({"abb_irb120", "abb_irb120.urdf", "base_link", "tool0"});
  const TestChain planar = LoadTestChain(motion_test::kPlanar2r);
  ASSERT_NE(arm.model, nullptr);
  ASSERT_NE(planar.model, nullptr);
  const ArmGeometry g = DetectArmGeometry(*arm.model);
  const ArmGeometry none = DetectArmGeometry(*planar.model);
  EXPECT_TRUE(ValidateConfiguration({1, -1, 0, {}}, *arm.model, g, "c").ok());
  EXPECT_TRUE(ValidateConfiguration({0, 0, 0, {0, 0, 0, 0, 0, 1}}, *arm.model, g, "c").ok());
  const absl::Status bad_flag = ValidateConfiguration({2, 0, 0, {}}, *arm.model, g, "c");
  EXPECT_EQ(bad_flag.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(bad_flag.message().find("c.shoulder"), std::string::npos) << bad_flag;
  const absl::Status bad_turns = ValidateConfiguration({0, 0, 0, {0, 1}}, *arm.model, g, "c");
  EXPECT_NE(bad_turns.message().find("c.turns"), std::string::npos) << bad_turns;
  const absl::Status no_flags = ValidateConfiguration({0, 1, 0, {}}, *planar.model, none, "c");
  EXPECT_EQ(no_flags.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(ValidateConfiguration({0, 0, 0, {1, 0}}, *planar.model, none, "c").ok());
}

TEST(RobotConfigurationTest, FormatAndMatch) {
  EXPECT_EQ(FormatConfiguration({1, -1, 0, {0, 0, 0, 0, 0, 1}}),
            "(shoulder +1, elbow -1, wrist any, turns [0 0 0 0 0 1])");
  EXPECT_TRUE(FlagsMatch({1, 0, 0, {}}, {1, -1, 1, {}}));
  EXPECT_FALSE(FlagsMatch({1, 0, 0, {}}, {-1, -1, 1, {}}));
  EXPECT_TRUE(FlagsMatch({1, 1, -1, {}}, {1, 1, 0, {}}));  // 0 in an answer: on the boundary
  EXPECT_FALSE(ConfigurationMatches({1, 1, 1, {0, 0, 0, 0, 0, 1}}, {1, 1, 1, {0, 0, 0, 0, 0, 0}}));
}

}  // namespace
}  // namespace motion
