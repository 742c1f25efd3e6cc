// ComputeJacobian against central finite differences of the test-side FK,
// and MeasureJacobian against determinants / eigenvalues computed directly
// and hand-derived closed forms.

#include "core/kinematics/jacobian.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include <gtest/gtest.h>
#include <Eigen/Eigenvalues>
#include <Eigen/LU>

#include "independent_fk.h"
#include "unit_test_support.h"

namespace motion {
namespace {

using motion_test::IndependentChain;
using motion_test::IndependentFk;
using motion_test::kPi;
using motion_test::LoadChain;
using motion_test::RandomJoints;
using motion_test::ReadRobotSpec;
using motion_test::RotRpy;
using motion_test::Transform;
using motion_test::WalkChain;

/// Central differences of the independent FK: linear rows from the
/// reference point, angular rows from log(R(q+h) R(q-h)^T) / 2h (the spatial
/// angular velocity, base frame).
Jacobian FiniteDifferenceJacobian(const IndependentChain& chain, const Eigen::VectorXd& q,
                                  const Eigen::Isometry3d& tool, double h = 1e-6) {
  Jacobian j(6, q.size());
  for (int i = 0; i < q.size(); ++i) {
    Eigen::VectorXd plus = q, minus = q;
    plus[i] += h;
    minus[i] -= h;
    const Eigen::Isometry3d tp = IndependentFk(chain, plus) * tool;
    const Eigen::Isometry3d tm = IndependentFk(chain, minus) * tool;
    j.col(i).head<3>() = (tp.translation() - tm.translation()) / (2 * h);
    const Eigen::AngleAxisd log(Eigen::Matrix3d(tp.linear() * tm.linear().transpose()));
    j.col(i).tail<3>() = log.axis() * log.angle() / (2 * h);
  }
  return j;
}

const Eigen::Isometry3d& SomeTool() {
  static const Eigen::Isometry3d tool =
      Transform(RotRpy(Eigen::Vector3d(0.3, -0.2, 1.0)), Eigen::Vector3d(0.05, -0.02, 0.12));
  return tool;
}

struct ChainCase {
  const char* file;
  const char* base;  // "" = default chain
  const char* tip;
};

const ChainCase kChains[] = {
    {"ur5.urdf", "", ""},
    {"ur5e.urdf", "", ""},
    {"ur10.urdf", "", ""},
    {"panda.urdf", "", ""},
    {"panda.urdf", "panda_link0", "panda_hand_tcp"},
    {"panda.urdf", "panda_link0", "panda_rightfinger"},  // mimic, prismatic
    {"iiwa14.urdf", "", ""},
    {"kuka_iiwa14_r820.urdf", "", ""},
    {"abb_irb2400.urdf", "", ""},
    {"abb_irb120.urdf", "", ""},
    {"fanuc_m10ia.urdf", "", ""},
    {"fanuc_lrmate200id.urdf", "", ""},
    {"planar_2r.urdf", "", ""},
    {"quirks.urdf", "", ""},                       // prismatic + continuous
    {"quirks.urdf", "base_link", "finger_right"},  // mimic of an off-chain master
};

class JacobianFiniteDifferenceTest : public ::testing::TestWithParam<ChainCase> {};

TEST_P(JacobianFiniteDifferenceTest, MatchesCentralDifferences) {
  const ChainCase& c = GetParam();
  const auto chain = LoadChain(c.file, c.base, c.tip);
  ASSERT_NE(chain, nullptr);
  const auto spec = ReadRobotSpec(c.file);
  const IndependentChain reference = WalkChain(spec, chain->base_link, chain->tip_link);
  ASSERT_EQ(chain->dof_names, reference.dof_names);
  ChainData data(*chain);
  Jacobian jacobian;
  std::mt19937_64 rng(21);
  double worst_flange = 0, worst_tool = 0;
  for (int i = 0; i < 40; ++i) {
    const Eigen::VectorXd q = RandomJoints(spec, reference, rng, 0.1);

    ComputeJacobian(*chain, data, q, Eigen::Isometry3d::Identity(), jacobian);
    ASSERT_EQ(jacobian.cols(), chain->dof());
    const Jacobian fd = FiniteDifferenceJacobian(reference, q, Eigen::Isometry3d::Identity());
    worst_flange = std::max(worst_flange, (jacobian - fd).cwiseAbs().maxCoeff());

    // Reference point at flange * tool: linear rows change, angular do not.
    ComputeJacobian(*chain, data, q, SomeTool(), jacobian);
    const Jacobian fd_tool = FiniteDifferenceJacobian(reference, q, SomeTool());
    worst_tool = std::max(worst_tool, (jacobian - fd_tool).cwiseAbs().maxCoeff());
  }
  EXPECT_LT(worst_flange, 1e-6);
  EXPECT_LT(worst_tool, 1e-6);
}

INSTANTIATE_TEST_SUITE_P(Robots, JacobianFiniteDifferenceTest, ::testing::ValuesIn(kChains),
                         [](const ::testing::TestParamInfo<ChainCase>& info) {
                           std::string name = info.param.file;
                           name = name.substr(0, name.find('.'));
                           if (info.param.tip[0] != '\0') name += std::string("_") + info.param.tip;
                           return name;
                         });

TEST(JacobianTest, ToolOffsetIsRigidBodyShift) {
  // v_tool = v_flange + w x (p_tool - p_flange), from the Jacobian alone.
  const auto chain = LoadChain("iiwa14.urdf");
  ASSERT_NE(chain, nullptr);
  ChainData data(*chain);
  const Eigen::VectorXd q = Eigen::VectorXd::LinSpaced(7, -0.9, 1.3);
  Jacobian flange, tool;
  ComputeJacobian(*chain, data, q, Eigen::Isometry3d::Identity(), flange);
  ComputeJacobian(*chain, data, q, SomeTool(), tool);
  const auto spec = ReadRobotSpec("iiwa14.urdf");
  const Eigen::Isometry3d t = IndependentFk(WalkChain(spec, "base", "iiwa_link_ee_kuka"), q);
  const Eigen::Vector3d lever = (t * SomeTool()).translation() - t.translation();
  for (int i = 0; i < 7; ++i) {
    const Eigen::Vector3d w = flange.col(i).tail<3>();
    EXPECT_LT((tool.col(i).head<3>() - (flange.col(i).head<3>() + w.cross(lever))).norm(), 1e-12);
    EXPECT_LT((tool.col(i).tail<3>() - w).norm(), 1e-15);
  }
}

// ------------------------------------------------------------ MeasureJacobian

double Relative(double a, double b) { return std::abs(a - b) / std::max(std::abs(b), 1e-300); }

TEST(MeasureJacobianTest, KnownSingularValues) {
  Jacobian j = Jacobian::Zero(6, 3);
  j(0, 0) = 3;  // orthogonal columns: singular values are the column norms
  j(4, 1) = -2;
  j(2, 2) = 0.5;
  const JacobianMeasures m = MeasureJacobian(j);
  ASSERT_EQ(m.singular_values.size(), 3);
  EXPECT_NEAR(m.singular_values[0], 3, 1e-15);
  EXPECT_NEAR(m.singular_values[1], 2, 1e-15);
  EXPECT_NEAR(m.singular_values[2], 0.5, 1e-15);
  EXPECT_NEAR(m.manipulability, 3.0, 1e-14);
  EXPECT_NEAR(m.condition_number, 6.0, 1e-14);

  j.col(2).setZero();  // rank 2
  const JacobianMeasures singular = MeasureJacobian(j);
  EXPECT_EQ(singular.manipulability, 0.0);
  EXPECT_TRUE(std::isinf(singular.condition_number));
}

const char* const kArms[] = {"ur5.urdf",         "ur5e.urdf",
                             "ur10.urdf",        "panda.urdf",
                             "iiwa14.urdf",      "kuka_iiwa14_r820.urdf",
                             "abb_irb2400.urdf", "abb_irb120.urdf",
                             "fanuc_m10ia.urdf", "fanuc_lrmate200id.urdf"};

TEST(MeasureJacobianTest, ArmsMatchDeterminantAndEigenvalues) {
  for (const char* file : kArms) {
    SCOPED_TRACE(file);
    const auto chain = LoadChain(file);
    ASSERT_NE(chain, nullptr);
    ASSERT_GE(chain->dof(), 6);
    const auto spec = ReadRobotSpec(file);
    const IndependentChain reference = WalkChain(spec, chain->base_link, chain->tip_link);
    ChainData data(*chain);
    Jacobian j;
    std::mt19937_64 rng(22);
    for (int i = 0; i < 50; ++i) {
      const Eigen::VectorXd q = RandomJoints(spec, reference, rng);
      ComputeJacobian(*chain, data, q, Eigen::Isometry3d::Identity(), j);
      const JacobianMeasures m = MeasureJacobian(j);
      ASSERT_EQ(m.singular_values.size(), 6);
      for (int k = 1; k < 6; ++k) EXPECT_GE(m.singular_values[k - 1], m.singular_values[k]);
      EXPECT_GE(m.singular_values[5], 0.0);

      // Yoshikawa: w = sqrt(det(J J^T)), computed by LU.
      const Eigen::Matrix<double, 6, 6> jjt = j * j.transpose();
      const double yoshikawa = std::sqrt(std::max(0.0, jjt.determinant()));
      // An LU determinant of J J^T is only as accurate as cond(J)^2 eps allows
      // (seen at 4e-8 relative on aarch64 for a well-conditioned pose); the
      // SVD product is better, so the bound is the determinant's.
      const double tolerance =
          std::max(1e-8, 100.0 * m.condition_number * m.condition_number * 2.2e-16);
      EXPECT_LT(Relative(m.manipulability, yoshikawa), tolerance) << q.transpose();
      if (chain->dof() == 6) {
        EXPECT_LT(
            Relative(m.manipulability, std::abs(Eigen::Matrix<double, 6, 6>(j).determinant())),
            tolerance);
      }
      // Condition number: sqrt of the eigenvalue ratio of J J^T.
      const Eigen::SelfAdjointEigenSolver<Eigen::Matrix<double, 6, 6>> eig(jjt);
      const double cond = std::sqrt(eig.eigenvalues().maxCoeff() / eig.eigenvalues().minCoeff());
      EXPECT_LT(Relative(m.condition_number, cond), 1e-6) << q.transpose();
    }
  }
}

TEST(MeasureJacobianTest, Ur5WristAndElbowSingularities) {
  // Published UR singularities: wrist_2 = 0 makes wrist_1 and wrist_3
  // parallel to shoulder_lift / elbow; elbow = 0 stretches the arm.
  const auto chain = LoadChain("ur5.urdf");
  ASSERT_NE(chain, nullptr);
  ChainData data(*chain);
  Jacobian j;
  std::mt19937_64 rng(23);
  std::uniform_real_distribution<double> u(-kPi, kPi);
  for (int singular_joint : {4, 2}) {
    for (int i = 0; i < 20; ++i) {
      Eigen::VectorXd q(6);
      for (int k = 0; k < 6; ++k) q[k] = u(rng);
      q[singular_joint] = 0.0;
      ComputeJacobian(*chain, data, q, Eigen::Isometry3d::Identity(), j);
      const JacobianMeasures m = MeasureJacobian(j);
      EXPECT_LT(m.manipulability, 1e-12) << q.transpose();
      EXPECT_GT(m.condition_number, 1e8) << q.transpose();
    }
  }
}

// planar_2r, l1 = 0.1, l2 = 0.2. Columns (vx, vy, vz, wx, wy, wz):
//   c1 = (-y, x, 0, 0, 0, 1), c2 = (-l2 sin(q1+q2), l2 cos(q1+q2), 0, 0, 0, 1)
// with |c1|^2 = r^2 + 1, |c2|^2 = l2^2 + 1, c1.c2 = l1 l2 cos q2 + l2^2 + 1 and
// r^2 = l1^2 + l2^2 + 2 l1 l2 cos q2, so
//   det(J^T J) = l1^2 l2^2 sin^2 q2 + l1^2   (the wz row keeps it >= l1^2),
// while the position rows alone give |det J_xy| = l1 l2 |sin q2|.
constexpr double kL1 = 0.1, kL2 = 0.2;

TEST(MeasureJacobianTest, Planar2rClosedForm) {
  const auto chain = LoadChain("planar_2r.urdf");
  ASSERT_NE(chain, nullptr);
  ChainData data(*chain);
  Jacobian j;
  std::mt19937_64 rng(24);
  std::uniform_real_distribution<double> u(-kPi, kPi);
  for (int i = 0; i < 500; ++i) {
    const double q1 = u(rng), q2 = u(rng);
    ComputeJacobian(*chain, data, Eigen::Vector2d(q1, q2), Eigen::Isometry3d::Identity(), j);
    ASSERT_EQ(j.cols(), 2);
    Jacobian expected = Jacobian::Zero(6, 2);
    expected.col(0) << -(kL1 * std::sin(q1) + kL2 * std::sin(q1 + q2)),
        kL1 * std::cos(q1) + kL2 * std::cos(q1 + q2), 0, 0, 0, 1;
    expected.col(1) << -kL2 * std::sin(q1 + q2), kL2 * std::cos(q1 + q2), 0, 0, 0, 1;
    EXPECT_LT((j - expected).cwiseAbs().maxCoeff(), 1e-14);

    const JacobianMeasures m = MeasureJacobian(j);
    ASSERT_EQ(m.singular_values.size(), 2);  // min(6, n) values for n < 6
    const double s2 = std::sin(q2);
    const double closed_form = std::sqrt(kL1 * kL1 * kL2 * kL2 * s2 * s2 + kL1 * kL1);
    EXPECT_LT(Relative(m.manipulability, closed_form), 1e-12);
    const double direct = std::sqrt((Eigen::MatrixXd(j).transpose() * j).determinant());
    EXPECT_LT(Relative(m.manipulability, direct), 1e-10);
    // Sum of squared singular values = squared Frobenius norm.
    const double r2 = kL1 * kL1 + kL2 * kL2 + 2 * kL1 * kL2 * std::cos(q2);
    EXPECT_NEAR(m.singular_values.squaredNorm(), r2 + 1 + kL2 * kL2 + 1, 1e-13);

    // Position rows only: the 2R manipulability l1 l2 |sin q2|.
    Jacobian xy = Jacobian::Zero(6, 2);
    xy.topRows<2>() = j.topRows<2>();
    EXPECT_NEAR(MeasureJacobian(xy).manipulability, kL1 * kL2 * std::abs(s2), 1e-15);
  }
}

TEST(MeasureJacobianTest, Planar2rStraightArm) {
  const auto chain = LoadChain("planar_2r.urdf");
  ASSERT_NE(chain, nullptr);
  ChainData data(*chain);
  Jacobian j;
  for (double q1 : {0.0, 0.4, -1.7, 3.0}) {
    ComputeJacobian(*chain, data, Eigen::Vector2d(q1, 0.0), Eigen::Isometry3d::Identity(), j);
    // The full 6-row Jacobian stays rank 2 (wz row): manipulability l1, not 0.
    const JacobianMeasures full = MeasureJacobian(j);
    EXPECT_NEAR(full.manipulability, kL1, 1e-14);
    // In the plane of motion the straight arm is singular.
    Jacobian xy = Jacobian::Zero(6, 2);
    xy.topRows<2>() = j.topRows<2>();
    const JacobianMeasures planar = MeasureJacobian(xy);
    EXPECT_LT(planar.manipulability, 1e-15) << q1;
    EXPECT_TRUE(std::isinf(planar.condition_number) || planar.condition_number > 1e12)
        << q1 << ": " << planar.condition_number;
  }
}

}  // namespace
}  // namespace motion
