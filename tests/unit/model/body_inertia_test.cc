// BodyInertia, ExpressedIn and Combined against hand computations, and ChainModel::bodies: a
// URDF inertial's rpy is respected and links fixed after a joint fold into that joint's body.

#include "core/model/body_inertia.h"

#include <gtest/gtest.h>

#include "core/model/robot_model.h"

namespace motion {
namespace {

TEST(BodyInertiaTest, TwoPointMassesCombineByTheParallelAxisTheorem) {
  BodyInertia a, b;
  a.mass = 1.0;
  a.center_of_mass = Eigen::Vector3d(-1, 0, 0);
  b.mass = 3.0;
  b.center_of_mass = Eigen::Vector3d(1, 0, 0);
  const BodyInertia c = Combined(a, b);
  EXPECT_DOUBLE_EQ(c.mass, 4.0);
  EXPECT_TRUE(c.center_of_mass.isApprox(Eigen::Vector3d(0.5, 0, 0)));
  // About the centre: 1 * 1.5^2 + 3 * 0.5^2 = 3 about y and z, nothing about x.
  EXPECT_NEAR(c.inertia(0, 0), 0.0, 1e-15);
  EXPECT_NEAR(c.inertia(1, 1), 3.0, 1e-15);
  EXPECT_NEAR(c.inertia(2, 2), 3.0, 1e-15);
  EXPECT_NEAR(c.inertia(0, 1), 0.0, 1e-15);
}

TEST(BodyInertiaTest, ExpressedInRotatesTheInertiaAndMovesTheCentre) {
  BodyInertia b;
  b.mass = 2.0;
  b.center_of_mass = Eigen::Vector3d(0.1, 0, 0);
  b.inertia = Eigen::Vector3d(1, 2, 3).asDiagonal();
  Eigen::Isometry3d X_AB = Eigen::Isometry3d::Identity();
  X_AB.linear() = Eigen::AngleAxisd(M_PI / 2, Eigen::Vector3d::UnitZ()).toRotationMatrix();
  X_AB.translation() = Eigen::Vector3d(0, 0, 1);
  const BodyInertia a = ExpressedIn(b, X_AB);
  EXPECT_TRUE(a.center_of_mass.isApprox(Eigen::Vector3d(0, 0.1, 1)));
  EXPECT_NEAR(a.inertia(0, 0), 2.0, 1e-15);  // B's y axis is A's -x
  EXPECT_NEAR(a.inertia(1, 1), 1.0, 1e-15);
  EXPECT_NEAR(a.inertia(2, 2), 3.0, 1e-15);
}

constexpr char kUrdf[] = R"(<?xml version="1.0"?>
<robot name="bodies">
  <link name="base"/>
  <link name="arm">
    <inertial><origin xyz="0.2 0 0" rpy="1.5707963267948966 0 0"/><mass value="2.0"/>
      <inertia ixx="0.01" iyy="0.02" izz="0.03" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <link name="tool">
    <inertial><origin xyz="0 0 0"/><mass value="1.0"/>
      <inertia ixx="0" iyy="0" izz="0" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <joint name="j" type="revolute">
    <parent link="base"/><child link="arm"/><origin xyz="0 0 0.5"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" velocity="1" effort="0"/>
  </joint>
  <joint name="tool_joint" type="fixed">
    <parent link="arm"/><child link="tool"/><origin xyz="0.5 0 0"/>
  </joint>
</robot>)";

TEST(BodyInertiaTest, ChainBodiesFoldFixedLinksAndRespectInertialRpy) {
  auto model = RobotModel::FromUrdf(kUrdf);
  ASSERT_TRUE(model.ok()) << model.status();
  auto chain = (*model)->Chain("base", "tool");
  ASSERT_TRUE(chain.ok()) << chain.status();
  ASSERT_EQ((*chain)->bodies.size(), 1u);
  const BodyInertia& body = (*chain)->bodies[0];
  EXPECT_DOUBLE_EQ(body.mass, 3.0);
  // (2 * 0.2 + 1 * 0.5) / 3 along x.
  EXPECT_TRUE(body.center_of_mass.isApprox(Eigen::Vector3d(0.3, 0, 0), 1e-12));
  // rpy roll 90 deg: the inertial frame's y is the link's z, its z the link's -y.
  // About the combined centre: + 2 * 0.1^2 + 1 * 0.2^2 = 0.06 about y and z.
  EXPECT_NEAR(body.inertia(0, 0), 0.01, 1e-12);
  EXPECT_NEAR(body.inertia(1, 1), 0.03 + 0.06, 1e-12);
  EXPECT_NEAR(body.inertia(2, 2), 0.02 + 0.06, 1e-12);
  EXPECT_NEAR(body.inertia(1, 2), 0.0, 1e-12);
  // The effort is 0, so the chain says what dynamics lacks.
  EXPECT_EQ((*chain)->dof_limits[0].max_torque, 0.0);
  EXPECT_EQ((*chain)->dynamics_missing, "joint 'j' has no effort limit (URDF effort is 0)");
}

}  // namespace
}  // namespace motion
