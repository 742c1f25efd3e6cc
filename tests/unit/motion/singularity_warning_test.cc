// WarnIfNearSingular: the smallest singular value it reports is the one of
// the Jacobian taken here by central differences of the test's own URDF FK
// (position and rotation of the TCP, tool included), decomposed by Eigen's
// SVD; it warns below the threshold and only there, on arms of 6 and 7
// joints.

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>
#include <Eigen/Geometry>
#include <Eigen/SVD>

#include "core/kinematics/chain_data.h"
#include "core/motion/internal/trajectory_checks.h"
#include "motion_test_support.h"

namespace motion {
namespace {

using motion_test::LoadRobot;
using motion_test::Robot;

// 6 x dof Jacobian of tip * tool by central differences: linear velocity of
// the reference point, then angular velocity (vee of dR R^T), base frame.
Eigen::MatrixXd DifferenceJacobian(const Robot& robot, const Eigen::VectorXd& q,
                                   const Eigen::Isometry3d& tool) {
  const double h = 1e-6;
  const int dof = static_cast<int>(q.size());
  Eigen::MatrixXd j(6, dof);
  const Eigen::Matrix3d r0 = (IndependentFk(robot.ichain, q) * tool).linear();
  for (int k = 0; k < dof; ++k) {
    Eigen::VectorXd plus = q, minus = q;
    plus[k] += h;
    minus[k] -= h;
    const Eigen::Isometry3d a = IndependentFk(robot.ichain, plus) * tool;
    const Eigen::Isometry3d b = IndependentFk(robot.ichain, minus) * tool;
    j.block<3, 1>(0, k) = (a.translation() - b.translation()) / (2 * h);
    const Eigen::Matrix3d w = (a.linear() - b.linear()) / (2 * h) * r0.transpose();
    j.block<3, 1>(3, k) =
        Eigen::Vector3d(w(2, 1) - w(1, 2), w(0, 2) - w(2, 0), w(1, 0) - w(0, 1)) / 2;
  }
  return j;
}

// The value in "... smallest singular value X" of the warning, or -1.
double ReportedValue(const SegmentReport& report) {
  for (const Diagnostic& d : report.diagnostics) {
    const std::string key = "smallest singular value ";
    const std::size_t at = d.message.find(key);
    if (d.code == DiagnosticCode::kSingularity && at != std::string::npos) {
      return std::strtod(d.message.c_str() + at + key.size(), nullptr);
    }
  }
  return -1;
}

void ExpectWarnsExactlyBelowTheThreshold(const std::string& file, Eigen::VectorXd q, int joint) {
  SCOPED_TRACE(file);
  const Robot robot = LoadRobot(file);
  ASSERT_NE(robot.chain, nullptr);
  ChainData data(*robot.chain);
  Eigen::Isometry3d tool = Eigen::Isometry3d::Identity();
  tool.translation() = Eigen::Vector3d(0.01, -0.02, 0.12);
  // Towards the singularity where `joint` is 0: the value shrinks with it.
  for (double angle : {0.8, 0.05, 2e-4}) {
    q[joint] = angle;
    SegmentReport report;
    const bool warned = WarnIfNearSingular(*robot.chain, data, q, tool, 7, 0.028, report);
    Eigen::JacobiSVD<Eigen::MatrixXd> svd(DifferenceJacobian(robot, q, tool));
    const double expected = svd.singularValues().tail<1>()[0];
    SCOPED_TRACE("angle " + std::to_string(angle) + ", independent value " +
                 std::to_string(expected));
    EXPECT_EQ(warned, expected < kSingularityThreshold);
    std::printf("[ figures  ] %s at %g: independent %.3e, reported %.3e\n", file.c_str(), angle,
                expected, ReportedValue(report));
    // At 2e-4 rad from the singularity the value is far below the threshold.
    if (angle < 1e-3) {
      EXPECT_TRUE(warned);
    }
    if (warned) {
      EXPECT_NEAR(ReportedValue(report), expected, 1e-6);
    }
  }
}

TEST(SingularityWarningTest, Ur5WristReportsTheSmallestSingularValueOfTheJacobian) {
  Eigen::VectorXd q(6);
  q << 0.3, -1.2, 1.4, -0.9, 0.0, 0.4;
  ExpectWarnsExactlyBelowTheThreshold("ur5.urdf", q, 4);
}

TEST(SingularityWarningTest, SevenJointArmReportsTheSmallestSingularValueOfTheJacobian) {
  // The iiwa's elbow (joint 4) stretching out: its 6 x 7 Jacobian loses
  // rank at 0 (the wrist cannot move along the arm).
  Eigen::VectorXd q(7);
  q << 0.2, 0.5, 0.1, -1.2, 0.3, 1.0, 0.0;
  ExpectWarnsExactlyBelowTheThreshold("iiwa14.urdf", q, 3);
}

}  // namespace
}  // namespace motion
