// MissingDynamicsData, GravityTorqueShortfall and DynamicsUnavailableWarning on the bundled
// robots: real data is usable, missing inertials or efforts are named, placeholder efforts
// (1 N*m everywhere) are caught by the gravity check.

#include "core/dynamics/dynamics_availability.h"

#include <regex>
#include <string>

#include <gtest/gtest.h>

#include "core/dynamics/payload.h"
#include "core/model/robot_model.h"
#include "unit_test_support.h"

namespace motion {
namespace {

class CompleteRobotTest : public ::testing::TestWithParam<const char*> {};

TEST_P(CompleteRobotTest, RealInertialsAndEffortsAreUsable) {
  const auto chain = motion_test::LoadChain(GetParam());
  ASSERT_NE(chain, nullptr);
  EXPECT_EQ(chain->dynamics_missing, "");
  EXPECT_EQ(MissingDynamicsData(*chain, chain->dof_limits), "");
  const auto shortfall = GravityTorqueShortfall(*chain, chain->dof_limits, kDefaultGravity);
  EXPECT_FALSE(shortfall.has_value())
      << chain->dof_names[shortfall->dof] << " needs " << shortfall->torque << " in the "
      << shortfall->configuration << " pose, limit " << shortfall->limit;
  EXPECT_FALSE(DynamicsUnavailableWarning(*chain, chain->dof_limits, kDefaultGravity, true));
  for (const JointLimits& l : chain->dof_limits) {
    EXPECT_GT(l.max_torque, 0);
    EXPECT_EQ(l.torque_source, "urdf");
  }
}

INSTANTIATE_TEST_SUITE_P(Dynamics, CompleteRobotTest,
                         ::testing::Values("ur5.urdf", "ur10.urdf", "panda.urdf", "iiwa14.urdf"));

TEST(DynamicsAvailabilityTest, NoInertialsNamesTheFirstMovingLink) {
  const auto chain = motion_test::LoadChain("fanuc_lrmate200id.urdf");
  ASSERT_NE(chain, nullptr);
  EXPECT_EQ(chain->dynamics_missing,
            "link 'link_1' (moved by joint 'joint_1') has no <inertial> or zero mass");
  EXPECT_EQ(MissingDynamicsData(*chain, chain->dof_limits), chain->dynamics_missing);
  const auto warning = DynamicsUnavailableWarning(*chain, chain->dof_limits, kDefaultGravity, true);
  ASSERT_TRUE(warning.has_value());
  EXPECT_EQ(warning->severity, Severity::kWarning);
  EXPECT_EQ(warning->code, DiagnosticCode::kDynamicsUnavailable);
  EXPECT_NE(warning->message.find("link_1"), std::string::npos) << warning->message;
  EXPECT_NE(warning->message.find("payload"), std::string::npos) << warning->message;
}

TEST(DynamicsAvailabilityTest, EffortZeroNamesTheFirstJointAndAnOverrideFillsIt) {
  const auto chain = motion_test::LoadChain("abb_irb120.urdf");
  ASSERT_NE(chain, nullptr);
  EXPECT_EQ(chain->dof_limits[0].max_torque, 0.0);
  EXPECT_EQ(chain->dof_limits[0].torque_source, "unknown: URDF effort is 0");
  EXPECT_EQ(chain->dynamics_missing, "joint 'joint_1' has no effort limit (URDF effort is 0)");
  std::vector<JointLimits> limits = chain->dof_limits;
  for (JointLimits& l : limits) l.max_torque = 500;  // as RobotRef.joint_limits would
  EXPECT_EQ(MissingDynamicsData(*chain, limits), "");
  EXPECT_FALSE(DynamicsUnavailableWarning(*chain, limits, kDefaultGravity, false));
  limits[3].max_torque = 0;
  EXPECT_NE(MissingDynamicsData(*chain, limits).find("joint_4"), std::string::npos);
}

// A published URDF with placeholder efforts: the UR5 saying 1 N*m on every joint.
TEST(DynamicsAvailabilityTest, PlaceholderEffortsCannotHoldTheArm) {
  const std::string urdf = std::regex_replace(motion_test::ReadRobotFile("ur5.urdf"),
                                              std::regex("effort=\"[0-9.]+\""), "effort=\"1\"");
  auto model = RobotModel::FromUrdf(urdf);
  ASSERT_TRUE(model.ok()) << model.status();
  auto chain = (*model)->Chain();
  ASSERT_TRUE(chain.ok());
  EXPECT_EQ((*chain)->dynamics_missing, "");  // the data is there, it is just wrong
  const auto shortfall = GravityTorqueShortfall(**chain, (*chain)->dof_limits, kDefaultGravity);
  ASSERT_TRUE(shortfall.has_value());
  EXPECT_EQ((*chain)->dof_names[shortfall->dof], "shoulder_lift_joint");
  EXPECT_EQ(shortfall->configuration, "zero");  // the UR5's zero pose is stretched horizontally
  EXPECT_GT(shortfall->torque, 20.0);
  EXPECT_EQ(shortfall->limit, 1.0);
  const auto warning =
      DynamicsUnavailableWarning(**chain, (*chain)->dof_limits, kDefaultGravity, false);
  ASSERT_TRUE(warning.has_value());
  EXPECT_EQ(warning->joint_name, "shoulder_lift_joint");
  EXPECT_EQ(warning->limit, 1.0);
  EXPECT_NE(warning->message.find("placeholder"), std::string::npos) << warning->message;
  EXPECT_NE(warning->message.find("accelerations keep their documented defaults"),
            std::string::npos)
      << warning->message;
  // Without gravity nothing needs holding.
  EXPECT_FALSE(
      GravityTorqueShortfall(**chain, (*chain)->dof_limits, Eigen::Vector3d::Zero()).has_value());
}

// The URDF's own efforts hold the arm, so the chain's accelerations come from them; a request
// that overrides the efforts down to placeholders gets the warning, and it says the
// accelerations stay the chain's (from the URDF's efforts), not the 2 x velocity defaults.
TEST(DynamicsAvailabilityTest, OverriddenPlaceholderEffortsKeepTheChainsAccelerations) {
  const auto chain = motion_test::LoadChain("ur5.urdf");
  ASSERT_NE(chain, nullptr);
  ASSERT_EQ(chain->dof_limits[1].acceleration_source.rfind("effort", 0), 0u);
  std::vector<JointLimits> limits = chain->dof_limits;
  for (JointLimits& l : limits) l.max_torque = 1.0;  // as RobotRef.joint_limits would
  const auto warning = DynamicsUnavailableWarning(*chain, limits, kDefaultGravity, false);
  ASSERT_TRUE(warning.has_value());
  EXPECT_NE(warning->message.find("accelerations stay those the URDF's efforts allow"),
            std::string::npos)
      << warning->message;
}

}  // namespace
}  // namespace motion
