// Whole trajectories against a scene: which samples touch, by the test's
// own point-to-box distance, and contacts that happen only between two
// samples (a 3 mm plate crossed by a fast move sampled every 0.1 s).

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/Geometry>

#include "core/collision/trajectory_collisions.h"
#include "core/model/robot_model.h"
#include "core/motion/trajectory.h"
#include "primitive_arm.h"

namespace motion {
namespace {

using Arm = motion_test::CollisionRobot;

Arm LoadArm() {
  return motion_test::LoadCollisionRobot(motion_test::kPrimitiveArm, "base", "tool");
}

// The arm turning about its base (j1 from `from` to `to` in `samples`
// samples dt apart) with the upper arm horizontal (j2 = pi/2, j3 = 0):
// link3's sphere (r 0.06) then circles 0.55 m from the axis at z = 0.4.
Trajectory Sweep(double from, double to, int samples, double dt) {
  Trajectory t;
  t.dof = 3;
  for (int k = 0; k < samples; ++k) {
    const double s = samples > 1 ? static_cast<double>(k) / (samples - 1) : 0.0;
    t.time.push_back(k * dt);
    for (double q : {from + s * (to - from), M_PI / 2, 0.0}) t.positions.push_back(q);
  }
  return t;
}

std::shared_ptr<const CollisionScene> OneBox(const Eigen::Vector3d& centre,
                                             const Eigen::Vector3d& size) {
  CollisionObject o;
  o.id = "plate";
  o.pose.position = centre;
  o.shape = CollisionShape::Box(size);
  return *CollisionScene::Build({o});
}

// Distance from a point to an axis-aligned box, by hand.
double PointToBox(const Eigen::Vector3d& p, const Eigen::Vector3d& centre,
                  const Eigen::Vector3d& size) {
  const Eigen::Vector3d d = ((p - centre).cwiseAbs() - 0.5 * size).cwiseMax(0.0);
  return d.norm();
}

TEST(TrajectoryCollisionsTest, APlateCrossedBetweenTwoSamplesIsCaught) {
  const Arm arm = LoadArm();
  ChainData data(*arm.chain);
  // Two samples 0.1 s apart, at -0.5 and +0.5 rad: the sphere is 0.26 m to
  // either side of a 3 mm plate standing across its circle at angle 0.
  const Trajectory t = Sweep(-0.5, 0.5, 2, 0.1);
  const Eigen::Vector3d plate_size(0.2, 0.003, 0.2);
  const auto plate = OneBox({0.55, 0, 0.4}, plate_size);
  // Neither sample touches it (the test's own distance: sphere centre to box).
  for (double angle : {-0.5, 0.5}) {
    const Eigen::Vector3d centre(0.55 * std::cos(angle), 0.55 * std::sin(angle), 0.4);
    ASSERT_GT(PointToBox(centre, {0.55, 0, 0.4}, plate_size), 0.06 + 0.1);
  }
  std::vector<TrajectoryContact> contacts =
      FindTrajectoryCollisions(*arm.chain, data, *arm.collision, *plate, t.time, t.positions, {});
  ASSERT_EQ(contacts.size(), 1u);
  EXPECT_EQ(contacts[0].link, "link3");
  EXPECT_EQ(contacts[0].other, "plate");
  EXPECT_TRUE(contacts[0].between_samples_only);
  EXPECT_EQ(contacts[0].first_sample, 0u);
  EXPECT_GT(contacts[0].start_time, 0.0);
  EXPECT_LT(contacts[0].end_time, 0.1);
  // Moved out beyond the sphere's circle (0.55 + 0.06): nothing.
  const auto clear = OneBox({0.72, 0, 0.4}, plate_size);
  EXPECT_TRUE(
      FindTrajectoryCollisions(*arm.chain, data, *arm.collision, *clear, t.time, t.positions, {})
          .empty());
  // Reaching 5 mm into the circle: caught again.
  const auto grazing = OneBox({0.705, 0, 0.4}, plate_size);
  EXPECT_EQ(
      FindTrajectoryCollisions(*arm.chain, data, *arm.collision, *grazing, t.time, t.positions, {})
          .size(),
      1u);
}

TEST(TrajectoryCollisionsTest, ContactSamplesAreTheOnesTheHandDistanceGives) {
  const Arm arm = LoadArm();
  ChainData data(*arm.chain);
  const int n = 201;
  const Trajectory t = Sweep(-1.0, 1.0, n, 0.004);
  const Eigen::Vector3d box_centre(0.55, 0.1, 0.4), box_size(0.2, 0.1, 0.2);
  const auto box = OneBox(box_centre, box_size);
  long first = -1, last = -1;
  for (int k = 0; k < n; ++k) {
    const double angle = -1.0 + 2.0 * k / (n - 1);
    const Eigen::Vector3d centre(0.55 * std::cos(angle), 0.55 * std::sin(angle), 0.4);
    if (PointToBox(centre, box_centre, box_size) < 0.06) {
      if (first < 0) first = k;
      last = k;
    }
  }
  ASSERT_GT(first, 0);
  const std::vector<TrajectoryContact> contacts =
      FindTrajectoryCollisions(*arm.chain, data, *arm.collision, *box, t.time, t.positions, {});
  ASSERT_EQ(contacts.size(), 1u);
  EXPECT_EQ(contacts[0].link, "link3");
  EXPECT_FALSE(contacts[0].between_samples_only);
  // The interval starts in the interval before the first touching sample
  // (found between samples) or at it, and ends at the last one or just after.
  EXPECT_GE(static_cast<long>(contacts[0].first_sample), first - 1);
  EXPECT_LE(static_cast<long>(contacts[0].first_sample), first);
  EXPECT_GE(static_cast<long>(contacts[0].last_sample), last);
  EXPECT_LE(static_cast<long>(contacts[0].last_sample), last + 1);
  EXPECT_GT(contacts[0].max_depth, 0.01);
}

TEST(TrajectoryCollisionsTest, AClearPathIsClear) {
  const Arm arm = LoadArm();
  ChainData data(*arm.chain);
  const Trajectory t = Sweep(-1.0, 1.0, 500, 0.004);
  const auto far = OneBox({0, 0, 3}, {0.5, 0.5, 0.5});
  EXPECT_TRUE(
      FindTrajectoryCollisions(*arm.chain, data, *arm.collision, *far, t.time, t.positions, {})
          .empty());
}

}  // namespace
}  // namespace motion
