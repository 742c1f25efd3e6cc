// Every pair of shape kinds goes through the collision engine, overlapping
// and apart, with and without a distance: no pair is one FCL cannot do
// (its library asserts abort the process on those), and each answer is the
// hand-known one: overlapping unit-sized shapes touch, shapes whose
// bounding spheres are 0.5 m apart are at least that far.

#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "box_triangles.h"
#include "core/collision/internal/fcl_geometry.h"

namespace motion {
namespace {

std::vector<CollisionShape> EveryKind() {
  auto mesh = std::make_shared<TriangleMesh>();
  for (const motion_test::Triangle& t : motion_test::BoxTriangles({0.1, 0.1, 0.1})) {
    for (const Eigen::Vector3d& p : t) mesh->vertices.push_back(p);
  }
  return {CollisionShape::Box({0.2, 0.2, 0.2}), CollisionShape::Cylinder(0.1, 0.2),
          CollisionShape::Sphere(0.1), CollisionShape::Capsule(0.1, 0.1),
          CollisionShape::Mesh(mesh)};
}

TEST(FclPairsTest, EveryPairOfKindsAnswersOverlappingAndApart) {
  const std::vector<CollisionShape> kinds = EveryKind();
  for (const CollisionShape& a : kinds) {
    for (const CollisionShape& b : kinds) {
      SCOPED_TRACE(std::string(ShapeKindName(a.kind)) + " / " + ShapeKindName(b.kind));
      Eigen::Isometry3d near = Eigen::Isometry3d::Identity();
      near.translation() = Eigen::Vector3d(0.05, 0.02, 0.01);
      Eigen::Isometry3d far = Eigen::Isometry3d::Identity();
      far.translation() = Eigen::Vector3d(0.5 + a.BoundingRadius() + b.BoundingRadius(), 0, 0);
      fcl::CollisionObjectd oa(ToFclGeometry(a), Eigen::Isometry3d::Identity());
      for (bool overlapping : {true, false}) {
        fcl::CollisionObjectd ob(ToFclGeometry(b), overlapping ? near : far);
        for (bool distance : {false, true}) {
          for (double margin : {0.0, 0.01}) {
            const PairOutcome o = TestPair(oa, ob, distance, margin);
            if (overlapping) {
              // Meshes are surfaces: a mesh box and a shape inside it may
              // not touch; these overlap their surfaces.
              EXPECT_TRUE(o.in_contact);
            } else {
              EXPECT_FALSE(o.in_contact);
              if (distance) {
                EXPECT_GE(o.distance, 0.5 - 1e-6);
              }
            }
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace motion
