// CheckPayload / CheckGravity: every bad value is refused with the field named.

#include "core/dynamics/payload.h"

#include <cmath>
#include <limits>
#include <string>

#include <gtest/gtest.h>
#include <Eigen/Geometry>

namespace motion {
namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

Payload Box() {  // 2 kg, 0.1 x 0.2 x 0.3 m box: I = m/12 (b^2 + c^2, ...)
  Payload p;
  p.mass = 2.0;
  p.center_of_mass = Eigen::Vector3d(0, 0, 0.1);
  p.inertia =
      Eigen::Vector3d(2.0 / 12 * (0.04 + 0.09), 2.0 / 12 * (0.01 + 0.09), 2.0 / 12 * (0.01 + 0.04))
          .asDiagonal();
  return p;
}

void ExpectRefused(const Payload& p, const std::string& field_and_words) {
  const absl::Status status = CheckPayload(p, "robot.payload");
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << field_and_words;
  EXPECT_NE(status.message().find(field_and_words), std::string::npos) << status.message();
}

TEST(PayloadTest, RealPayloadsPass) {
  EXPECT_TRUE(CheckPayload(Payload{}, "p").ok());  // none
  EXPECT_TRUE(CheckPayload(Box(), "p").ok());
  Payload point;
  point.mass = 10;
  EXPECT_TRUE(CheckPayload(point, "p").ok());
  Payload rotated = Box();  // the box turned: off-diagonal terms, same moments
  const Eigen::Matrix3d R = Eigen::AngleAxisd(0.7, Eigen::Vector3d(1, 2, 3).normalized()).matrix();
  rotated.inertia = R * rotated.inertia * R.transpose();
  rotated.inertia = 0.5 * (rotated.inertia + rotated.inertia.transpose()).eval();
  EXPECT_TRUE(CheckPayload(rotated, "p").ok()) << CheckPayload(rotated, "p");
  Payload plate = Box();  // flat plate: I3 = I1 + I2 exactly
  plate.inertia = Eigen::Vector3d(1.0, 2.0, 3.0).asDiagonal();
  EXPECT_TRUE(CheckPayload(plate, "p").ok());
}

TEST(PayloadTest, BadMassIsRefused) {
  Payload p = Box();
  p.mass = -1;
  ExpectRefused(p, "robot.payload.mass: must be >= 0");
  p.mass = kNan;
  ExpectRefused(p, "robot.payload.mass: must be finite");
  p.mass = kInf;
  ExpectRefused(p, "robot.payload.mass: must be finite");
  p = Box();
  p.mass = 0;
  ExpectRefused(p, "robot.payload.inertia: a payload of mass 0");
}

TEST(PayloadTest, BadCenterOfMassIsRefused) {
  Payload p = Box();
  p.center_of_mass.y() = kNan;
  ExpectRefused(p, "robot.payload.center_of_mass.y: must be finite");
  p.center_of_mass.y() = -kInf;
  ExpectRefused(p, "robot.payload.center_of_mass.y: must be finite");
}

TEST(PayloadTest, BadInertiaIsRefused) {
  Payload p = Box();
  p.inertia(0, 0) = -0.1;
  ExpectRefused(p, "robot.payload.inertia.ixx: must be >= 0");
  p = Box();
  p.inertia(1, 2) = p.inertia(2, 1) = kNan;
  ExpectRefused(p, "robot.payload.inertia.iyz: must be finite");
  p = Box();
  p.inertia(0, 2) = p.inertia(2, 0) = kInf;
  ExpectRefused(p, "robot.payload.inertia.ixz: must be finite");
  p = Box();
  p.inertia << 1, 2, 0, 2, 1, 0, 0, 0, 1;  // eigenvalues -1, 1, 3
  ExpectRefused(p, "robot.payload.inertia: must be positive definite");
  p.inertia = Eigen::Vector3d(1.0, 1.0, 3.0).asDiagonal();  // no body has I1 + I2 < I3
  ExpectRefused(p, "triangle inequality");
  p.inertia = Eigen::Vector3d(0.0, 1.0, 1.0).asDiagonal();  // a rod: semi-definite
  ExpectRefused(p, "must be positive definite");
}

TEST(PayloadTest, GravityMustBeFinite) {
  EXPECT_TRUE(CheckGravity(kDefaultGravity, "gravity").ok());
  EXPECT_TRUE(CheckGravity(Eigen::Vector3d::Zero(), "gravity").ok());
  const absl::Status status = CheckGravity(Eigen::Vector3d(0, kNan, -9.81), "gravity");
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("gravity.y: must be finite"), std::string::npos)
      << status.message();
  EXPECT_FALSE(CheckGravity(Eigen::Vector3d(kInf, 0, 0), "gravity").ok());
}

}  // namespace
}  // namespace motion
