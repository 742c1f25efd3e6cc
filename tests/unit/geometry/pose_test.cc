#include "core/geometry/pose.h"

#include <cmath>
#include <limits>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "independent_fk.h"

namespace motion {
namespace {

using motion_test::kPi;
using motion_test::RotationDistance;
using motion_test::RotAxis;
using motion_test::RotRpy;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(MakePoseTest, UnitQuaternionIsKept) {
  auto pose = MakePose(Eigen::Vector3d(1, 2, 3), 0, 0, std::sin(0.25), std::cos(0.25), "target");
  ASSERT_TRUE(pose.ok()) << pose.status();
  EXPECT_EQ(pose->position, Eigen::Vector3d(1, 2, 3));
  // A rotation of 0.5 rad about +Z.
  EXPECT_LT(RotationDistance(pose->orientation.toRotationMatrix(),
                             RotAxis(Eigen::Vector3d::UnitZ(), 0.5)),
            1e-15);
}

TEST(MakePoseTest, NonUnitQuaternionIsNormalised) {
  auto pose = MakePose(Eigen::Vector3d::Zero(), 0, 0, 2, 0, "target");
  ASSERT_TRUE(pose.ok()) << pose.status();
  EXPECT_DOUBLE_EQ(pose->orientation.x(), 0.0);
  EXPECT_DOUBLE_EQ(pose->orientation.y(), 0.0);
  EXPECT_DOUBLE_EQ(pose->orientation.z(), 1.0);
  EXPECT_DOUBLE_EQ(pose->orientation.w(), 0.0);

  pose = MakePose(Eigen::Vector3d::Zero(), 3, 3, 3, 3, "target");
  ASSERT_TRUE(pose.ok()) << pose.status();
  EXPECT_DOUBLE_EQ(pose->orientation.x(), 0.5);
  EXPECT_DOUBLE_EQ(pose->orientation.y(), 0.5);
  EXPECT_DOUBLE_EQ(pose->orientation.z(), 0.5);
  EXPECT_DOUBLE_EQ(pose->orientation.w(), 0.5);
  EXPECT_NEAR(pose->orientation.norm(), 1.0, 1e-15);

  // Tiny but above the 1e-9 threshold: still a direction, normalised.
  pose = MakePose(Eigen::Vector3d::Zero(), 0, 1e-6, 0, 0, "target");
  ASSERT_TRUE(pose.ok()) << pose.status();
  EXPECT_DOUBLE_EQ(pose->orientation.y(), 1.0);
}

TEST(MakePoseTest, ZeroQuaternionIsRejectedNamingTheField) {
  for (double scale : {0.0, 1e-12}) {
    auto pose = MakePose(Eigen::Vector3d::Zero(), scale, 0, 0, scale, "tool.orientation");
    ASSERT_FALSE(pose.ok()) << "scale " << scale;
    EXPECT_EQ(pose.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(std::string(pose.status().message()).find("tool.orientation"), std::string::npos)
        << pose.status();
    EXPECT_NE(std::string(pose.status().message()).find("zero quaternion"), std::string::npos)
        << pose.status();
  }
}

TEST(MakePoseTest, NonFiniteValuesAreRejected) {
  struct Case {
    Eigen::Vector3d p;
    double qx, qy, qz, qw;
    const char* expect;
  };
  const Case cases[] = {
      {Eigen::Vector3d(kNaN, 0, 0), 0, 0, 0, 1, "target.position"},
      {Eigen::Vector3d(0, kInf, 0), 0, 0, 0, 1, "target.position"},
      {Eigen::Vector3d(0, 0, -kInf), 0, 0, 0, 1, "target.position"},
      {Eigen::Vector3d::Zero(), kNaN, 0, 0, 1, "target.orientation"},
      {Eigen::Vector3d::Zero(), 0, 0, 0, kNaN, "target.orientation"},
      {Eigen::Vector3d::Zero(), 0, kInf, 0, 1, "target.orientation"},
  };
  for (const Case& c : cases) {
    auto pose = MakePose(c.p, c.qx, c.qy, c.qz, c.qw, "target");
    ASSERT_FALSE(pose.ok()) << c.expect;
    EXPECT_EQ(pose.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(std::string(pose.status().message()).find(c.expect), std::string::npos)
        << pose.status();
  }
}

TEST(PoseTest, IsometryRoundTrip) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-kPi, kPi);
  for (int i = 0; i < 200; ++i) {
    const Eigen::Matrix3d r = RotRpy(Eigen::Vector3d(u(rng), u(rng), u(rng)));
    const Eigen::Vector3d p(u(rng), u(rng), u(rng));
    Eigen::Isometry3d t = Eigen::Isometry3d::Identity();
    t.linear() = r;
    t.translation() = p;
    const Pose pose = Pose::FromIsometry(t);
    EXPECT_NEAR(pose.orientation.norm(), 1.0, 1e-15);
    EXPECT_LT((pose.position - p).norm(), 1e-15);
    const Eigen::Isometry3d back = pose.ToIsometry();
    EXPECT_LT((back.linear() - r).norm(), 1e-14);
    EXPECT_LT((back.translation() - p).norm(), 1e-15);
  }
}

TEST(RotationAngleBetweenTest, MatchesAxisAngle) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-1, 1);
  std::uniform_real_distribution<double> angle(0, kPi);
  for (int i = 0; i < 500; ++i) {
    const Eigen::Matrix3d a = RotRpy(Eigen::Vector3d(3 * u(rng), 3 * u(rng), 3 * u(rng)));
    const Eigen::Vector3d axis = Eigen::Vector3d(u(rng), u(rng), u(rng)).normalized();
    const double theta = angle(rng);
    const Eigen::Matrix3d b = a * RotAxis(axis, theta);
    const Eigen::Quaterniond qa(a), qb(b);
    EXPECT_NEAR(RotationAngleBetween(qa, qb), theta, 1e-12);
    // q and -q are the same rotation.
    const Eigen::Quaterniond minus_qb(-qb.w(), -qb.x(), -qb.y(), -qb.z());
    EXPECT_NEAR(RotationAngleBetween(qa, minus_qb), theta, 1e-12);
  }
  // Small angles keep full relative precision (acos of a dot product would not).
  const Eigen::Quaterniond id = Eigen::Quaterniond::Identity();
  const Eigen::Quaterniond tiny(RotAxis(Eigen::Vector3d::UnitY(), 1e-10));
  EXPECT_NEAR(RotationAngleBetween(id, tiny), 1e-10, 1e-20);
  EXPECT_NEAR(RotationAngleBetween(id, Eigen::Quaterniond(RotAxis(Eigen::Vector3d::UnitX(), kPi))),
              kPi, 1e-12);
}

}  // namespace
}  // namespace motion
