// Collision checking against independent truth: a three-link arm made of
// URDF primitives (written here) in scenes of boxes, judged by the test's
// own point sampling of every shape placed with the test-side URDF FK, and
// by distances computed by hand; an STL box behaves like the box; the
// self-collision matrix leaves adjacent links out and reports a fold.

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/Geometry>

#include "box_triangles.h"
#include "core/collision/collision_checker.h"
#include "core/kinematics/chain_data.h"
#include "core/model/robot_model.h"
#include "independent_fk.h"
#include "primitive_arm.h"

namespace motion {
namespace {

using motion_test::IndependentChain;
using motion_test::IndependentLinkPoses;
using motion_test::kPrimitiveArm;
using motion_test::ReadUrdfSpec;
using motion_test::UrdfSpec;
using motion_test::WalkChain;

struct Arm {
  std::shared_ptr<const RobotModel> model;
  std::shared_ptr<const ChainModel> chain;
  std::shared_ptr<const RobotCollisionModel> collision;
  UrdfSpec spec;
  IndependentChain ichain;
};

Arm LoadArm() {
  Arm arm;
  arm.model = *RobotModel::FromUrdf(kPrimitiveArm);
  arm.chain = *arm.model->Chain("base", "tool");
  arm.collision = RobotCollisionModel::Build(*arm.chain, arm.model->link_collisions());
  arm.spec = ReadUrdfSpec(kPrimitiveArm);
  arm.ichain = WalkChain(arm.spec, "base", "tool");
  return arm;
}

// The test's own picture of each link's shape: inside(p in link frame).
struct TestShape {
  std::string link;
  std::function<bool(const Eigen::Vector3d&)> inside;
  std::vector<Eigen::Vector3d> samples = {};  // points filling it, link frame
};

std::vector<TestShape> ArmShapes() {
  std::vector<TestShape> shapes;
  const double h = 0.01;  // sampling step, m
  auto fill = [&](TestShape& s, Eigen::Vector3d lo, Eigen::Vector3d hi) {
    for (double x = lo.x(); x <= hi.x(); x += h) {
      for (double y = lo.y(); y <= hi.y(); y += h) {
        for (double z = lo.z(); z <= hi.z(); z += h) {
          const Eigen::Vector3d p(x, y, z);
          if (s.inside(p)) s.samples.push_back(p);
        }
      }
    }
  };
  TestShape base{"base", [](const Eigen::Vector3d& p) {
                   return std::abs(p.x()) <= 0.1 && std::abs(p.y()) <= 0.1 &&
                          std::abs(p.z() + 0.1) <= 0.1;
                 }};
  fill(base, {-0.1, -0.1, -0.2}, {0.1, 0.1, 0.0});
  TestShape link1{"link1", [](const Eigen::Vector3d& p) {
                    return std::hypot(p.x(), p.y()) <= 0.05 && p.z() >= 0 && p.z() <= 0.4;
                  }};
  fill(link1, {-0.05, -0.05, 0}, {0.05, 0.05, 0.4});
  TestShape link2{"link2", [](const Eigen::Vector3d& p) {
                    return std::abs(p.x()) <= 0.03 && std::abs(p.y()) <= 0.03 && p.z() >= 0 &&
                           p.z() <= 0.4;
                  }};
  fill(link2, {-0.03, -0.03, 0}, {0.03, 0.03, 0.4});
  TestShape link3{"link3", [](const Eigen::Vector3d& p) {
                    return (p - Eigen::Vector3d(0, 0, 0.15)).norm() <= 0.06;
                  }};
  fill(link3, {-0.06, -0.06, 0.09}, {0.06, 0.06, 0.21});
  return {base, link1, link2, link3};
}

// Link frames by the test-side FK, by link name.
Eigen::Isometry3d LinkFrame(const Arm& arm, const Eigen::VectorXd& q, const std::string& link) {
  const std::vector<Eigen::Isometry3d> poses = IndependentLinkPoses(arm.ichain, q);
  for (std::size_t i = 0; i < arm.ichain.links.size(); ++i) {
    if (arm.ichain.links[i] == link) return poses[i];
  }
  ADD_FAILURE() << "no link " << link;
  return Eigen::Isometry3d::Identity();
}

CollisionObject BoxObject(const std::string& id, const Eigen::Vector3d& centre,
                          const Eigen::Vector3d& size) {
  CollisionObject o;
  o.id = id;
  o.pose.position = centre;
  o.shape = CollisionShape::Box(size);
  return o;
}

TEST(CollisionCheckerTest, PrimitivesComeFromTheUrdfAndAdjacentLinksAreNotChecked) {
  const Arm arm = LoadArm();
  ASSERT_EQ(arm.collision->links().size(), 5u);  // the tool link has none
  for (const LinkCollisionGeometry& l : arm.collision->links()) {
    EXPECT_EQ(l.source, l.link == "tool" ? "none" : "urdf") << l.link;
    EXPECT_EQ(l.shapes.size(), l.link == "tool" ? 0u : 1u);
  }
  // base-link1, link1-link2, link2-link3: one joint apart, never checked.
  int adjacent = 0;
  for (const DisabledPair& d : arm.collision->disabled_pairs()) adjacent += d.reason == "adjacent";
  EXPECT_EQ(adjacent, 3);
  // base-link2, base-link3, link1-link3 are checked (none always collides).
  EXPECT_EQ(arm.collision->self_pairs().size(), 3u);
}

TEST(CollisionCheckerTest, HandComputedDistancesToABox) {
  const Arm arm = LoadArm();
  ChainData data(*arm.chain);
  // Arm straight up: the sphere of link3 is centred at (0, 0, 0.95).
  const Eigen::VectorXd q = Eigen::Vector3d(0, 0, 0);
  CollisionQuery query;
  query.compute_distance = true;
  query.self_collision = false;
  // A box beside the sphere, its near face at x = 0.3: distance 0.3 - 0.06.
  // The cylinder of link1 (x <= 0.05) and link2's box (x <= 0.03) are
  // farther, and the base's cube (x <= 0.1) but the box starts at z = 0.8.
  auto scene = *CollisionScene::Build({BoxObject("post", {0.4, 0, 0.95}, {0.2, 0.2, 0.3})});
  CollisionVerdict v = CheckCollision(*arm.chain, data, *arm.collision, *scene, q, query);
  EXPECT_FALSE(v.in_collision);
  EXPECT_NEAR(v.min_distance, 0.3 - 0.06, 1e-6);
  EXPECT_EQ(v.nearest_link, "link3");
  EXPECT_EQ(v.nearest_other, "post");
  // Diagonal: the box's nearest corner at (0.2, 0.2, 0.95 + 0.2) from the
  // sphere centre: sqrt(0.2^2 + 0.2^2 + 0.2^2) - 0.06.
  scene = *CollisionScene::Build({BoxObject("corner", {0.3, 0.3, 1.25}, {0.2, 0.2, 0.2})});
  v = CheckCollision(*arm.chain, data, *arm.collision, *scene, q, query);
  EXPECT_NEAR(v.min_distance, std::sqrt(3 * 0.04) - 0.06, 1e-6);
  // Box to box: link2's box (x <= 0.03, z in [0.4, 0.8]) and a box whose
  // face is at x = 0.13, z overlapping: 0.10. The cylinder of link1 ends at
  // z = 0.4, the box starts at z = 0.5.
  scene = *CollisionScene::Build({BoxObject("wall", {0.23, 0, 0.65}, {0.2, 0.2, 0.3})});
  v = CheckCollision(*arm.chain, data, *arm.collision, *scene, q, query);
  EXPECT_NEAR(v.min_distance, 0.10, 1e-6);
  EXPECT_EQ(v.nearest_link, "link2");
  // A safety margin larger than the distance makes a contact of depth
  // margin - distance.
  query.safety_margin = 0.12;
  v = CheckCollision(*arm.chain, data, *arm.collision, *scene, q, query);
  ASSERT_TRUE(v.in_collision);
  ASSERT_EQ(v.contacts.size(), 1u);
  EXPECT_EQ(v.contacts[0].link, "link2");
  EXPECT_EQ(v.contacts[0].other, "wall");
  EXPECT_NEAR(v.contacts[0].depth, 0.02, 1e-6);
}

// Random configurations in a cell of random boxes: wherever the test's
// point sampling finds a point of a link inside a box, the checker reports
// that link and box; and every contact it reports deeper than the sampling
// step is found by the sampling.
TEST(CollisionCheckerTest, VerdictsAgreeWithPointSamplingInRandomScenes) {
  const Arm arm = LoadArm();
  const std::vector<TestShape> shapes = ArmShapes();
  ChainData data(*arm.chain);
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int sampled_hits = 0;
  for (int trial = 0; trial < 40; ++trial) {
    std::vector<CollisionObject> boxes;
    for (int b = 0; b < 5; ++b) {
      const Eigen::Vector3d centre(unit(rng) * 1.4 - 0.7, unit(rng) * 1.4 - 0.7, unit(rng) * 1.2);
      const Eigen::Vector3d size(0.05 + 0.25 * unit(rng), 0.05 + 0.25 * unit(rng),
                                 0.05 + 0.25 * unit(rng));
      boxes.push_back(BoxObject("box" + std::to_string(b), centre, size));
    }
    auto scene = *CollisionScene::Build(boxes);
    for (int k = 0; k < 10; ++k) {
      const Eigen::VectorXd q =
          Eigen::Vector3d(6 * unit(rng) - 3, 6 * unit(rng) - 3, 6 * unit(rng) - 3);
      CollisionQuery query;
      query.self_collision = false;
      const CollisionVerdict v = CheckCollision(*arm.chain, data, *arm.collision, *scene, q, query);
      auto reported = [&](const std::string& link, const std::string& box) {
        for (const Contact& c : v.contacts) {
          if (c.link == link && c.other == box) return true;
        }
        return false;
      };
      for (const TestShape& s : shapes) {
        const Eigen::Isometry3d frame = LinkFrame(arm, q, s.link);
        for (const CollisionObject& box : boxes) {
          const Eigen::Vector3d half = 0.5 * box.shape.box_size;
          bool inside = false;
          for (const Eigen::Vector3d& p : s.samples) {
            const Eigen::Vector3d d = (frame * p - box.pose.position).cwiseAbs();
            if ((d.array() <= half.array()).all()) {
              inside = true;
              break;
            }
          }
          sampled_hits += inside;
          if (inside) {
            EXPECT_TRUE(reported(s.link, box.id)) << s.link << " in " << box.id;
          }
        }
      }
      for (const Contact& c : v.contacts) {
        if (c.depth < 0.02) continue;  // shallower than the sampling can see
        const TestShape& s = *std::find_if(shapes.begin(), shapes.end(),
                                           [&](const TestShape& t) { return t.link == c.link; });
        const CollisionObject& box = *std::find_if(
            boxes.begin(), boxes.end(), [&](const CollisionObject& o) { return o.id == c.other; });
        const Eigen::Isometry3d frame = LinkFrame(arm, q, s.link);
        bool inside = false;
        for (const Eigen::Vector3d& p : s.samples) {
          const Eigen::Vector3d d = (frame * p - box.pose.position).cwiseAbs();
          inside = inside || (d.array() <= (0.5 * box.shape.box_size).array()).all();
        }
        EXPECT_TRUE(inside) << c.link << " / " << c.other << " depth " << c.depth;
      }
    }
  }
  EXPECT_GT(sampled_hits, 20) << "the scenes must produce collisions to judge";
}

// A box written as a 12-triangle STL gives the same verdicts and distances
// as the box primitive.
TEST(CollisionCheckerTest, AnStlBoxBehavesLikeTheBox) {
  const Arm arm = LoadArm();
  ChainData data(*arm.chain);
  auto mesh = std::make_shared<TriangleMesh>();
  const Eigen::Vector3d h(0.1, 0.15, 0.12);
  for (const motion_test::Triangle& t : motion_test::BoxTriangles(h)) {
    for (const Eigen::Vector3d& p : t) mesh->vertices.push_back(p);
  }
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int collisions = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const Eigen::Vector3d centre(unit(rng) - 0.5, unit(rng) - 0.5, unit(rng) * 1.0);
    CollisionObject as_box = BoxObject("b", centre, 2 * h);
    CollisionObject as_mesh = as_box;
    as_mesh.shape = CollisionShape::Mesh(mesh);
    auto box_scene = *CollisionScene::Build({as_box});
    auto mesh_scene = *CollisionScene::Build({as_mesh});
    const Eigen::VectorXd q =
        Eigen::Vector3d(6 * unit(rng) - 3, 6 * unit(rng) - 3, 6 * unit(rng) - 3);
    CollisionQuery query;
    query.self_collision = false;
    query.compute_distance = true;
    const CollisionVerdict a =
        CheckCollision(*arm.chain, data, *arm.collision, *box_scene, q, query);
    const CollisionVerdict b =
        CheckCollision(*arm.chain, data, *arm.collision, *mesh_scene, q, query);
    // A mesh is a surface: a link entirely inside the box touches no
    // triangle; the scenes here are large enough that this is rare, and
    // then the mesh's verdict is the one that differs.
    if (a.in_collision != b.in_collision) {
      EXPECT_TRUE(a.in_collision);
      continue;
    }
    collisions += a.in_collision;
    // Both distances end an iterative GJK search (FCL's termination
    // tolerance ~1e-6 relative): they agree to a few micrometres.
    if (!a.in_collision) {
      EXPECT_NEAR(a.min_distance, b.min_distance, 1e-5);
    }
  }
  EXPECT_GT(collisions, 10);
}

TEST(CollisionCheckerTest, FoldingTheArmOntoItselfIsASelfCollision) {
  const Arm arm = LoadArm();
  ChainData data(*arm.chain);
  CollisionQuery query;
  // Straight up: nothing touches.
  EXPECT_FALSE(CheckCollision(*arm.chain, data, *arm.collision, *CollisionScene::Empty(),
                              Eigen::Vector3d(0, 0, 0), query)
                   .in_collision);
  // Rotations about y by a map (x, z) to (x cos a + z sin a, z cos a - x sin a).
  // Elbow folded right back (j2 = 0, j3 = 2.9): link3's origin is at
  // (0, 0.8), its sphere centre 0.15 further at angle 2.9: (0.036, 0.654),
  // above link1's cylinder (z <= 0.4): nothing touches yet.
  EXPECT_FALSE(CheckCollision(*arm.chain, data, *arm.collision, *CollisionScene::Empty(),
                              Eigen::Vector3d(0, 0, 2.9), query)
                   .in_collision);
  // j2 = 2.6 as well: link3's origin at 0.4 + 0.4 (sin 2.6, cos 2.6) =
  // (0.206, 0.057), the sphere centre at angle 5.5: (0.1004, 0.1635), 0.1004
  // from link1's axis, inside the cylinder's height: the sphere (r 0.06)
  // and the cylinder (r 0.05) overlap by 0.11 - 0.1004 = 0.0096. The base
  // cube (z <= 0) and link2's box (lowest z ~0.03) touch nothing.
  const CollisionVerdict v =
      CheckCollision(*arm.chain, data, *arm.collision, *CollisionScene::Empty(),
                     Eigen::Vector3d(0, 2.6, 2.9), query);
  ASSERT_TRUE(v.in_collision);
  ASSERT_EQ(v.contacts.size(), 1u);
  EXPECT_EQ(v.contacts[0].link, "link1");
  EXPECT_EQ(v.contacts[0].other, "link3");
  EXPECT_NEAR(v.contacts[0].depth, 0.11 - 0.100369, 1e-4);
}

TEST(CollisionCheckerTest, BadScenesAreRefusedNamingTheObject) {
  auto bad_size = CollisionScene::Build({BoxObject("a", {0, 0, 0}, {0.1, -0.2, 0.1})});
  ASSERT_FALSE(bad_size.ok());
  EXPECT_NE(bad_size.status().message().find("objects[0].shape.box.size.y"), std::string::npos)
      << bad_size.status();
  auto nan = CollisionScene::Build({BoxObject("a", {0, 0, 0}, {0.1, NAN, 0.1})});
  ASSERT_FALSE(nan.ok());
  auto duplicate = CollisionScene::Build(
      {BoxObject("a", {0, 0, 0}, {0.1, 0.1, 0.1}), BoxObject("a", {1, 0, 0}, {0.1, 0.1, 0.1})});
  ASSERT_FALSE(duplicate.ok());
  EXPECT_NE(duplicate.status().message().find("objects[1].id"), std::string::npos);
  SceneLimits limits;
  limits.max_objects = 3;
  std::vector<CollisionObject> many;
  for (int i = 0; i < 4; ++i) many.push_back(BoxObject(std::to_string(i), {0, 0, 0}, {1, 1, 1}));
  auto too_many = CollisionScene::Build(many, limits);
  ASSERT_FALSE(too_many.ok());
  EXPECT_NE(too_many.status().message().find("limit is 3"), std::string::npos);
}

// A bundled arm whose URDF collision elements are meshes nobody sent: each
// link is approximated by a capsule between its joints, and says so.
TEST(CollisionCheckerTest, MeshesNotSentAreApproximatedAndReported) {
  auto model = *RobotModel::FromUrdf(motion_test::ReadRobotFile("ur5.urdf"));
  auto chain = *model->Chain();
  auto collision = RobotCollisionModel::Build(*chain, model->link_collisions());
  ASSERT_TRUE(collision->has_geometry());
  int approximated = 0;
  for (const LinkCollisionGeometry& l : collision->links()) {
    if (l.source == "approximated") {
      ++approximated;
      EXPECT_FALSE(l.missing_meshes.empty());
      EXPECT_NE(l.missing_meshes[0].find(".stl"), std::string::npos) << l.missing_meshes[0];
    }
  }
  EXPECT_GE(approximated, 6);
  // Home pose of the UR5 (upright): no self-collision.
  ChainData data(*chain);
  const Eigen::VectorXd home =
      (Eigen::VectorXd(6) << 0.0, -1.5708, 1.5708, -1.5708, -1.5708, 0.0).finished();
  EXPECT_FALSE(
      CheckCollision(*chain, data, *collision, *CollisionScene::Empty(), home, CollisionQuery())
          .in_collision);
}

}  // namespace
}  // namespace motion
