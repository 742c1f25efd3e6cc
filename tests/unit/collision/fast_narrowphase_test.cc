// The own narrowphase (FastPair) on every pair of primitive kinds at poses
// whose distances and depths are worked out by hand here: faces, edges,
// vertices, rotated boxes, a capsule along a box face, a cylinder's rim
// to a box edge. Every pair is asked in both argument orders.

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/Geometry>

#include "core/collision/internal/fast_pair.h"
#include "core/collision/internal/segment_box.h"

namespace motion {
namespace {

constexpr double kExact = 1e-12;  // closed forms: rounding only
constexpr double kGjk = 1e-9;     // GJK on curved cores: ~1e-12 relative

Eigen::Isometry3d At(double x, double y, double z,
                     const Eigen::Matrix3d& r = Eigen::Matrix3d::Identity()) {
  Eigen::Isometry3d t = Eigen::Isometry3d::Identity();
  t.linear() = r;
  t.translation() = Eigen::Vector3d(x, y, z);
  return t;
}

Eigen::Matrix3d Turn(double angle, const Eigen::Vector3d& axis) {
  return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
}

Primitive Place(const CollisionShape& shape, const Eigen::Isometry3d& pose) {
  return PlacePrimitive(shape, pose, shape.BoundingRadius(), nullptr);
}

struct Case {
  std::string name;
  CollisionShape a;
  Eigen::Isometry3d pose_a;
  CollisionShape b;
  Eigen::Isometry3d pose_b;
  double signed_distance;  // < 0: minus the penetration depth
  double tolerance;
};

void ExpectCases(const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    const Primitive a = Place(c.a, c.pose_a), b = Place(c.b, c.pose_b);
    for (bool swapped : {false, true}) {
      SCOPED_TRACE(c.name + (swapped ? " (b, a)" : " (a, b)"));
      const std::optional<PairOutcome> o =
          swapped ? FastPair(b, a, true, 0.0) : FastPair(a, b, true, 0.0);
      ASSERT_TRUE(o.has_value());
      EXPECT_NEAR(o->distance, c.signed_distance, c.tolerance);
      EXPECT_EQ(o->in_contact, c.signed_distance < 0);
      if (c.signed_distance < 0) {
        EXPECT_NEAR(o->depth, -c.signed_distance, c.tolerance);
      }
      // A margin beyond the distance makes a contact of depth margin - distance.
      const double margin = std::abs(c.signed_distance) + 0.01;
      const std::optional<PairOutcome> m =
          swapped ? FastPair(b, a, false, margin) : FastPair(a, b, false, margin);
      ASSERT_TRUE(m.has_value());
      EXPECT_TRUE(m->in_contact);
      EXPECT_NEAR(m->depth, margin - c.signed_distance, c.tolerance);
      // Verdict only, no margin: the same verdict.
      const std::optional<PairOutcome> v =
          swapped ? FastPair(b, a, false, 0.0) : FastPair(a, b, false, 0.0);
      ASSERT_TRUE(v.has_value());
      EXPECT_EQ(v->in_contact, c.signed_distance < 0);
    }
  }
}

const CollisionShape kBrick = CollisionShape::Box({0.2, 0.4, 0.6});  // half 0.1, 0.2, 0.3
const CollisionShape kCube = CollisionShape::Box({0.2, 0.2, 0.2});   // half 0.1

TEST(FastNarrowphaseTest, SphereAndCapsuleToBox) {
  const CollisionShape ball = CollisionShape::Sphere(0.05);
  const CollisionShape rod = CollisionShape::Capsule(0.05, 0.4);  // core z in [-0.2, 0.2]
  const double s2 = std::sqrt(2.0);
  ExpectCases({
      {"sphere facing a face", ball, At(0.4, 0, 0), kBrick, At(0, 0, 0), 0.4 - 0.1 - 0.05, kExact},
      {"sphere off an edge", ball, At(0.4, 0.5, 0), kBrick, At(0, 0, 0),
       std::hypot(0.3, 0.3) - 0.05, kExact},
      {"sphere off a vertex", ball, At(0.4, 0.5, 0.6), kBrick, At(0, 0, 0),
       std::sqrt(3 * 0.09) - 0.05, kExact},
      // Inside, 0.05 from the x face: out by that plus the radius.
      {"sphere inside", CollisionShape::Sphere(0.02), At(0.05, 0, 0), kBrick, At(0, 0, 0),
       -(0.05 + 0.02), kExact},
      {"sphere off a turned box's vertical edge", ball, At(0.5, 0, 0), kCube,
       At(0, 0, 0, Turn(M_PI / 4, Eigen::Vector3d::UnitZ())), 0.5 - 0.1 * s2 - 0.05, kExact},
      {"capsule parallel to a face", rod, At(0.3, 0, 0), kBrick, At(0, 0, 0), 0.3 - 0.1 - 0.05,
       kExact},
      // Capsule across the top, along the xy diagonal at z = 0.5: to the
      // top face z = 0.3.
      {"capsule across the top face", CollisionShape::Capsule(0.05, 2.0),
       At(0, 0, 0.5, Turn(M_PI / 2, Eigen::Vector3d(1, -1, 0))), kBrick, At(0, 0, 0),
       0.5 - 0.3 - 0.05, kExact},
      // Horizontal capsule along (1, -1, 0) through (0.3, 0.3, 0) against
      // the cube's vertical edge at (0.1, 0.1): edge to edge, 0.2 sqrt 2.
      {"capsule edge to box edge", CollisionShape::Capsule(0.05, 0.3),
       At(0.3, 0.3, 0, Turn(M_PI / 2, Eigen::Vector3d(1, 1, 0))), kCube, At(0, 0, 0),
       0.2 * s2 - 0.05, kExact},
      // End cap towards a face: the capsule along x, its core ending at
      // x = 0.25: 0.25 - 0.1 - r.
      {"capsule end cap to a face", rod, At(0.45, 0, 0, Turn(M_PI / 2, Eigen::Vector3d::UnitY())),
       kBrick, At(0, 0, 0), 0.15 - 0.05, kExact},
      // Core inside the slab |x| <= 0.1 at x = 0.08, within y and z: out
      // along +x by 0.02, plus the radius.
      {"capsule sunk in a box", rod, At(0.08, 0, 0), kBrick, At(0, 0, 0), -(0.02 + 0.05), kExact},
      // Core crossing the cube along z through its centre, sticking out
      // 0.1 both ends: sideways out by 0.1 (a face), plus the radius.
      {"capsule through a box", rod, At(0, 0, 0), kCube, At(0, 0, 0), -(0.1 + 0.05), kExact},
      // Horizontal along (1, -1, 0) through (0.08, 0.08, 0), cutting the
      // cube's vertical edge: out along (1, 1, 0) / sqrt 2 (the edge
      // crossed with the core) by (0.1 - 0.08) sqrt 2; the faces need more.
      {"capsule cutting a box's edge", CollisionShape::Capsule(0.05, 0.6),
       At(0.08, 0.08, 0, Turn(M_PI / 2, Eigen::Vector3d(1, 1, 0))), kCube, At(0, 0, 0),
       -(0.02 * s2 + 0.05), kExact},
  });
}

TEST(FastNarrowphaseTest, BoxToBox) {
  const double s2 = std::sqrt(2.0), s3 = std::sqrt(3.0);
  const Eigen::Matrix3d vertex_to_minus_x =
      Eigen::Quaterniond::FromTwoVectors(Eigen::Vector3d(1, 1, 1), Eigen::Vector3d(-1, 0, 0))
          .toRotationMatrix();
  ExpectCases({
      {"face to face", kBrick, At(0, 0, 0), CollisionShape::Box({0.3, 0.3, 0.3}), At(0.5, 0, 0),
       0.5 - 0.1 - 0.15, kGjk},
      {"face to face along z, far", kBrick, At(0, 0, 0), kCube, At(0, 0, 3.0), 3.0 - 0.3 - 0.1,
       kGjk},
      // A's vertical edge (turned 45 deg about z) at x = 0.1 sqrt 2, B's
      // edge along y (turned about y) at x = 0.5 - 0.1 sqrt 2: crossed edges.
      {"edge to edge", kCube, At(0, 0, 0, Turn(M_PI / 4, Eigen::Vector3d::UnitZ())), kCube,
       At(0.5, 0, 0, Turn(M_PI / 4, Eigen::Vector3d::UnitY())), 0.5 - 0.2 * s2, kGjk},
      {"vertex to face", kBrick, At(0, 0, 0), kCube, At(0.6, 0, 0, vertex_to_minus_x),
       0.6 - 0.1 * s3 - 0.1, kGjk},
      {"edge to face, turned about z", kBrick, At(0, 0, 0), kCube,
       At(0.5, 0, 0, Turn(M_PI / 4, Eigen::Vector3d::UnitZ())), 0.5 - 0.1 * s2 - 0.1, kGjk},
      // Overlap 0.1 + 0.1 - 0.15 = 0.05 along x; 0.3 along y, 0.4 along z.
      {"overlapping faces", kBrick, At(0, 0, 0), kCube, At(0.15, 0, 0), -0.05, kExact},
      // Two cubes turned 45 deg about z and about y, 0.2 apart: crossed
      // edges 0.2 sqrt 2 - 0.2 deep; every face axis overlaps more.
      {"crossed edges, overlapping", kCube, At(0, 0, 0, Turn(M_PI / 4, Eigen::Vector3d::UnitZ())),
       kCube, At(0.2, 0, 0, Turn(M_PI / 4, Eigen::Vector3d::UnitY())), -(0.2 * s2 - 0.2), kExact},
  });
}

TEST(FastNarrowphaseTest, CylinderToEverything) {
  const CollisionShape can = CollisionShape::Cylinder(0.1, 0.2);  // r 0.1, z in [-0.1, 0.1]
  const Eigen::Matrix3d lying = Turn(M_PI / 2, Eigen::Vector3d::UnitY());  // axis along x
  ExpectCases({
      {"cylinder beside a box", can, At(0, 0, 0), kCube, At(0.35, 0, 0), 0.35 - 0.1 - 0.1, kGjk},
      {"cylinder under a box", can, At(0, 0, 0), kCube, At(0, 0, 0.4), 0.4 - 0.1 - 0.1, kGjk},
      // The rim point (0.1, 0, 0.1) to the box's edge x = 0.2, z = 0.15.
      {"cylinder rim to a box edge", can, At(0, 0, 0), kCube, At(0.3, 0, 0.25),
       std::hypot(0.1, 0.05), kGjk},
      {"cylinder rim to a sphere", can, At(0, 0, 0), CollisionShape::Sphere(0.05), At(0.3, 0, 0.2),
       std::hypot(0.2, 0.1) - 0.05, kGjk},
      {"cylinder side to a sphere, overlapping", can, At(0, 0, 0), CollisionShape::Sphere(0.05),
       At(0.12, 0, 0), -(0.05 - 0.02), kGjk},
      {"cylinder beside a parallel capsule", can, At(0, 0, 0), CollisionShape::Capsule(0.05, 0.4),
       At(0.5, 0, 0), 0.5 - 0.1 - 0.05, kGjk},
      {"parallel cylinders", can, At(0, 0, 0), can, At(0, 0.5, 0), 0.5 - 0.2, kGjk},
      // One lying across the other's top face: its side at z = 0.4 - 0.1.
      {"lying cylinder above a standing one", can, At(0, 0, 0), can, At(0, 0, 0.4, lying),
       0.4 - 0.1 - 0.1, kGjk},
  });
}

TEST(FastNarrowphaseTest, RoundPairs) {
  ExpectCases({
      {"spheres", CollisionShape::Sphere(0.1), At(0, 0, 0), CollisionShape::Sphere(0.2),
       At(0.2, 0.4, 0.4), 0.6 - 0.3, kExact},
      {"crossed capsules", CollisionShape::Capsule(0.05, 0.4), At(0, 0, 0),
       CollisionShape::Capsule(0.08, 0.2), At(0, 0, 0, Turn(M_PI / 2, Eigen::Vector3d::UnitX())),
       -0.13, kExact},
  });
}

// Where there is no closed form for the depth (a cylinder whose core
// overlaps the other's), FCL decides; meshes always go to FCL.
TEST(FastNarrowphaseTest, OverlappingCylindersAndMeshesAreLeftToFcl) {
  const Primitive can = Place(CollisionShape::Cylinder(0.1, 0.2), At(0, 0, 0));
  EXPECT_FALSE(FastPair(can, Place(kCube, At(0.15, 0, 0)), true, 0.0).has_value());
  EXPECT_FALSE(FastPair(Place(kCube, At(0.15, 0, 0)), can, false, 0.0).has_value());
  auto mesh = std::make_shared<TriangleMesh>();
  mesh->vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  const CollisionShape m = CollisionShape::Mesh(mesh);
  EXPECT_FALSE(FastPair(Place(m, At(3, 0, 0)), Place(kCube, At(0, 0, 0)), true, 0.0).has_value());
}

// The segment-box closed forms on their own, against distances written
// out: the piecewise minimum must land inside a piece, at a break and at
// an end.
TEST(FastNarrowphaseTest, SegmentBoxDistanceFindsTheMinimumOnEveryKindOfPiece) {
  const Eigen::Vector3d half(0.1, 0.2, 0.3);
  // Over the top face, sloping down towards +x: nearest at the end.
  EXPECT_NEAR(SegmentBoxDistance({-0.5, 0, 0.9}, {0.05, 0, 0.5}, half), 0.2, kExact);
  // Passing an edge diagonally: nearest where it is closest to the edge
  // line x = 0.1, z = 0.3 (inside a piece): the segment x + z = 0.6 at
  // y = 0 is (0.6 - 0.4) / sqrt 2 from it.
  EXPECT_NEAR(SegmentBoxDistance({0.6, 0, 0.0}, {-0.2, 0, 0.8}, half), 0.2 / std::sqrt(2.0),
              kExact);
  // A point.
  EXPECT_NEAR(SegmentBoxDistance({0, 0.5, 0}, {0, 0.5, 0}, half), 0.3, kExact);
  // Touching the box: 0, and the penetration test says not inside.
  EXPECT_NEAR(SegmentBoxDistance({-1, 0, 0.3}, {1, 0, 0.3}, half), 0.0, kExact);
  EXPECT_LE(SegmentBoxPenetration({-1, 0, 0.4}, {1, 0, 0.4}, half), 0.0);
  EXPECT_NEAR(SegmentBoxPenetration({-1, 0, 0.25}, {1, 0, 0.25}, half), 0.05, kExact);
}

}  // namespace
}  // namespace motion
