// The closed form for sphere and capsule pairs against a hand computation
// and against FCL's own answers (GJK distance, EPA depth) on random pairs:
// the same verdict everywhere, distances to 1e-6 m, depths to 1e-4 m.

#include <cmath>
#include <random>

#include <fcl/geometry/shape/box.h>
#include <fcl/geometry/shape/capsule.h>
#include <fcl/geometry/shape/sphere.h>
#include <fcl/narrowphase/collision.h>
#include <fcl/narrowphase/distance.h>
#include <gtest/gtest.h>

#include "core/collision/internal/round_shapes.h"

namespace motion {
namespace {

fcl::CollisionObjectd Place(std::shared_ptr<fcl::CollisionGeometryd> g,
                            const Eigen::Isometry3d& at) {
  fcl::CollisionObjectd o(std::move(g), at);
  o.computeAABB();
  return o;
}

TEST(RoundShapesTest, ParallelCapsulesAreTheirAxisDistanceApartMinusTheRadii) {
  Eigen::Isometry3d b = Eigen::Isometry3d::Identity();
  b.translation() = Eigen::Vector3d(0.3, 0.0, 0.1);
  const auto pa = Place(std::make_shared<fcl::Capsuled>(0.05, 0.4), Eigen::Isometry3d::Identity());
  const auto pb = Place(std::make_shared<fcl::Capsuled>(0.08, 0.2), b);
  const auto o = RoundShapesPair(pa, pb, 0.0);
  ASSERT_TRUE(o.has_value());
  EXPECT_FALSE(o->in_contact);
  EXPECT_NEAR(o->distance, 0.3 - 0.05 - 0.08, 1e-12);
  // Crossed at right angles through each other's middles: depth r1 + r2.
  b.translation() = Eigen::Vector3d::Zero();
  b.linear() = Eigen::AngleAxisd(M_PI / 2, Eigen::Vector3d::UnitX()).toRotationMatrix();
  const auto crossed =
      RoundShapesPair(pa, Place(std::make_shared<fcl::Capsuled>(0.08, 0.2), b), 0.0);
  ASSERT_TRUE(crossed->in_contact);
  EXPECT_NEAR(crossed->depth, 0.13, 1e-12);
  // A box is not a round shape: FCL decides.
  EXPECT_FALSE(
      RoundShapesPair(pa, Place(std::make_shared<fcl::Boxd>(0.1, 0.1, 0.1), b), 0.0).has_value());
}

TEST(RoundShapesTest, AgreesWithFclOnRandomPairs) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  auto random_pose = [&] {
    Eigen::Isometry3d t = Eigen::Isometry3d::Identity();
    t.translation() = Eigen::Vector3d(unit(rng), unit(rng), unit(rng)) * 0.6;
    t.linear() =
        Eigen::Quaterniond(unit(rng) - 0.5, unit(rng) - 0.5, unit(rng) - 0.5, unit(rng) - 0.5)
            .normalized()
            .toRotationMatrix();
    return t;
  };
  auto random_shape = [&]() -> std::shared_ptr<fcl::CollisionGeometryd> {
    if (unit(rng) < 0.3) return std::make_shared<fcl::Sphered>(0.02 + 0.15 * unit(rng));
    return std::make_shared<fcl::Capsuled>(0.02 + 0.1 * unit(rng), 0.4 * unit(rng));
  };
  int touching = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const auto a = Place(random_shape(), random_pose());
    const auto b = Place(random_shape(), random_pose());
    const auto ours = RoundShapesPair(a, b, 0.0);
    ASSERT_TRUE(ours.has_value());
    fcl::CollisionRequestd request(1, true);
    request.gjk_solver_type = fcl::GST_INDEP;
    fcl::CollisionResultd collision;
    fcl::collide(&a, &b, request, collision);
    // Within a micrometre of touching the two may differ; not elsewhere.
    if (std::abs(ours->distance) < 1e-6) continue;
    ASSERT_EQ(ours->in_contact, collision.isCollision()) << "trial " << trial;
    if (ours->in_contact) {
      ++touching;
      const double fcl_depth = collision.getContact(0).penetration_depth;
      if (fcl_depth > 0) {
        EXPECT_NEAR(ours->depth, fcl_depth, 1e-4) << "trial " << trial;
      }
      continue;
    }
    fcl::DistanceRequestd distance_request;
    distance_request.gjk_solver_type = fcl::GST_INDEP;
    distance_request.distance_tolerance = 1e-8;
    fcl::DistanceResultd distance;
    fcl::distance(&a, &b, distance_request, distance);
    EXPECT_NEAR(ours->distance, distance.min_distance, 1e-6) << "trial " << trial;
  }
  EXPECT_GT(touching, 200);
}

}  // namespace
}  // namespace motion
