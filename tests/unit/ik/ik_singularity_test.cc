// A solution near a singularity is still ok, but comes with a SINGULARITY
// warning; min_singular_value is checked against a Jacobian obtained by
// central differences of the independent FK (not core's Jacobian).

#include <random>

#include <gtest/gtest.h>
#include <Eigen/SVD>

#include "ik_test_support.h"

namespace motion {
namespace {

using motion_test::CheckAgainstTarget;
using motion_test::HasDiagnostic;
using motion_test::IterationBoundOptions;
using motion_test::kUr5;
using motion_test::LoadTestChain;
using motion_test::TestChain;
using motion_test::ToStd;
using motion_test::Vec;

// Geometric Jacobian at the TCP (rows v, w in the base frame) by central
// differences of the independent FK.
Eigen::MatrixXd NumericJacobian(const TestChain& c, const Eigen::VectorXd& q,
                                const Eigen::Isometry3d& tool) {
  constexpr double h = 1e-6;
  Eigen::MatrixXd j(6, c.dof());
  for (int i = 0; i < c.dof(); ++i) {
    Eigen::VectorXd plus = q, minus = q;
    plus[i] += h;
    minus[i] -= h;
    const Eigen::Isometry3d a = c.Fk(plus) * tool, b = c.Fk(minus) * tool;
    j.col(i).head<3>() = (a.translation() - b.translation()) / (2 * h);
    const Eigen::AngleAxisd w(a.linear() * b.linear().transpose());
    j.col(i).tail<3>() = w.angle() * w.axis() / (2 * h);
  }
  return j;
}

double NumericMinSingularValue(const TestChain& c, const Eigen::VectorXd& q,
                               const Eigen::Isometry3d& tool = Eigen::Isometry3d::Identity()) {
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(NumericJacobian(c, q, tool));
  return svd.singularValues()(svd.singularValues().size() - 1);
}

class IkSingularityTest : public testing::Test {
 protected:
  void SetUp() override {
    chain_ = LoadTestChain(kUr5);
    ASSERT_NE(chain_.model, nullptr);
    ASSERT_EQ(chain_.model->dof_names[4], "wrist_2_joint");
  }

  absl::StatusOr<IkResult> Solve(const Eigen::VectorXd& from, const Eigen::VectorXd& seed,
                                 const IkOptions& options = IterationBoundOptions()) {
    return SolveIk(*chain_.model, cache_.For(chain_.model), Pose::FromIsometry(chain_.Fk(from)),
                   Pose::Identity(), ToStd(seed), options);
  }

  TestChain chain_;
  ChainDataCache cache_;
};

// wrist_2_joint = 0 lines up the wrist-1 and wrist-3 axes: sigma_min = 0.
TEST_F(IkSingularityTest, WristSingularSolutionIsOkWithAWarning) {
  const Eigen::VectorXd q = Vec({0.3, -1.2, 1.3, -0.5, 0.0, 0.2});
  ASSERT_LT(NumericMinSingularValue(chain_, q), 1e-6);
  std::mt19937_64 rng(51);
  std::normal_distribution<double> noise(0.0, 0.02);
  for (int n = 0; n < 10; ++n) {
    Eigen::VectorXd seed = q;
    if (n > 0) {
      for (int i = 0; i < seed.size(); ++i) seed[i] += noise(rng);
    }
    const absl::StatusOr<IkResult> r = Solve(q, seed);
    ASSERT_TRUE(r.ok()) << r.status();
    ASSERT_TRUE(r->ok) << "seed " << seed.transpose();
    EXPECT_TRUE(CheckAgainstTarget(chain_, r->joints, chain_.Fk(q)).Pass());
    EXPECT_LT(r->min_singular_value, IkOptions{}.singularity_threshold);
    EXPECT_NEAR(r->min_singular_value, NumericMinSingularValue(chain_, r->joints), 1e-6);
    EXPECT_TRUE(HasDiagnostic(*r, DiagnosticCode::kSingularity, Severity::kWarning))
        << "sigma_min " << r->min_singular_value;
    EXPECT_FALSE(HasDiagnostic(*r, DiagnosticCode::kSingularity, Severity::kError));
  }
}

// elbow_joint = 0 stretches the arm: sigma_min = 0 as well.
TEST_F(IkSingularityTest, StretchedElbowSolutionIsOkWithAWarning) {
  const Eigen::VectorXd q = Vec({-0.4, -0.6, 0.0, -1.1, 0.9, 1.0});
  ASSERT_LT(NumericMinSingularValue(chain_, q), 1e-6);
  const absl::StatusOr<IkResult> r = Solve(q, q);
  ASSERT_TRUE(r.ok());
  ASSERT_TRUE(r->ok);
  EXPECT_TRUE(HasDiagnostic(*r, DiagnosticCode::kSingularity, Severity::kWarning));
}

// Away from singularities: no warning, and min_singular_value is the
// independent Jacobian's.
TEST_F(IkSingularityTest, WellConditionedSolutionHasNoWarning) {
  std::mt19937_64 rng(52);
  int tested = 0;
  while (tested < 50) {
    const Eigen::VectorXd q = chain_.Random(rng);
    const double sigma = NumericMinSingularValue(chain_, q);
    if (sigma < 0.05) continue;
    ++tested;
    const absl::StatusOr<IkResult> r = Solve(q, q);
    ASSERT_TRUE(r.ok());
    ASSERT_TRUE(r->ok);
    EXPECT_NEAR(r->min_singular_value, sigma, 1e-6);
    EXPECT_FALSE(HasDiagnostic(*r, DiagnosticCode::kSingularity, Severity::kWarning))
        << "sigma_min " << r->min_singular_value;
  }
}

// The threshold is an option: the same solution is flagged or not.
TEST_F(IkSingularityTest, ThresholdOptionDecides) {
  const Eigen::VectorXd q = Vec({0.3, -1.2, 1.3, -0.5, 1.0, 0.2});
  const double sigma = NumericMinSingularValue(chain_, q);
  ASSERT_GT(sigma, 0.02);
  IkOptions above = IterationBoundOptions(), below = IterationBoundOptions();
  above.singularity_threshold = sigma + 0.01;
  below.singularity_threshold = sigma - 0.01;
  const absl::StatusOr<IkResult> flagged = Solve(q, q, above);
  const absl::StatusOr<IkResult> clean = Solve(q, q, below);
  ASSERT_TRUE(flagged.ok() && clean.ok());
  ASSERT_TRUE(flagged->ok && clean->ok);
  EXPECT_TRUE(HasDiagnostic(*flagged, DiagnosticCode::kSingularity, Severity::kWarning));
  EXPECT_FALSE(HasDiagnostic(*clean, DiagnosticCode::kSingularity, Severity::kWarning));
}

// The warning depends on the TCP: sigma_min is of the Jacobian at tip * tool.
TEST_F(IkSingularityTest, MinSingularValueIsAtTheTcp) {
  Eigen::Isometry3d tool = Eigen::Isometry3d::Identity();
  tool.translation() = Eigen::Vector3d(0.1, 0.0, 0.3);
  const Eigen::VectorXd q = Vec({0.3, -1.2, 1.3, -0.5, 1.0, 0.2});
  const absl::StatusOr<IkResult> r =
      SolveIk(*chain_.model, cache_.For(chain_.model), Pose::FromIsometry(chain_.Fk(q) * tool),
              Pose::FromIsometry(tool), ToStd(q), IterationBoundOptions());
  ASSERT_TRUE(r.ok());
  ASSERT_TRUE(r->ok);
  EXPECT_NEAR(r->min_singular_value, NumericMinSingularValue(chain_, r->joints, tool), 1e-6);
}

}  // namespace
}  // namespace motion
