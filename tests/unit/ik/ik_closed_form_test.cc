// The closed-form path of SolveIk (spherical-wrist and UR families): every
// solution checked with the independent FK and the URDF limits, counts of
// distinct configurations, flags recomputed by the test's own geometry,
// completeness against the numeric solver, requested configurations and
// turns, singular poses, and synthetic arms the code has never seen.

#include <array>
#include <cmath>
#include <random>
#include <set>
#include <tuple>

#include <gtest/gtest.h>

#include "../../common/test_scale.h"
#include "configuration_test_support.h"
#include "core/ik/arm_geometry.h"
#include "core/ik/robot_configuration.h"

namespace motion {
namespace {

using motion_test::ArmName;
using motion_test::ArmSpec;
using motion_test::CheckAgainstTarget;
using motion_test::Family;
using motion_test::IndependentFlags;
using motion_test::IterationBoundOptions;
using motion_test::kTwoPi;
using motion_test::LoadTestChain;
using motion_test::LoadTestChainFromText;
using motion_test::TestChain;
using motion_test::ToStd;
using motion_test::Vec;
using motion_test::WrapToPi;

using Flags = std::tuple<int, int, int>;

const ArmSpec kIrb120{"abb_irb120", "abb_irb120.urdf", "base_link", "tool0"};

std::vector<ArmSpec> SixAxisArms() {
  return {
      kIrb120,
      {"abb_irb2400", "abb_irb2400.urdf", "base_link", "tool0"},
      {"fanuc_m10ia", "fanuc_m10ia.urdf", "base_link", "tool0"},
      {"fanuc_lrmate200id", "fanuc_lrmate200id.urdf", "base_link", "tool0"},
      motion_test::kUr5,
      {"ur5e", "ur5e.urdf", "base_link", "tool0"},
      {"ur10", "ur10.urdf", "base_link", "tool0"},
  };
}

Family FamilyOf(const TestChain& c) {
  return DetectArmGeometry(*c.model).family == ArmFamily::kUr ? Family::kUr
                                                              : Family::kSphericalWrist;
}

IkOptions AllOptions(int max_solutions = 512) {
  IkOptions o = IterationBoundOptions();
  o.mode = IkMode::kAll;
  o.max_solutions = max_solutions;
  return o;
}

Flags FlagsOf(const RobotConfiguration& c) { return {c.shoulder, c.elbow, c.wrist}; }

// Every answer of a kAll solve: strict by the independent FK, within the
// URDF limits, its reported configuration the test's own, distinct.
void ExpectSolutionsValid(const TestChain& c, const IkResult& r, const Eigen::Isometry3d& target,
                          const Eigen::Isometry3d& tool = Eigen::Isometry3d::Identity()) {
  ASSERT_EQ(r.solutions.size(), r.solution_configurations.size());
  const Family family = FamilyOf(c);
  for (std::size_t i = 0; i < r.solutions.size(); ++i) {
    const Eigen::VectorXd& q = r.solutions[i];
    EXPECT_TRUE(CheckAgainstTarget(c, q, target, tool).Pass())
        << "solution " << i << " = " << q.transpose();
    const std::array<int, 3> f = IndependentFlags(c, family, q);
    const RobotConfiguration& got = r.solution_configurations[i];
    EXPECT_EQ(FlagsOf(got), Flags(f[0], f[1], f[2])) << "solution " << i;
    for (int j = 0; j < c.dof(); ++j) {
      EXPECT_EQ(got.turns[j], static_cast<int>(std::ceil((q[j] - motion_test::kPi) / kTwoPi)));
    }
    for (std::size_t k = 0; k < i; ++k) {
      EXPECT_GT((r.solutions[k] - q).cwiseAbs().maxCoeff(), 1e-9) << k << " and " << i;
    }
  }
}

// ------------------------------------------------- IRB 120 acceptance

// q6 = -4.6 is beyond -pi, inside the +-400 deg of joint 6. From this
// target all 8 branches are within the IRB 120's limits.
const Eigen::VectorXd kIrb120EightConfigurations = Vec({0.3, 0.4, -1.3, 0.7, 0.5, -4.6});

TEST(IkClosedFormTest, Irb120TargetReachableInEightConfigurations) {
  const TestChain c = LoadTestChain(kIrb120);
  ASSERT_NE(c.model, nullptr);
  ChainDataCache cache;
  IkData& ws = cache.For(c.model);
  const Eigen::Isometry3d target = c.Fk(kIrb120EightConfigurations);
  IkOptions all = IterationBoundOptions();
  all.mode = IkMode::kAll;  // default max_solutions: 8
  const absl::StatusOr<IkResult> r =
      SolveIk(*c.model, ws, Pose::FromIsometry(target), Pose::Identity(), {}, all);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_TRUE(r->ok);
  EXPECT_EQ(r->method, IkMethod::kClosedForm);
  ASSERT_EQ(r->solutions.size(), 8u);
  ExpectSolutionsValid(c, *r, target);
  std::set<Flags> flags;
  for (const RobotConfiguration& k : r->solution_configurations) flags.insert(FlagsOf(k));
  EXPECT_EQ(flags.size(), 8u) << "8 distinct flag sets";

  // Asking for each flag set returns that solution.
  for (std::size_t i = 0; i < r->solutions.size(); ++i) {
    IkOptions one = IterationBoundOptions();
    const RobotConfiguration& k = r->solution_configurations[i];
    one.configuration = RobotConfiguration{k.shoulder, k.elbow, k.wrist, {}};
    const absl::StatusOr<IkResult> s =
        SolveIk(*c.model, ws, Pose::FromIsometry(target), Pose::Identity(), {}, one);
    ASSERT_TRUE(s.ok()) << s.status();
    ASSERT_TRUE(s->ok) << FormatConfiguration(k);
    EXPECT_TRUE(CheckAgainstTarget(c, s->joints, target).Pass());
    EXPECT_LE((s->joints - r->solutions[i]).cwiseAbs().maxCoeff(), 1e-9);
    const std::array<int, 3> f = IndependentFlags(c, Family::kSphericalWrist, s->joints);
    EXPECT_EQ(FlagsOf(s->configuration), FlagsOf(k));
    EXPECT_EQ(FlagsOf(s->configuration), Flags(f[0], f[1], f[2]));
  }
}

// Whole turns of joint 6 (+-400 deg): asked for, they come back exactly;
// with kAll and room for them, every in-limit variant is listed.
TEST(IkClosedFormTest, Irb120WholeTurnsOfJointSix) {
  const TestChain c = LoadTestChain(kIrb120);
  ASSERT_NE(c.model, nullptr);
  ChainDataCache cache;
  IkData& ws = cache.For(c.model);
  const Eigen::Isometry3d target = c.Fk(kIrb120EightConfigurations);
  const RobotConfiguration here =
      ComputeConfiguration(*c.model, ws.Geometry(*c.model), kIrb120EightConfigurations);
  ASSERT_EQ(here.turns[5], -1);
  IkOptions one = IterationBoundOptions();
  one.configuration = here;
  const absl::StatusOr<IkResult> s =
      SolveIk(*c.model, ws, Pose::FromIsometry(target), Pose::Identity(), {}, one);
  ASSERT_TRUE(s.ok() && s->ok);
  EXPECT_LE((s->joints - kIrb120EightConfigurations).cwiseAbs().maxCoeff(), 1e-9);
  EXPECT_EQ(s->configuration, here);

  // Two turns down is outside +-6.98: a joint limit, naming joint_6.
  RobotConfiguration too_far = here;
  too_far.turns[5] = -2;
  one.configuration = too_far;
  const absl::StatusOr<IkResult> f =
      SolveIk(*c.model, ws, Pose::FromIsometry(target), Pose::Identity(), {}, one);
  ASSERT_TRUE(f.ok());
  EXPECT_FALSE(f->ok);
  EXPECT_EQ(f->outcome, IkOutcome::kJointLimit);
  ASSERT_FALSE(f->diagnostics.empty());
  EXPECT_EQ(f->diagnostics.front().joint_name, "joint_6");
  EXPECT_LT(CheckAgainstTarget(c, f->joints, target).outside, 0);

  const absl::StatusOr<IkResult> all =
      SolveIk(*c.model, ws, Pose::FromIsometry(target), Pose::Identity(), {}, AllOptions());
  ASSERT_TRUE(all.ok() && all->ok);
  ExpectSolutionsValid(c, *all, target);
  // Per branch, joint 6 has 2 or 3 values in [-6.98, 6.98] (2.2 turns).
  EXPECT_GE(all->solutions.size(), 16u);
  EXPECT_LE(all->solutions.size(), 24u);
  bool has_original = false;
  for (const Eigen::VectorXd& q : all->solutions) {
    has_original |= (q - kIrb120EightConfigurations).cwiseAbs().maxCoeff() < 1e-9;
  }
  EXPECT_TRUE(has_original);
}

// A flag set that does not reach the target: not ok, unreachable, and the
// message names the configuration asked for.
TEST(IkClosedFormTest, UnreachableConfigurationIsNamed) {
  const TestChain c = LoadTestChain(kIrb120);
  ASSERT_NE(c.model, nullptr);
  ChainDataCache cache;
  IkData& ws = cache.For(c.model);
  // Near the zero pose, behind axis 1 needs joint 1 +-pi: outside +-165 deg.
  const Eigen::Isometry3d target = c.Fk(Vec({0.0, 0.3, 0.2, 0.1, 0.6, 0.2}));
  IkOptions back = IterationBoundOptions();
  back.configuration = RobotConfiguration{-1, 0, 0, {}};
  const absl::StatusOr<IkResult> r =
      SolveIk(*c.model, ws, Pose::FromIsometry(target), Pose::Identity(), {}, back);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_FALSE(r->ok);
  ASSERT_FALSE(r->diagnostics.empty());
  EXPECT_NE(r->diagnostics.front().message.find("shoulder -1"), std::string::npos)
      << r->diagnostics.front().message;
  EXPECT_LT(CheckAgainstTarget(c, r->joints, target).outside, 0);
  IkOptions bad = back;
  bad.configuration = RobotConfiguration{3, 0, 0, {}};
  const absl::StatusOr<IkResult> e =
      SolveIk(*c.model, ws, Pose::FromIsometry(target), Pose::Identity(), {}, bad);
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.status().message().find("options.configuration.shoulder"), std::string::npos);
}

// ---------------------------------------------------- every 6R arm

class IkClosedFormArmTest : public testing::TestWithParam<ArmSpec> {};

// Random targets in the limits: every solution valid, at most 8 flag sets,
// the joints the target was made from among them.
TEST_P(IkClosedFormArmTest, AllSolutionsMatchTheIndependentFk) {
  const TestChain c = LoadTestChain(GetParam());
  ASSERT_NE(c.model, nullptr);
  ChainDataCache cache;
  IkData& ws = cache.For(c.model);
  std::mt19937_64 rng(81);
  Eigen::Isometry3d tool = Eigen::Isometry3d::Identity();
  tool.linear() = motion_test::RotZ(0.4) * motion_test::RotX(-0.3);
  tool.translation() = Eigen::Vector3d(0.01, 0.02, 0.12);
  int found = 0;
  constexpr int kSamples = 300;
  for (int n = 0; n < kSamples; ++n) {
    const Eigen::VectorXd q_true = c.Random(rng);
    const Eigen::Isometry3d use_tool = n % 2 ? tool : Eigen::Isometry3d::Identity();
    const Eigen::Isometry3d target = c.Fk(q_true) * use_tool;
    const absl::StatusOr<IkResult> r = SolveIk(*c.model, ws, Pose::FromIsometry(target),
                                               Pose::FromIsometry(use_tool), {}, AllOptions());
    ASSERT_TRUE(r.ok()) << r.status();
    ASSERT_TRUE(r->ok) << "q_true = " << q_true.transpose();
    EXPECT_EQ(r->method, IkMethod::kClosedForm);
    ExpectSolutionsValid(c, *r, target, use_tool);
    std::set<Flags> flags;
    for (const RobotConfiguration& k : r->solution_configurations) flags.insert(FlagsOf(k));
    EXPECT_LE(flags.size(), 8u);
    bool has_true = false;
    for (const Eigen::VectorXd& q : r->solutions) {
      has_true |= (q - q_true).cwiseAbs().maxCoeff() < 1e-6;
    }
    found += has_true;
  }
  // Every target's own joints are found (whole turns included), except
  // within ~1e-6 of a singularity where the branches merge.
  EXPECT_GE(found, kSamples - 1) << GetParam().label;
}

// Completeness: whatever the numeric solver finds from random seeds, the
// closed form has found too (same branch and turns).
TEST_P(IkClosedFormArmTest, FindsEverySolutionTheNumericSolverFinds) {
  const TestChain c = LoadTestChain(GetParam());
  ASSERT_NE(c.model, nullptr);
  ChainDataCache cache;
  IkData& ws = cache.For(c.model);
  std::mt19937_64 rng(82);
  for (int n = 0; n < 40; ++n) {
    const Eigen::Isometry3d target = c.Fk(c.Random(rng));
    const absl::StatusOr<IkResult> all =
        SolveIk(*c.model, ws, Pose::FromIsometry(target), Pose::Identity(), {}, AllOptions());
    ASSERT_TRUE(all.ok() && all->ok);
    for (int k = 0; k < 10; ++k) {
      IkOptions numeric = IterationBoundOptions();
      numeric.closed_form = false;
      const Eigen::VectorXd seed = c.Random(rng);
      const absl::StatusOr<IkResult> r =
          SolveIk(*c.model, ws, Pose::FromIsometry(target), Pose::Identity(), ToStd(seed), numeric);
      ASSERT_TRUE(r.ok());
      if (!r->ok) continue;
      EXPECT_EQ(r->method, IkMethod::kNumeric);
      // The same configuration (flags and turns) is among the closed form's
      // answers, and (away from the wrist singularity, where theta_4 and
      // theta_6 are ill-conditioned) the same joints to ~1e-4.
      double nearest = 1e9;
      bool same_configuration = false;
      for (std::size_t s = 0; s < all->solutions.size(); ++s) {
        const double d = (all->solutions[s] - r->joints).cwiseAbs().maxCoeff();
        nearest = std::min(nearest, d);
        same_configuration |=
            ConfigurationMatches(all->solution_configurations[s], r->configuration) && d < 0.1;
      }
      EXPECT_TRUE(same_configuration)
          << "numeric answer " << r->joints.transpose() << " in "
          << FormatConfiguration(r->configuration) << " is not among the closed form's";
      if (r->min_singular_value > 0.02) {
        EXPECT_LT(nearest, 1e-3) << r->joints.transpose();
      }
    }
  }
}

// Wrist singular (axes 4 and 6 aligned) and stretched poses: valid
// solutions, no NaN, a SINGULARITY warning.
TEST_P(IkClosedFormArmTest, SingularPosesGiveValidSolutions) {
  const TestChain c = LoadTestChain(GetParam());
  ASSERT_NE(c.model, nullptr);
  ChainDataCache cache;
  IkData& ws = cache.For(c.model);
  std::mt19937_64 rng(83);
  for (int n = 0; n < 20; ++n) {
    Eigen::VectorXd q = c.Random(rng);
    q[4] = 0.0;  // both families: joint 5 aligns axes 4 and 6
    const Eigen::Isometry3d target = c.Fk(q);
    for (IkMode mode : {IkMode::kFirst, IkMode::kAll}) {
      IkOptions o = AllOptions();
      o.mode = mode;
      const absl::StatusOr<IkResult> r =
          SolveIk(*c.model, ws, Pose::FromIsometry(target), Pose::Identity(), ToStd(q), o);
      ASSERT_TRUE(r.ok());
      ASSERT_TRUE(r->ok) << q.transpose();
      EXPECT_TRUE(r->joints.allFinite());
      EXPECT_TRUE(CheckAgainstTarget(c, r->joints, target).Pass());
      EXPECT_TRUE(motion_test::HasDiagnostic(*r, DiagnosticCode::kSingularity, Severity::kWarning));
      for (const Eigen::VectorXd& s : r->solutions) {
        EXPECT_TRUE(CheckAgainstTarget(c, s, target).Pass());
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(SixAxisArms, IkClosedFormArmTest, testing::ValuesIn(SixAxisArms()),
                         ArmName);

// 7-axis arms keep the numeric solver; their answers still carry flags, and
// asking for a flag set returns a solution in it.
TEST(IkClosedFormTest, SevenAxisArmsAreNumericWithFlags) {
  const TestChain c = LoadTestChain({"iiwa14", "iiwa14.urdf", "base", "iiwa_link_ee_kuka"});
  ASSERT_NE(c.model, nullptr);
  ChainDataCache cache;
  IkData& ws = cache.For(c.model);
  std::mt19937_64 rng(84);
  for (int n = 0; n < 20; ++n) {
    const Eigen::VectorXd q_true = c.Random(rng);
    const Eigen::Isometry3d target = c.Fk(q_true);
    const RobotConfiguration wanted = ComputeConfiguration(*c.model, ws.Geometry(*c.model), q_true);
    IkOptions o = IterationBoundOptions();
    o.configuration = RobotConfiguration{wanted.shoulder, wanted.elbow, wanted.wrist, {}};
    const absl::StatusOr<IkResult> r =
        SolveIk(*c.model, ws, Pose::FromIsometry(target), Pose::Identity(), {}, o);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->method, IkMethod::kNumeric);
    if (!r->ok) continue;  // the numeric search may miss a configuration in its budget
    EXPECT_TRUE(CheckAgainstTarget(c, r->joints, target).Pass());
    const std::array<int, 3> f = IndependentFlags(c, Family::kSevenAxis, r->joints);
    EXPECT_TRUE(FlagsMatch(*o.configuration, {f[0], f[1], f[2], {}}));
  }
}

// ------------------------------------------------------ synthetic arms

// Arms the code has never seen: random link lengths and offsets, axis
// signs, frame rotations, base mount and tool frame.
TEST(IkClosedFormTest, SyntheticArmsAreSolvedInClosedForm) {
  std::mt19937_64 rng(85);
  for (int n = 0; n < 16; ++n) {
    const bool ur = n % 2 == 1;
    const std::string urdf = motion_test::SyntheticUrdf(
        ur ? motion_test::RandomUrArm(rng) : motion_test::RandomSphericalWristArm(rng), rng);
    const TestChain c = LoadTestChainFromText(urdf);
    ASSERT_NE(c.model, nullptr);
    ChainDataCache cache;
    IkData& ws = cache.For(c.model);
    ASSERT_EQ(ws.Geometry(*c.model).family, ur ? ArmFamily::kUr : ArmFamily::kSphericalWrist);
    for (int k = 0; k < motiond_test_scale::ScaledCount(40); ++k) {
      const Eigen::VectorXd q_true = c.Random(rng);
      const Eigen::Isometry3d target = c.Fk(q_true);
      const absl::StatusOr<IkResult> r =
          SolveIk(*c.model, ws, Pose::FromIsometry(target), Pose::Identity(), {}, AllOptions());
      ASSERT_TRUE(r.ok() && r->ok) << urdf;
      EXPECT_EQ(r->method, IkMethod::kClosedForm);
      ExpectSolutionsValid(c, *r, target);
      bool has_true = false;
      for (const Eigen::VectorXd& q : r->solutions) {
        has_true |= (q - q_true).cwiseAbs().maxCoeff() < 1e-6;
      }
      EXPECT_TRUE(has_true) << "q_true " << q_true.transpose();
    }
  }
}

}  // namespace
}  // namespace motion
