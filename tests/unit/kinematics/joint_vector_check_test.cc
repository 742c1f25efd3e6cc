#include "core/kinematics/joint_vector_check.h"

#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/model/robot_model.h"
#include "independent_fk.h"

namespace motion {
namespace {

std::shared_ptr<const ChainModel> Ur5Chain() {
  auto model = RobotModel::FromUrdf(motion_test::ReadRobotFile("ur5.urdf"));
  EXPECT_TRUE(model.ok()) << model.status();
  auto chain = (*model)->Chain();
  EXPECT_TRUE(chain.ok()) << chain.status();
  return *chain;
}

bool Contains(const absl::Status& status, const std::string& text) {
  return std::string(status.message()).find(text) != std::string::npos;
}

TEST(CheckJointVectorTest, AcceptsFiniteValuesOfTheRightCount) {
  const auto chain = Ur5Chain();
  // Out-of-limit values are fine here: limits are diagnostics, not errors.
  EXPECT_TRUE(CheckJointVector(*chain, {0, 1, 2, 3, 4, 100}, "joints").ok());
}

TEST(CheckJointVectorTest, WrongCountNamesExpectedCountAndField) {
  const auto chain = Ur5Chain();
  for (const std::vector<double>& q :
       {std::vector<double>{}, std::vector<double>(5, 0.0), std::vector<double>(7, 0.0)}) {
    const absl::Status status = CheckJointVector(*chain, q, "seed");
    ASSERT_FALSE(status.ok());
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_TRUE(Contains(status, "seed")) << status;
    EXPECT_TRUE(Contains(status, "expected 6")) << status;
    EXPECT_TRUE(Contains(status, "got " + std::to_string(q.size()))) << status;
    EXPECT_TRUE(Contains(status, "shoulder_pan_joint")) << status;
  }
}

TEST(CheckJointVectorTest, NonFiniteValueNamesIndexAndJoint) {
  const auto chain = Ur5Chain();
  const double bad_values[] = {std::numeric_limits<double>::quiet_NaN(),
                               std::numeric_limits<double>::infinity(),
                               -std::numeric_limits<double>::infinity()};
  for (double bad : bad_values) {
    std::vector<double> q(6, 0.1);
    q[3] = bad;
    const absl::Status status = CheckJointVector(*chain, q, "start_joints");
    ASSERT_FALSE(status.ok());
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_TRUE(Contains(status, "start_joints[3]")) << status;
    EXPECT_TRUE(Contains(status, "wrist_1_joint")) << status;
  }
}

}  // namespace
}  // namespace motion
