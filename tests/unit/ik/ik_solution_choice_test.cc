// Which solution SolveIk returns when there are several: the seed itself,
// the branch nearest the seed (IkMode::kClosest), every branch (IkMode::kAll),
// and the whole-turn representative of rotary joints nearest the seed. The
// branches are known in closed form, derived by hand from the URDF numbers
// and checked against the independent FK before they are used.

#include <algorithm>
#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "ik_test_support.h"

namespace motion {
namespace {

using motion_test::ArmName;
using motion_test::ArmSpec;
using motion_test::BundledArms;
using motion_test::CheckAgainstTarget;
using motion_test::IterationBoundOptions;
using motion_test::kPi;
using motion_test::kPlanar2r;
using motion_test::kQuirks;
using motion_test::kTwoPi;
using motion_test::kUr5;
using motion_test::LoadTestChain;
using motion_test::RotationDistance;
using motion_test::TestChain;
using motion_test::ToStd;
using motion_test::Vec;
using motion_test::WrapToPi;

// IK answers are exact to the pose tolerance (1e-5), so joints to ~1e-4 at
// worst on these well-conditioned poses; branches are >= 0.4 rad apart.
constexpr double kJointMatch = 1e-4;

// UR5's lift, elbow and wrist-1 joints have parallel axes: from shoulder_link
// to wrist_1_link the chain is a planar 3R arm with a zero-length last link.
const ArmSpec kUr5Planar3r{"ur5_planar_3r", "ur5.urdf", "shoulder_link", "wrist_1_link"};

// v + 2 pi k nearest `ref` within [lo, hi] (v itself when none is).
double NearestTurn(double v, double ref, double lo, double hi) {
  double best = v;
  bool found = false;
  const double base = v + kTwoPi * std::round((ref - v) / kTwoPi);
  for (int k = -2; k <= 2; ++k) {
    const double c = base + k * kTwoPi;
    if (c >= lo && c <= hi && (!found || std::abs(c - ref) < std::abs(best - ref))) {
      best = c;
      found = true;
    }
  }
  return best;
}

Eigen::VectorXd NearestTurns(const TestChain& c, Eigen::VectorXd q, const Eigen::VectorXd& ref) {
  for (int i = 0; i < c.dof(); ++i) {
    if (c.type[i] != "prismatic") q[i] = NearestTurn(q[i], ref[i], c.lower[i], c.upper[i]);
  }
  return q;
}

// ---------------------------------------------------------- UR5 planar 3R

// By hand from ur5.urdf, in shoulder_link: with h = 1.57079632679 (the
// URDF's pi/2) and a = h + q2,
//   p = (0, 0.13585 - 0.1197, 0) + (0.425 sin a + 0.39225 sin(a + q3), 0,
//                                   0.425 cos a + 0.39225 cos(a + q3)),
//   R = RotY(2 h + q2 + q3 + q4).
// Two branches: q3 = +-acos(.), then q2, then q4 from the orientation.
std::vector<Eigen::VectorXd> Ur5Planar3rBranches(const Eigen::Isometry3d& t) {
  constexpr double h = 1.57079632679, l1 = 0.425, l2 = 0.39225;
  const double u = t.translation().z(), v = t.translation().x();
  const double c3 = (u * u + v * v - l1 * l1 - l2 * l2) / (2 * l1 * l2);
  const double phi = std::atan2(t.linear()(0, 2), t.linear()(0, 0));
  std::vector<Eigen::VectorXd> out;
  for (double sign : {1.0, -1.0}) {
    const double q3 = sign * std::acos(std::clamp(c3, -1.0, 1.0));
    const double a = std::atan2(v, u) - std::atan2(l2 * std::sin(q3), l1 + l2 * std::cos(q3));
    const double q2 = WrapToPi(a - h);
    const double q4 = WrapToPi(phi - 2 * h - q2 - q3);
    out.push_back(Vec({q2, q3, q4}));
  }
  return out;
}

TEST(IkSolutionChoiceTest, Ur5Planar3rClosedFormBranchesAreSolutions) {
  const TestChain c = LoadTestChain(kUr5Planar3r);
  ASSERT_NE(c.model, nullptr);
  ASSERT_EQ(c.dof(), 3);
  ASSERT_EQ(c.model->dof_names[1], "elbow_joint");
  std::mt19937_64 rng(31);
  for (int n = 0; n < 200; ++n) {
    const Eigen::VectorXd q = c.Random(rng);
    const Eigen::Isometry3d target = c.Fk(q);
    const auto branches = Ur5Planar3rBranches(target);
    bool matches_q = false;
    for (const Eigen::VectorXd& b : branches) {
      const Eigen::Isometry3d t = c.Fk(b);
      EXPECT_LT((t.translation() - target.translation()).norm(), 1e-9);
      EXPECT_LT(std::abs(RotationDistance(t.linear(), target.linear())), 1e-9);
      matches_q |= std::abs(WrapToPi(b[0] - q[0])) < 1e-9 && std::abs(b[1] - q[1]) < 1e-9 &&
                   std::abs(WrapToPi(b[2] - q[2])) < 1e-9;
    }
    EXPECT_TRUE(matches_q);
  }
}

// kAll finds both branches (each mapped to the whole turn nearest the seed),
// closest to the seed first; kClosest returns the one nearer the seed, from
// seeds near either branch; so does kFirst, whose first descent starts there.
TEST(IkSolutionChoiceTest, Ur5Planar3rModesReturnTheBranchesNearestTheSeed) {
  const TestChain c = LoadTestChain(kUr5Planar3r);
  ASSERT_NE(c.model, nullptr);
  ChainDataCache cache;
  IkData& ws = cache.For(c.model);
  std::mt19937_64 rng(32);
  std::normal_distribution<double> noise(0.0, 0.1);
  int tested = 0;
  while (tested < 40) {
    const Eigen::VectorXd q = c.Random(rng);
    if (std::abs(std::sin(q[1])) < 0.3) continue;  // branches too close to tell apart
    ++tested;
    const Eigen::Isometry3d target = c.Fk(q);
    const auto branches = Ur5Planar3rBranches(target);
    for (int near = 0; near < 2; ++near) {
      Eigen::VectorXd seed = c.Random(rng);  // other joints anywhere, then near a branch
      for (int i = 0; i < 3; ++i) seed[i] = branches[near][i] + noise(rng);
      // Sometimes a whole turn away on the lift joint, when that stays in limits.
      const double turned = seed[0] + kTwoPi * (tested % 3 - 1);
      if (turned >= c.lower[0] && turned <= c.upper[0]) seed[0] = turned;
      const Eigen::VectorXd expected_near = NearestTurns(c, branches[near], seed);
      const Eigen::VectorXd expected_far = NearestTurns(c, branches[1 - near], seed);
      ASSERT_LT((expected_near - seed).norm(), (expected_far - seed).norm());

      IkOptions all = IterationBoundOptions();
      all.mode = IkMode::kAll;
      all.max_solutions = 8;
      const absl::StatusOr<IkResult> r_all =
          SolveIk(*c.model, ws, Pose::FromIsometry(target), Pose::Identity(), ToStd(seed), all);
      ASSERT_TRUE(r_all.ok()) << r_all.status();
      ASSERT_TRUE(r_all->ok);
      ASSERT_EQ(r_all->solutions.size(), 2u) << "seed near branch " << near;
      EXPECT_LE((r_all->solutions[0] - expected_near).cwiseAbs().maxCoeff(), kJointMatch)
          << r_all->solutions[0].transpose() << " vs " << expected_near.transpose();
      EXPECT_LE((r_all->solutions[1] - expected_far).cwiseAbs().maxCoeff(), kJointMatch)
          << r_all->solutions[1].transpose() << " vs " << expected_far.transpose();
      EXPECT_EQ(r_all->joints, r_all->solutions[0]);
      for (const Eigen::VectorXd& s : r_all->solutions) {
        EXPECT_TRUE(CheckAgainstTarget(c, s, target).Pass());
      }

      for (IkMode mode : {IkMode::kClosest, IkMode::kFirst}) {
        IkOptions options = IterationBoundOptions();
        options.mode = mode;
        options.max_solutions = 2;
        const absl::StatusOr<IkResult> r = SolveIk(*c.model, ws, Pose::FromIsometry(target),
                                                   Pose::Identity(), ToStd(seed), options);
        ASSERT_TRUE(r.ok());
        ASSERT_TRUE(r->ok);
        EXPECT_TRUE(r->solutions.empty());
        EXPECT_TRUE(CheckAgainstTarget(c, r->joints, target).Pass());
        EXPECT_LE((r->joints - expected_near).cwiseAbs().maxCoeff(), kJointMatch)
            << (mode == IkMode::kClosest ? "kClosest" : "kFirst") << ": " << r->joints.transpose()
            << " vs " << expected_near.transpose();
      }
    }
  }
}

// kClosest keeps searching after the first answer: from a seed anywhere in
// the limits (where the first descent may well land on the far branch) it
// returns the branch nearer the seed in joint space.
TEST(IkSolutionChoiceTest, Ur5Planar3rClosestIsNearestInJointSpaceForAnySeed) {
  const TestChain c = LoadTestChain(kUr5Planar3r);
  ASSERT_NE(c.model, nullptr);
  ChainDataCache cache;
  IkData& ws = cache.For(c.model);
  std::mt19937_64 rng(33);
  int tested = 0;
  while (tested < 100) {
    const Eigen::VectorXd q = c.Random(rng);
    if (std::abs(std::sin(q[1])) < 0.3) continue;
    const Eigen::VectorXd seed = c.Random(rng);
    const Eigen::Isometry3d target = c.Fk(q);
    const auto branches = Ur5Planar3rBranches(target);
    const Eigen::VectorXd a = NearestTurns(c, branches[0], seed);
    const Eigen::VectorXd b = NearestTurns(c, branches[1], seed);
    const double da = (a - seed).norm(), db = (b - seed).norm();
    if (std::abs(da - db) < 1e-2) continue;  // a tie: either is right
    ++tested;
    IkOptions options = IterationBoundOptions();
    options.mode = IkMode::kClosest;
    options.max_solutions = 2;
    const absl::StatusOr<IkResult> r =
        SolveIk(*c.model, ws, Pose::FromIsometry(target), Pose::Identity(), ToStd(seed), options);
    ASSERT_TRUE(r.ok());
    ASSERT_TRUE(r->ok);
    const Eigen::VectorXd& expected = da < db ? a : b;
    EXPECT_LE((r->joints - expected).cwiseAbs().maxCoeff(), kJointMatch)
        << "seed " << seed.transpose() << ": " << r->joints.transpose() << " vs "
        << expected.transpose();
  }
}

// ------------------------------------------------------------- planar_2r

// planar_2r has two branches for a position (q2 = +-acos((r^2 - 0.05) /
// 0.04)), but a pose also fixes yaw = q1 + q2, and the two branches' yaws
// differ unless q2 = 0 or pi: a full pose has exactly one solution. kAll
// returns that one; kClosest returns it even from a seed at the other
// position branch.
TEST(IkSolutionChoiceTest, Planar2rPoseHasOneBranchWhateverTheSeed) {
  const TestChain c = LoadTestChain(kPlanar2r);
  ASSERT_NE(c.model, nullptr);
  ChainDataCache cache;
  IkData& ws = cache.For(c.model);
  std::mt19937_64 rng(34);
  int tested = 0;
  while (tested < 50) {
    const Eigen::VectorXd q = c.Random(rng);
    if (std::abs(std::sin(q[1])) < 0.3) continue;
    ++tested;
    const Eigen::Isometry3d target = c.Fk(q);
    const double x = target.translation().x(), y = target.translation().y();
    const double yaw = std::atan2(target.linear()(1, 0), target.linear()(0, 0));
    Eigen::VectorXd position_branches[2];
    int pose_branch = -1;
    for (int k = 0; k < 2; ++k) {
      const double q2 = (k == 0 ? 1 : -1) * std::acos((x * x + y * y - 0.05) / 0.04);
      const double q1 =
          WrapToPi(std::atan2(y, x) - std::atan2(0.2 * std::sin(q2), 0.1 + 0.2 * std::cos(q2)));
      position_branches[k] = Vec({q1, q2});
      if (std::abs(WrapToPi(q1 + q2 - yaw)) < 1e-9) pose_branch = k;
    }
    ASSERT_GE(pose_branch, 0);
    ASSERT_GT(std::abs(WrapToPi(position_branches[1 - pose_branch].sum() - yaw)), 0.1);
    for (const Eigen::VectorXd& seed : {position_branches[0], position_branches[1]}) {
      for (IkMode mode : {IkMode::kClosest, IkMode::kAll}) {
        IkOptions options = IterationBoundOptions();
        options.mode = mode;
        options.max_iterations = 1000;
        const absl::StatusOr<IkResult> r = SolveIk(*c.model, ws, Pose::FromIsometry(target),
                                                   Pose::Identity(), ToStd(seed), options);
        ASSERT_TRUE(r.ok());
        ASSERT_TRUE(r->ok);
        const Eigen::VectorXd expected = NearestTurns(c, position_branches[pose_branch], seed);
        EXPECT_LE((r->joints - expected).cwiseAbs().maxCoeff(), kJointMatch);
        if (mode == IkMode::kAll) {
          EXPECT_EQ(r->solutions.size(), 1u);
        }
      }
    }
  }
}

// -------------------------------------------------------- whole turns

// quirks' j4 is continuous: the answer is the representative nearest the
// seed, however far the seed is from [-pi, pi].
TEST(IkSolutionChoiceTest, ContinuousJointComesBackNearestTheSeed) {
  const TestChain c = LoadTestChain(kQuirks);
  ASSERT_NE(c.model, nullptr);
  const int j4 = c.DofIndex("j4");
  ASSERT_EQ(j4, 3);
  ASSERT_EQ(c.type[j4], "continuous");
  ChainDataCache cache;
  IkData& ws = cache.For(c.model);
  std::mt19937_64 rng(35);
  for (double seed_j4 : {10.0, 9.5, 10.0 + kPi - 0.01, -10.0, 25.0, -40.3}) {
    for (int n = 0; n < 20; ++n) {
      const Eigen::VectorXd q = c.Random(rng);
      const Eigen::Isometry3d target = c.Fk(q);
      for (bool seed_near_answer : {true, false}) {
        Eigen::VectorXd seed = seed_near_answer ? q : c.MidRange();
        seed[j4] = seed_j4;
        const absl::StatusOr<IkResult> r =
            SolveIk(*c.model, ws, Pose::FromIsometry(target), Pose::Identity(), ToStd(seed),
                    IterationBoundOptions());
        ASSERT_TRUE(r.ok());
        ASSERT_TRUE(r->ok);
        EXPECT_TRUE(CheckAgainstTarget(c, r->joints, target).Pass());
        EXPECT_LE(std::abs(r->joints[j4] - seed_j4), kPi + 1e-9)
            << "seed j4 " << seed_j4 << ", answer j4 " << r->joints[j4];
      }
    }
  }
}

// UR5 joints span +-2 pi: of the two whole-turn equivalents within limits
// the one nearer the seed comes back.
TEST(IkSolutionChoiceTest, Ur5WholeTurnEquivalentNearestTheSeed) {
  const TestChain c = LoadTestChain(kUr5);
  ASSERT_NE(c.model, nullptr);
  ChainDataCache cache;
  IkData& ws = cache.For(c.model);
  struct Case {
    Eigen::VectorXd q;
    Eigen::VectorXd turns;  // whole turns added to q to make the seed
  };
  const Case cases[] = {
      {Vec({-1.0, -1.2, 1.4, -0.9, 1.1, -2.0}), Vec({1, 0, 0, 0, 0, 1})},
      {Vec({0.5, -2.0, -1.0, 1.5, -0.7, 3.0}), Vec({-1, 1, 0, -1, 0, -1})},
      {Vec({2.5, -0.4, 2.0, -2.5, 2.2, 0.3}), Vec({-1, 0, 0, 1, -1, 0})},
  };
  std::mt19937_64 rng(36);
  std::normal_distribution<double> noise(0.0, 0.05);
  for (const Case& k : cases) {
    const Eigen::VectorXd expected = k.q + kTwoPi * k.turns;
    ASSERT_LT(c.FirstOutside(expected), 0);
    const Eigen::Isometry3d target = c.Fk(k.q);
    for (int n = 0; n < 10; ++n) {
      Eigen::VectorXd seed = expected;
      for (int i = 0; i < seed.size(); ++i) seed[i] += noise(rng);
      const absl::StatusOr<IkResult> r =
          SolveIk(*c.model, ws, Pose::FromIsometry(target), Pose::Identity(), ToStd(seed),
                  IterationBoundOptions());
      ASSERT_TRUE(r.ok());
      ASSERT_TRUE(r->ok);
      EXPECT_TRUE(CheckAgainstTarget(c, r->joints, target).Pass());
      EXPECT_LE((r->joints - expected).cwiseAbs().maxCoeff(), kJointMatch)
          << r->joints.transpose() << " vs " << expected.transpose();
    }
  }
}

// On every arm: whatever branch an answer is on, no whole-turn equivalent of
// one of its rotary joints is within limits and nearer the seed.
class IkWholeTurnTest : public testing::TestWithParam<ArmSpec> {};

TEST_P(IkWholeTurnTest, NoInLimitWholeTurnEquivalentIsNearerTheSeed) {
  const TestChain c = LoadTestChain(GetParam());
  ASSERT_NE(c.model, nullptr);
  ChainDataCache cache;
  IkData& ws = cache.For(c.model);
  std::mt19937_64 rng(37);
  for (int n = 0; n < 100; ++n) {
    const Eigen::Isometry3d target = c.Fk(c.Random(rng));
    Eigen::VectorXd seed = c.Random(rng);
    for (int i = 0; i < c.dof(); ++i) {  // continuous joints: seeds up to 3 turns out
      if (c.type[i] == "continuous") seed[i] += kTwoPi * (n % 7 - 3);
    }
    const absl::StatusOr<IkResult> r =
        SolveIk(*c.model, ws, Pose::FromIsometry(target), Pose::Identity(), ToStd(seed),
                IterationBoundOptions());
    ASSERT_TRUE(r.ok());
    if (!r->ok) continue;
    EXPECT_TRUE(CheckAgainstTarget(c, r->joints, target).Pass());
    for (int i = 0; i < c.dof(); ++i) {
      if (c.type[i] == "prismatic") continue;
      const double v = r->joints[i];
      for (int k = -3; k <= 3; ++k) {
        const double other = v + k * kTwoPi;
        if (k == 0 || other < c.lower[i] || other > c.upper[i]) continue;
        EXPECT_GE(std::abs(other - seed[i]), std::abs(v - seed[i]) - 1e-9)
            << c.model->dof_names[i] << ": answer " << v << ", seed " << seed[i] << ", but "
            << other << " is within limits and nearer";
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(BundledArms, IkWholeTurnTest, testing::ValuesIn(BundledArms()), ArmName);

}  // namespace
}  // namespace motion
