// SolveIk when there is no (in-limit) answer: unreachable targets, targets
// reachable only outside the joint limits, spent budgets. Not ok is a result,
// not an error: the outcome and a diagnostic say why, with the best residuals
// (checked here with the independent FK at the returned joints), and the
// returned joints are always within the limits.

#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "core/ik/internal/reach_bound.h"
#include "ik_test_support.h"

namespace motion {
namespace {

using motion_test::ArmName;
using motion_test::ArmSpec;
using motion_test::BundledArms;
using motion_test::CheckAgainstTarget;
using motion_test::HasDiagnostic;
using motion_test::IterationBoundOptions;
using motion_test::kPlanar2r;
using motion_test::kQuirks;
using motion_test::kUr5;
using motion_test::LoadTestChain;
using motion_test::RotX;
using motion_test::RotZ;
using motion_test::StrictCheck;
using motion_test::TestChain;
using motion_test::ToStd;
using motion_test::Vec;
using motion_test::WrapToPi;

Eigen::Isometry3d At(const Eigen::Vector3d& p,
                     const Eigen::Matrix3d& r = Eigen::Matrix3d::Identity()) {
  Eigen::Isometry3d t = Eigen::Isometry3d::Identity();
  t.linear() = r;
  t.translation() = p;
  return t;
}

// What every failed answer must satisfy: a result (not an error), not ok,
// joints within the URDF limits, the budget respected, and finite best
// residuals that are the residuals of the returned joints.
void ExpectWellFormedFailure(const TestChain& c, const absl::StatusOr<IkResult>& r,
                             const Eigen::Isometry3d& target, const IkOptions& options) {
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_FALSE(r->ok);
  EXPECT_NE(r->outcome, IkOutcome::kOk);
  ASSERT_EQ(r->joints.size(), c.dof());
  const StrictCheck check = CheckAgainstTarget(c, r->joints, target);
  EXPECT_LT(check.outside, 0) << "joint " << check.outside << " = "
                              << (check.outside >= 0 ? r->joints[check.outside] : 0.0)
                              << " is outside its URDF limits";
  EXPECT_GE(r->iterations, 0);
  EXPECT_LE(r->iterations, options.max_iterations);
  EXPECT_TRUE(std::isfinite(r->position_error));
  EXPECT_TRUE(std::isfinite(r->orientation_error));
  EXPECT_NEAR(r->position_error, check.position, 1e-9);
  EXPECT_NEAR(r->orientation_error, check.rotation, 1e-9);
  EXPECT_FALSE(r->diagnostics.empty());
}

// An upper bound of |tip| over all configurations, from the URDF alone: the
// sum of the joint origin offsets on the path plus the prismatic strokes.
double IndependentReachFromBase(const TestChain& c) {
  double sum = 0.0;
  for (const motion_test::UrdfJointSpec* j : c.independent.path) {
    sum += j->xyz.norm();
    if (j->type == "prismatic") sum += std::max(std::abs(j->lower), std::abs(j->upper));
  }
  return sum;
}

// ----------------------------------------------------------- unreachable

class IkFarTargetTest : public testing::TestWithParam<ArmSpec> {};

TEST_P(IkFarTargetTest, BeyondReachIsUnreachableWithDiagnostic) {
  const TestChain c = LoadTestChain(GetParam());
  ASSERT_NE(c.model, nullptr);
  ChainDataCache cache;
  IkData& ws = cache.For(c.model);
  const double reach = IndependentReachFromBase(c);
  const IkOptions options;  // the defaults
  for (const Eigen::Vector3d& direction :
       {Eigen::Vector3d(1, 1, 1).normalized(), Eigen::Vector3d(-1, 0, 0),
        Eigen::Vector3d(0, 0.6, -0.8)}) {
    for (double beyond : {1.0, 3.0}) {
      const Eigen::Isometry3d target = At((reach + beyond) * direction, RotZ(0.4) * RotX(1.0));
      const absl::StatusOr<IkResult> r =
          SolveIk(*c.model, ws, Pose::FromIsometry(target), Pose::Identity(), {}, options);
      ExpectWellFormedFailure(c, r, target, options);
      if (!r.ok()) continue;
      EXPECT_EQ(r->outcome, IkOutcome::kUnreachable) << IkOutcomeName(r->outcome);
      EXPECT_TRUE(HasDiagnostic(*r, DiagnosticCode::kTargetUnreachable, Severity::kError));
      // No configuration comes closer than `beyond`.
      EXPECT_GE(r->position_error, beyond - 1e-9);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(BundledArms, IkFarTargetTest, testing::ValuesIn(BundledArms()), ArmName);

TEST(IkUnreachableTest, Ur5ThreeMetresAway) {
  const TestChain c = LoadTestChain(kUr5);
  ASSERT_NE(c.model, nullptr);
  ChainDataCache cache;
  const IkOptions options;
  const Eigen::Isometry3d target = At(Eigen::Vector3d(3.0, 0.0, 0.0));
  const absl::StatusOr<IkResult> r = SolveIk(
      *c.model, cache.For(c.model), Pose::FromIsometry(target), Pose::Identity(), {}, options);
  ExpectWellFormedFailure(c, r, target, options);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->outcome, IkOutcome::kUnreachable) << IkOutcomeName(r->outcome);
  EXPECT_TRUE(HasDiagnostic(*r, DiagnosticCode::kTargetUnreachable, Severity::kError));
}

// UR5, by hand from the URDF: in the shoulder frame (pan joint origin, z =
// 0.089159) the TCP is (0.425 u1 + 0.39225 u2 + 0.09465 d - 0.0823 sin(q5)
// d_perp) in the arm plane, plus (0.13585 - 0.1197 + 0.093 + 0.0823 cos q5)
// along the lift axis; its largest norm is 0.9500 m (q5 ~ 1.37). A target 1 m
// from the shoulder is outside the workspace but inside core's crude bound
// (sum of link offsets, 1.2396 m), so the solver has to iterate to say so.
TEST(IkUnreachableTest, Ur5JustOutsideTheWorkspaceButInsideTheReachBound) {
  const TestChain c = LoadTestChain(kUr5);
  ASSERT_NE(c.model, nullptr);
  const Eigen::Vector3d shoulder(0.0, 0.0, 0.089159);
  // Preconditions: the sampled workspace stays below 0.96 m, and the target
  // is inside the bound core uses to skip hopeless requests.
  std::mt19937_64 rng(11);
  double farthest = 0.0;
  for (int n = 0; n < 20000; ++n) {
    farthest = std::max(farthest, (c.Fk(c.Random(rng)).translation() - shoulder).norm());
  }
  EXPECT_LT(farthest, 0.96);
  const ReachBound bound = ComputeReachBound(*c.model, Eigen::Isometry3d::Identity());
  EXPECT_LT((bound.center - shoulder).norm(), 1e-12);
  ASSERT_GT(bound.radius, 1.0 + 1e-3);

  ChainDataCache cache;
  IkData& ws = cache.For(c.model);
  const IkOptions options;  // the defaults
  for (const Eigen::Vector3d& direction :
       {Eigen::Vector3d(1, 0, 0), Eigen::Vector3d(0, -1, 0), Eigen::Vector3d(0.6, 0, 0.8),
        Eigen::Vector3d(0, 0, 1), Eigen::Vector3d(-0.48, 0.6, -0.64)}) {
    const Eigen::Isometry3d target = At(shoulder + 1.0 * direction, RotX(0.5));
    const absl::StatusOr<IkResult> r =
        SolveIk(*c.model, ws, Pose::FromIsometry(target), Pose::Identity(), {}, options);
    ExpectWellFormedFailure(c, r, target, options);
    ASSERT_TRUE(r.ok());
    EXPECT_GT(r->iterations, 0) << "the reach bound alone should not decide this target";
    EXPECT_EQ(r->outcome, IkOutcome::kUnreachable) << IkOutcomeName(r->outcome);
    EXPECT_TRUE(HasDiagnostic(*r, DiagnosticCode::kTargetUnreachable, Severity::kError));
    EXPECT_GE(r->position_error, 1.0 - 0.96);
  }
}

// planar_2r reaches the annulus 0.1 <= r <= 0.3 of the plane z = 0, with yaw
// = q1 + q2 about +Z: the hole, a point off the plane and a tilted
// orientation are all inside the reach bound and all unreachable.
TEST(IkUnreachableTest, Planar2rTargetsOutsideTheAnnulusPlaneOrYawFamily) {
  const TestChain c = LoadTestChain(kPlanar2r);
  ASSERT_NE(c.model, nullptr);
  ChainDataCache cache;
  IkData& ws = cache.For(c.model);
  const IkOptions options;
  struct Case {
    Eigen::Isometry3d target;
    double min_position_error;  // closed form: distance to the workspace
    double min_rotation_error;
  };
  const Case cases[] = {
      {At(Eigen::Vector3d(0.05, 0.0, 0.0)), 0.05, 0.0},              // in the hole
      {At(Eigen::Vector3d(0.0, -0.03, 0.0), RotZ(2.0)), 0.07, 0.0},  // in the hole
      {At(Eigen::Vector3d(0.2, 0.0, 0.05)), 0.05, 0.0},              // off the plane
      // Reachable position, but tilted about X: any yaw-only rotation is at
      // least 0.3 rad away, and the position error is then free.
      {At(Eigen::Vector3d(0.0, 0.2, 0.0), RotZ(1.0) * RotX(0.3)), 0.0, 0.3 - 1e-9},
  };
  for (const Case& k : cases) {
    const absl::StatusOr<IkResult> r =
        SolveIk(*c.model, ws, Pose::FromIsometry(k.target), Pose::Identity(), {}, options);
    ExpectWellFormedFailure(c, r, k.target, options);
    ASSERT_TRUE(r.ok());
    EXPECT_GT(r->iterations, 0);
    EXPECT_EQ(r->outcome, IkOutcome::kUnreachable) << IkOutcomeName(r->outcome);
    EXPECT_TRUE(HasDiagnostic(*r, DiagnosticCode::kTargetUnreachable, Severity::kError));
    EXPECT_GE(r->position_error, k.min_position_error - 1e-9);
    EXPECT_GE(r->orientation_error, k.min_rotation_error);
    EXPECT_GT(r->position_error + r->orientation_error, 1e-3);
  }
}

// Seeds are not limit-checked (FK is defined everywhere), but what comes
// back is always within limits, whichever way the solve ends.
TEST(IkUnreachableTest, SeedOutsideTheLimitsStillGivesJointsWithinLimits) {
  const TestChain c = LoadTestChain(kUr5);
  ASSERT_NE(c.model, nullptr);
  ChainDataCache cache;
  IkData& ws = cache.For(c.model);
  const IkOptions options;
  // elbow_joint is limited to +-pi; wrist_1 to +-2 pi.
  const std::vector<double> seed = {0.1, -1.0, 4.0, -7.0, 0.5, 0.0};
  for (const Eigen::Isometry3d& target :
       {At(Eigen::Vector3d(3.0, 0.0, 0.0)), At(Eigen::Vector3d(0.0, 0.0, 1.089159))}) {
    const absl::StatusOr<IkResult> r =
        SolveIk(*c.model, ws, Pose::FromIsometry(target), Pose::Identity(), seed, options);
    ExpectWellFormedFailure(c, r, target, options);
  }
  // And a reachable target from the same seed.
  std::mt19937_64 rng(5);
  for (int n = 0; n < 20; ++n) {
    const Eigen::Isometry3d target = c.Fk(c.Random(rng));
    const absl::StatusOr<IkResult> r = SolveIk(*c.model, ws, Pose::FromIsometry(target),
                                               Pose::Identity(), seed, IterationBoundOptions());
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(r->ok);
    EXPECT_LT(CheckAgainstTarget(c, r->joints, target).outside, 0);
  }
}

// ------------------------------------------------------------ joint limits

const Diagnostic* FindDiagnostic(const IkResult& r, DiagnosticCode code) {
  for (const Diagnostic& d : r.diagnostics) {
    if (d.code == code) return &d;
  }
  return nullptr;
}

// planar_2r: |p|^2 = 0.05 + 0.04 cos q2 fixes q2 up to sign, so both IK
// branches of a target made with q2 = +-2.8 have |q2| = 2.8 > 2.5 (and no
// whole turn brings 2.8 into [-2.5, 2.5]): reachable only outside limits.
TEST(IkJointLimitTest, Planar2rElbowBeyondItsLimitOnBothBranches) {
  const TestChain c = LoadTestChain(kPlanar2r);
  ASSERT_NE(c.model, nullptr);
  ASSERT_EQ(c.upper[1], 2.5);
  ChainDataCache cache;
  IkData& ws = cache.For(c.model);
  const IkOptions options;
  for (double q1 : {-2.0, 0.0, 0.7, 3.0}) {
    for (double q2 : {2.8, -2.8, 3.1}) {
      const Eigen::Isometry3d target = c.Fk(Vec({q1, q2}));
      const double r2 = target.translation().squaredNorm();
      const double branch = std::acos((r2 - 0.05) / 0.04);  // closed form, both branches +-
      ASSERT_NEAR(branch, std::abs(q2), 1e-9);
      ASSERT_GT(branch, 2.5);
      const absl::StatusOr<IkResult> r =
          SolveIk(*c.model, ws, Pose::FromIsometry(target), Pose::Identity(), {}, options);
      ExpectWellFormedFailure(c, r, target, options);
      ASSERT_TRUE(r.ok());
      EXPECT_EQ(r->outcome, IkOutcome::kJointLimit)
          << "q = (" << q1 << ", " << q2 << "): " << IkOutcomeName(r->outcome);
      const Diagnostic* d = FindDiagnostic(*r, DiagnosticCode::kJointLimit);
      ASSERT_NE(d, nullptr);
      EXPECT_EQ(d->severity, Severity::kError);
      EXPECT_EQ(d->joint_name, "joint2");
      EXPECT_NEAR(std::abs(WrapToPi(d->value)), std::abs(q2), 1e-4) << d->value;
      EXPECT_TRUE(d->value < -2.5 || d->value > 2.5) << d->value;
      EXPECT_EQ(d->limit, d->value < 0 ? -2.5 : 2.5);
      // In limits |p| >= sqrt(0.05 + 0.04 cos 2.5): the best is that far off.
      EXPECT_GE(r->position_error, std::sqrt(0.05 + 0.04 * std::cos(2.5)) - std::sqrt(r2) - 1e-9);
    }
  }
}

// quirks: |p_xy| <= 0.3 + |0.2 + q3| with the prismatic j3 in [0, 0.1], so
// in limits |p_xy| <= 0.6. A target made with q3 = 0.12 and q2 = 0 lies at
// 0.62 m: every solution needs |0.2 + q3| >= 0.32, i.e. j3 outside [0, 0.1].
// It is 0.622 m from j1's origin, inside the crude reach bound (0.65 m), so
// the solver has to search to find out.
TEST(IkJointLimitTest, QuirksPrismaticBeyondItsStroke) {
  const TestChain c = LoadTestChain(kQuirks);
  ASSERT_NE(c.model, nullptr);
  ChainDataCache cache;
  IkData& ws = cache.For(c.model);
  const IkOptions options;
  for (double q1 : {0.3, -2.0}) {
    const Eigen::Isometry3d target = c.Fk(Vec({q1, 0.0, 0.12, 1.0}));
    ASSERT_NEAR(target.translation().head<2>().norm(), 0.62, 1e-12);
    const absl::StatusOr<IkResult> r =
        SolveIk(*c.model, ws, Pose::FromIsometry(target), Pose::Identity(), {}, options);
    ExpectWellFormedFailure(c, r, target, options);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->outcome, IkOutcome::kJointLimit) << IkOutcomeName(r->outcome);
    const Diagnostic* d = FindDiagnostic(*r, DiagnosticCode::kJointLimit);
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->severity, Severity::kError);
    EXPECT_EQ(d->joint_name, "j3");
    const int dof = c.DofIndex("j3");
    EXPECT_TRUE(d->value > c.upper[dof] + 0.01 || d->value < -0.52) << d->value;
    EXPECT_EQ(d->limit, d->value < c.lower[dof] ? c.lower[dof] : c.upper[dof]);
    EXPECT_GE(r->position_error, 0.62 - 0.6 - 1e-9);
  }
}

// -------------------------------------------------------------- budgets

// A target that is reachable within limits must never be called a joint
// limit problem just because the budget ran out.
TEST(IkBudgetTest, SpentIterationBudgetOnReachableTargetIsNotAJointLimit) {
  const TestChain c = LoadTestChain(kUr5);
  ASSERT_NE(c.model, nullptr);
  ChainDataCache cache;
  IkData& ws = cache.For(c.model);
  std::mt19937_64 rng(21);
  for (int max_iterations : {1, 2, 3}) {
    for (int n = 0; n < 10; ++n) {
      const Eigen::VectorXd q_true = c.Random(rng);
      const Eigen::Isometry3d target = c.Fk(q_true);
      IkOptions options = IterationBoundOptions();
      options.max_iterations = max_iterations;
      const absl::StatusOr<IkResult> r =
          SolveIk(*c.model, ws, Pose::FromIsometry(target), Pose::Identity(), {}, options);
      ASSERT_TRUE(r.ok());
      if (r->ok) continue;
      ExpectWellFormedFailure(c, r, target, options);
      EXPECT_NE(r->outcome, IkOutcome::kJointLimit)
          << "max_iterations " << max_iterations << ", sample " << n
          << ": the target was made from in-limit joints; diagnostic: "
          << (r->diagnostics.empty() ? "" : r->diagnostics.front().message);
    }
  }
}

// Close to a solution when the budget ends: the residual is small, so the
// outcome is the budget (kMaxIterations) with an IK_FAILED diagnostic.
TEST(IkBudgetTest, BudgetSpentNearASolutionIsMaxIterations) {
  const TestChain c = LoadTestChain(kUr5);
  ASSERT_NE(c.model, nullptr);
  ChainDataCache cache;
  IkData& ws = cache.For(c.model);
  std::mt19937_64 rng(22);
  std::normal_distribution<double> noise(0.0, 1e-4);
  for (int n = 0; n < 10; ++n) {
    const Eigen::VectorXd q_true = c.Random(rng);
    const Eigen::Isometry3d target = c.Fk(q_true);
    Eigen::VectorXd seed = q_true;
    for (int i = 0; i < seed.size(); ++i) seed[i] += noise(rng);
    IkOptions options = IterationBoundOptions();
    options.max_iterations = 1;  // one FK evaluation, at the seed
    const absl::StatusOr<IkResult> r =
        SolveIk(*c.model, ws, Pose::FromIsometry(target), Pose::Identity(), ToStd(seed), options);
    ExpectWellFormedFailure(c, r, target, options);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->iterations, 1);
    EXPECT_EQ(r->outcome, IkOutcome::kMaxIterations) << IkOutcomeName(r->outcome);
    EXPECT_TRUE(HasDiagnostic(*r, DiagnosticCode::kIkFailed, Severity::kError));
    EXPECT_LT(r->position_error, 1e-3);
  }
}

// The iteration budget bounds the search on a hopeless target inside the
// reach bound, whatever its size; the call returns.
TEST(IkBudgetTest, IterationBudgetBoundsAHopelessSearch) {
  const TestChain c = LoadTestChain(kUr5);
  ASSERT_NE(c.model, nullptr);
  ChainDataCache cache;
  IkData& ws = cache.For(c.model);
  const Eigen::Isometry3d target = At(Eigen::Vector3d(1.0, 0.0, 0.089159));
  for (int max_iterations : {1, 2, 59, 60, 61, 119, 500, 5000}) {
    IkOptions options = IterationBoundOptions();
    options.max_iterations = max_iterations;
    const absl::StatusOr<IkResult> r =
        SolveIk(*c.model, ws, Pose::FromIsometry(target), Pose::Identity(), {}, options);
    ExpectWellFormedFailure(c, r, target, options);
    ASSERT_TRUE(r.ok());
    EXPECT_GE(r->attempts, 1);
    EXPECT_EQ(r->outcome, IkOutcome::kUnreachable) << IkOutcomeName(r->outcome);
  }
}

// A wall-time budget too small for anything but the first descent: the call
// returns after that descent, with the best residuals.
TEST(IkBudgetTest, TinyTimeBudgetStopsAfterTheFirstDescent) {
  const TestChain c = LoadTestChain(kUr5);
  ASSERT_NE(c.model, nullptr);
  ChainDataCache cache;
  IkData& ws = cache.For(c.model);
  const Eigen::Isometry3d target = At(Eigen::Vector3d(0.0, 1.0, 0.089159));
  IkOptions options;
  options.timeout = 1e-9;
  const absl::StatusOr<IkResult> r =
      SolveIk(*c.model, ws, Pose::FromIsometry(target), Pose::Identity(), {}, options);
  ExpectWellFormedFailure(c, r, target, options);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->attempts, 1);
  EXPECT_EQ(r->outcome, IkOutcome::kUnreachable) << IkOutcomeName(r->outcome);
}

}  // namespace
}  // namespace motion
