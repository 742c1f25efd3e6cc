// ApplyJointLimitOverrides: a request's limits over the chain's, and every
// malformed override refused with the field it is about.

#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/model/joint_limit_overrides.h"
#include "unit_test_support.h"

namespace motion {
namespace {

class JointLimitOverridesTest : public ::testing::Test {
 protected:
  std::shared_ptr<const ChainModel> chain_ = motion_test::LoadChain("ur5.urdf");

  std::string Refusal(const std::vector<JointLimitOverride>& overrides) {
    auto limits = ApplyJointLimitOverrides(*chain_, overrides, "robot.joint_limits");
    EXPECT_FALSE(limits.ok());
    EXPECT_EQ(limits.status().code(), absl::StatusCode::kInvalidArgument);
    return std::string(limits.status().message());
  }
};

// On a chain without inertials (the UR5's accelerations come from its efforts).
TEST_F(JointLimitOverridesTest, DefaultsAreDocumentedMultiples) {
  const auto chain = motion_test::LoadChain("abb_irb2400.urdf");
  ASSERT_NE(chain, nullptr);
  for (const JointLimits& l : chain->dof_limits) {
    EXPECT_DOUBLE_EQ(l.max_acceleration, 2.0 * l.max_velocity);
    EXPECT_DOUBLE_EQ(l.max_jerk, 10.0 * l.max_acceleration);
    EXPECT_EQ(l.jerk_source, "default: 10 x max_acceleration per second");
  }
}

TEST_F(JointLimitOverridesTest, ZeroKeepsAndPositiveReplaces) {
  ASSERT_NE(chain_, nullptr);
  auto limits = ApplyJointLimitOverrides(
      *chain_, {{"elbow_joint", 1.5, 0.0, 40.0}, {"wrist_3_joint", 0.0, 3.0, 0.0}}, "robot.x");
  ASSERT_TRUE(limits.ok()) << limits.status();
  const JointLimits& elbow = (*limits)[2];
  EXPECT_EQ(elbow.max_velocity, 1.5);
  EXPECT_EQ(elbow.velocity_source, "override");
  EXPECT_EQ(elbow.max_acceleration, chain_->dof_limits[2].max_acceleration);
  EXPECT_EQ(elbow.max_jerk, 40.0);
  EXPECT_EQ(elbow.jerk_source, "override");
  EXPECT_EQ((*limits)[5].max_acceleration, 3.0);
  EXPECT_EQ((*limits)[0].max_velocity, chain_->dof_limits[0].max_velocity);
  // The shared chain itself is untouched.
  EXPECT_EQ(chain_->dof_limits[2].velocity_source, "urdf");
}

TEST_F(JointLimitOverridesTest, MalformedOverridesNameTheirField) {
  ASSERT_NE(chain_, nullptr);
  EXPECT_EQ(Refusal({{"elbow_joint", -1.0, 0, 0}}).rfind("robot.joint_limits[0].max_velocity:", 0),
            0u);
  EXPECT_EQ(Refusal({{"elbow_joint", 1, 0, 0}, {"wrist_1_joint", 0, NAN, 0}})
                .rfind("robot.joint_limits[1].max_acceleration:", 0),
            0u);
  EXPECT_EQ(Refusal({{"elbow_joint", 0, 0, INFINITY}}).rfind("robot.joint_limits[0].max_jerk:", 0),
            0u);
  const std::string unknown = Refusal({{"knee%n", 1, 0, 0}});
  EXPECT_EQ(unknown.rfind("robot.joint_limits[0].joint_name:", 0), 0u) << unknown;
  EXPECT_NE(unknown.find("shoulder_pan_joint"), std::string::npos) << "lists the chain's joints";
  EXPECT_EQ(unknown.find('%'), std::string::npos) << unknown;
  EXPECT_NE(Refusal({{"elbow_joint", 1, 0, 0}, {"elbow_joint", 2, 0, 0}}).find("twice"),
            std::string::npos);
  EXPECT_EQ(Refusal({{"", 1, 0, 0}}).rfind("robot.joint_limits[0].joint_name:", 0), 0u);
}

}  // namespace
}  // namespace motion
