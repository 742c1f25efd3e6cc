// Collision geometry that travels once over real gRPC: meshes registered
// with their URDF (a content-hash robot_id a shell computes with
// sha256sum), scenes registered by id (sha256 of their serialization), a
// request's allowed pairs and PlanPath's safety margin, and every malformed
// mesh, scene reference and pair refused naming its field.

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "service_test_support.h"

namespace motiond_test {
namespace {

constexpr const char* kMeshFile = "package://cell_parts/meshes/block.stl";

// One link that turns about z, its collision geometry 0.5 m along x: a
// mesh file (MeshArm) or the box primitive the mesh is made of (BoxArm).
std::string ArmWith(const std::string& geometry) {
  return R"(<?xml version="1.0"?>
<robot name="block_on_an_arm">
  <link name="base"/>
  <link name="arm"><collision><origin xyz="0.5 0 0" rpy="0 0 0.3"/><geometry>)" +
         geometry + R"(</geometry></collision></link>
  <joint name="turn" type="revolute"><parent link="base"/><child link="arm"/><axis xyz="0 0 1"/><limit lower="-3" upper="3" velocity="1" effort="1"/></joint>
</robot>)";
}
const std::string kMeshArm = ArmWith(std::string("<mesh filename=\"") + kMeshFile + "\"/>");
const std::string kBoxArm = ArmWith("<box size=\"0.2 0.1 0.3\"/>");

const std::string kBlockStl = BinaryStlOfBox(0.2, 0.1, 0.3);

// Two posts that the turning block sweeps past: one it reaches, one it
// does not, at heights where a mesh's surface and the solid agree (neither
// shape ever holds the other whole).
v1::Scene Posts() {
  v1::Scene scene;
  *scene.add_objects() = WireBox("near_post", 0.0, 0.65, 0.0, 0.2, 0.2, 0.6);
  *scene.add_objects() = WireBox("far_post", -0.9, 0.0, 0.0, 0.2, 0.2, 0.6);
  return scene;
}

class CollisionRegistrationTest : public ::testing::Test {
 protected:
  TestServer server_;
  Stubs stubs_{server_.NewChannel()};

  grpc::Status Register(const v1::RegisterRobotRequest& request, v1::RegisterRobotResponse* out) {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(20));
    return stubs_.registry().RegisterRobot(&context, request, out);
  }
  grpc::Status RegisterScene(const v1::Scene& scene, v1::RegisterSceneResponse* out) {
    v1::RegisterSceneRequest request;
    *request.mutable_scene() = scene;
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(20));
    return stubs_.registry().RegisterScene(&context, request, out);
  }
  grpc::Status Check(const v1::CheckCollisionRequest& request, v1::CheckCollisionResponse* out) {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(20));
    return stubs_.kinematics().CheckCollision(&context, request, out);
  }
  static v1::RegisterRobotRequest MeshArmRequest() {
    v1::RegisterRobotRequest request;
    request.set_urdf(kMeshArm);
    v1::MeshFile* mesh = request.add_meshes();
    mesh->set_filename(kMeshFile);
    mesh->set_data(kBlockStl);
    return request;
  }
  static v1::CheckCollisionRequest Sweep(int count) {
    v1::CheckCollisionRequest request;
    *request.mutable_scene()->mutable_scene() = Posts();
    for (int i = 0; i < count; ++i)
      request.add_configurations()->add_values(-3.0 + 6.0 * i / count);
    request.set_compute_distance(true);
    return request;
  }
};

TEST_F(CollisionRegistrationTest, AMeshSentWithItsUrdfHasTheIdAShellComputesAndActsAsItsBox) {
  v1::RegisterRobotResponse registered;
  ASSERT_TRUE(Register(MeshArmRequest(), &registered).ok());
  // The documented id, computed with sha256sum and string concatenation.
  const std::string urdf_hex = Sha256sumIdOfText(kMeshArm).substr(7);
  const std::string mesh_hex = Sha256sumIdOfText(kBlockStl).substr(7);
  EXPECT_EQ(registered.robot_id(),
            Sha256sumIdOfText(urdf_hex + "\n" + kMeshFile + "\n" + mesh_hex + "\n"));
  EXPECT_NE(registered.robot_id(), Sha256sumIdOfText(kMeshArm));
  ASSERT_EQ(registered.info().meshes_size(), 1);
  EXPECT_EQ(registered.info().meshes(0), kMeshFile);
  bool arm_from_urdf = false;
  for (const v1::LinkGeometryInfo& l : registered.info().link_geometry()) {
    if (l.link() == "arm") arm_from_urdf = l.source() == "urdf" && l.shapes() == 1;
  }
  EXPECT_TRUE(arm_from_urdf) << registered.info().ShortDebugString();

  // By id alone, the mesh's verdicts and distances are its box's (apart: the
  // same distance; in contact: both in contact).
  v1::CheckCollisionRequest by_mesh = Sweep(120), by_box = Sweep(120);
  by_mesh.mutable_robot()->set_robot_id(registered.robot_id());
  by_box.mutable_robot()->set_urdf(kBoxArm);
  v1::CheckCollisionResponse mesh, box;
  ASSERT_TRUE(Check(by_mesh, &mesh).ok());
  ASSERT_TRUE(Check(by_box, &box).ok());
  ASSERT_EQ(mesh.results_size(), 120);
  int contacts = 0;
  for (int i = 0; i < 120; ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(mesh.results(i).in_collision(), box.results(i).in_collision());
    contacts += box.results(i).in_collision();
    if (!box.results(i).in_collision()) {
      EXPECT_NEAR(mesh.results(i).min_distance(), box.results(i).min_distance(), 1e-5);
      EXPECT_EQ(mesh.results(i).nearest_other(), box.results(i).nearest_other());
    }
  }
  EXPECT_GT(contacts, 3) << "the sweep reaches the near post";
  EXPECT_LT(contacts, 60);

  // The same URDF without its mesh keeps the URDF's own id, and its link
  // is approximated (and says which file was missing).
  v1::RegisterRobotRequest bare;
  bare.set_urdf(kMeshArm);
  v1::RegisterRobotResponse plain;
  ASSERT_TRUE(Register(bare, &plain).ok());
  EXPECT_EQ(plain.robot_id(), Sha256sumIdOfText(kMeshArm));
  for (const v1::LinkGeometryInfo& l : plain.info().link_geometry()) {
    if (l.link() != "arm") continue;
    EXPECT_EQ(l.source(), "approximated");
    ASSERT_EQ(l.missing_meshes_size(), 1);
    EXPECT_EQ(l.missing_meshes(0), kMeshFile);
  }
  // Registering again is idempotent.
  v1::RegisterRobotResponse again;
  ASSERT_TRUE(Register(MeshArmRequest(), &again).ok());
  EXPECT_TRUE(again.already_registered());
  EXPECT_EQ(again.robot_id(), registered.robot_id());
}

TEST_F(CollisionRegistrationTest, MeshesInlineInARobotRefRegisterOnTheFlyAndMustMatchTheId) {
  v1::CheckCollisionRequest request = Sweep(4);
  v1::RobotRef* robot = request.mutable_robot();
  robot->set_urdf(kMeshArm);
  *robot->add_meshes() = MeshArmRequest().meshes(0);
  v1::CheckCollisionResponse response;
  ASSERT_TRUE(Check(request, &response).ok());
  EXPECT_EQ(response.links(1).source(), "urdf");
  robot->set_robot_id(Sha256sumIdOfText(kMeshArm));  // the id without the mesh
  EXPECT_TRUE(IsInvalidArgument(Check(request, &response), "robot.robot_id", {"content hash"}));
  robot->clear_robot_id();
  robot->clear_urdf();
  EXPECT_TRUE(IsInvalidArgument(Check(request, &response), "robot.meshes", {"urdf"}));
}

TEST_F(CollisionRegistrationTest, MalformedMeshesAreRefusedNamingTheField) {
  v1::RegisterRobotResponse response;
  auto with_data = [](const std::string& data) {
    v1::RegisterRobotRequest r = MeshArmRequest();
    r.mutable_meshes(0)->set_data(data);
    return r;
  };
  // Not an STL at all.
  EXPECT_TRUE(IsInvalidArgument(Register(with_data("PK\x03\x04 a zip file"), &response),
                                "meshes[0].data", {}));
  // Truncated: the header promises 12 triangles, 100 bytes follow.
  std::string truncated = kBlockStl.substr(0, 184);
  EXPECT_TRUE(IsInvalidArgument(Register(with_data(truncated), &response), "meshes[0].data",
                                {"truncated"}));
  // A count that does not match the bytes (13 claimed, 12 sent).
  std::string miscounted = kBlockStl;
  miscounted[80] = 13;
  EXPECT_TRUE(IsInvalidArgument(Register(with_data(miscounted), &response), "meshes[0].data", {}));
  // 10^7 triangles claimed: refused by the limit before anything is read.
  std::string huge = kBlockStl;
  const std::uint32_t ten_million = 10'000'000;
  std::memcpy(&huge[80], &ten_million, 4);
  EXPECT_TRUE(
      IsInvalidArgument(Register(with_data(huge), &response), "meshes[0].data", {"1000000"}));
  // A filename the URDF does not name, the same one twice, a line break.
  v1::RegisterRobotRequest unknown = MeshArmRequest();
  unknown.mutable_meshes(0)->set_filename("block.stl");
  EXPECT_TRUE(
      IsInvalidArgument(Register(unknown, &response), "meshes[0].filename", {"not the filename"}));
  v1::RegisterRobotRequest twice = MeshArmRequest();
  *twice.add_meshes() = twice.meshes(0);
  EXPECT_TRUE(IsInvalidArgument(Register(twice, &response), "meshes[1].filename", {"twice"}));
  v1::RegisterRobotRequest broken = MeshArmRequest();
  broken.mutable_meshes(0)->set_filename("a\nb");
  EXPECT_TRUE(
      IsInvalidArgument(Register(broken, &response), "meshes[0].filename", {"control character"}));
  v1::RegisterRobotRequest many = MeshArmRequest();
  for (int i = 0; i < 256; ++i) *many.add_meshes() = many.meshes(0);
  EXPECT_TRUE(IsInvalidArgument(Register(many, &response), "meshes", {"256"}));
}

TEST_F(CollisionRegistrationTest, ARegisteredSceneIsServedByItsIdAndAnUnknownIdIsNotFound) {
  const v1::Scene scene = Posts();
  v1::RegisterSceneResponse registered;
  ASSERT_TRUE(RegisterScene(scene, &registered).ok());
  std::string bytes;
  ASSERT_TRUE(scene.SerializeToString(&bytes));
  EXPECT_EQ(registered.scene_id(), Sha256sumIdOfText(bytes));
  EXPECT_EQ(registered.object_count(), 2);
  EXPECT_FALSE(registered.already_registered());
  v1::RegisterSceneResponse again;
  ASSERT_TRUE(RegisterScene(scene, &again).ok());
  EXPECT_TRUE(again.already_registered());

  v1::CheckCollisionRequest inline_scene = Sweep(24);
  inline_scene.mutable_robot()->set_urdf(kBoxArm);
  v1::CheckCollisionRequest by_id = inline_scene;
  by_id.mutable_scene()->clear_scene();
  by_id.mutable_scene()->set_scene_id(registered.scene_id());
  v1::CheckCollisionResponse a, b;
  ASSERT_TRUE(Check(inline_scene, &a).ok());
  ASSERT_TRUE(Check(by_id, &b).ok());
  ASSERT_EQ(a.results_size(), b.results_size());
  for (int i = 0; i < a.results_size(); ++i) {
    EXPECT_EQ(a.results(i).in_collision(), b.results(i).in_collision()) << i;
    EXPECT_EQ(a.results(i).min_distance(), b.results(i).min_distance()) << i;
  }
  // Another scene's id: NOT_FOUND with the reason a client re-sends on.
  v1::Scene other = scene;
  other.mutable_objects(0)->mutable_pose()->mutable_position()->set_z(0.01);
  std::string other_bytes;
  ASSERT_TRUE(other.SerializeToString(&other_bytes));
  by_id.mutable_scene()->set_scene_id(Sha256sumIdOfText(other_bytes));
  const grpc::Status missing = Check(by_id, &b);
  EXPECT_EQ(missing.error_code(), grpc::StatusCode::NOT_FOUND) << Describe(missing);
  const auto info = FindErrorInfo(missing);
  ASSERT_TRUE(info.has_value());
  EXPECT_EQ(info->reason(), "SCENE_NOT_REGISTERED");
  // A malformed scene is refused by RegisterScene, naming the field.
  other.mutable_objects(1)->mutable_shape()->mutable_box()->mutable_size()->set_z(-1);
  EXPECT_TRUE(IsInvalidArgument(RegisterScene(other, &registered),
                                "scene.objects[1].shape.box.size.z", {}));
}

TEST_F(CollisionRegistrationTest, AllowedPairsAreNotCheckedAndUnknownNamesAreRefused) {
  v1::CheckCollisionRequest request = Sweep(120);
  request.mutable_robot()->set_urdf(kBoxArm);
  v1::CheckCollisionResponse all;
  ASSERT_TRUE(Check(request, &all).ok());
  std::set<std::string> hit;
  for (const v1::CollisionResult& r : all.results()) {
    for (const v1::Contact& c : r.contacts()) hit.insert(c.other());
  }
  ASSERT_EQ(hit, std::set<std::string>{"near_post"});
  // Allowed (either order): no contact, and the distance is to the other post.
  v1::LinkPair* pair = request.add_allowed_collisions();
  pair->set_a("near_post");
  pair->set_b("arm");
  v1::CheckCollisionResponse allowed;
  ASSERT_TRUE(Check(request, &allowed).ok());
  for (const v1::CollisionResult& r : allowed.results()) {
    EXPECT_FALSE(r.in_collision());
    EXPECT_EQ(r.nearest_other(), "far_post");
  }
  // Names the request cannot mean.
  pair->set_a("hand");
  EXPECT_TRUE(
      IsInvalidArgument(Check(request, &allowed), "allowed_collisions[0].a", {"not a link"}));
  pair->set_a("arm");
  pair->set_b("arm");
  EXPECT_TRUE(IsInvalidArgument(Check(request, &allowed), "allowed_collisions[0]", {"same link"}));
  pair->set_a("near_post");
  pair->set_b("far_post");
  EXPECT_TRUE(IsInvalidArgument(Check(request, &allowed), "allowed_collisions[0]", {"objects"}));
}

// A MoveJ that turns the block past a post. The closest approach over the
// sweep comes from CheckCollision at 2 001 joint values (its distance is
// checked by hand at q = pi/2 first): with a margin 1 cm above it the path
// is a COLLISION about 1 cm deep, with one 2 mm below it collision-free,
// and with the pair allowed collision-free again.
TEST_F(CollisionRegistrationTest, PlanPathHonoursItsSafetyMarginAndAllowedPairs) {
  v1::Scene scene;
  *scene.add_objects() = WireBox("near_post", 0.0, 0.82, 0.0, 0.2, 0.2, 0.6);  // face at y = 0.72
  v1::CheckCollisionRequest sweep;
  sweep.mutable_robot()->set_urdf(kBoxArm);
  *sweep.mutable_scene()->mutable_scene() = scene;
  sweep.add_configurations()->add_values(M_PI / 2);
  for (int i = 0; i <= 2000; ++i) sweep.add_configurations()->add_values(1.0 + 1.2 * i / 2000);
  sweep.set_compute_distance(true);
  v1::CheckCollisionResponse distances;
  ASSERT_TRUE(Check(sweep, &distances).ok());
  // At q = pi/2 the block's centre is at (0, 0.5), turned by pi/2 + 0.3: its
  // corners (+-0.1, +-0.05) reach y = 0.5 + 0.1 cos 0.3 + 0.05 sin 0.3, all
  // within the post's x span.
  ASSERT_NEAR(distances.results(0).min_distance(),
              0.72 - (0.5 + 0.1 * std::cos(0.3) + 0.05 * std::sin(0.3)), 1e-6);
  double clearance = 1e9;
  for (int i = 1; i < distances.results_size(); ++i) {
    clearance = std::min(clearance, distances.results(i).min_distance());
  }
  ASSERT_GT(clearance, 0.005);

  v1::PlanPathRequest request;
  request.mutable_robot()->set_urdf(kBoxArm);
  request.add_start_joints(1.0);
  v1::MotionSegment* move = request.add_segments();
  move->set_id("sweep");
  move->mutable_movej()->mutable_joints()->add_values(2.2);
  *request.mutable_scene()->mutable_scene() = scene;
  auto plan = [&](double margin, bool allow) {
    v1::PlanPathRequest r = request;
    r.set_safety_margin(margin);
    if (allow) {
      v1::LinkPair* p = r.add_allowed_collisions();
      p->set_a("arm");
      p->set_b("near_post");
    }
    PlanPathCall call = CallPlanPath(stubs_.planner(), r);
    EXPECT_TRUE(call.status.ok()) << Describe(call.status);
    return call;
  };
  PlanPathCall within = plan(clearance + 0.01, false);
  ASSERT_NE(within.summary(), nullptr);
  EXPECT_FALSE(within.summary()->collision_free());
  bool named = false;
  for (const v1::Diagnostic& d : within.summary()->diagnostics()) {
    if (d.code() != v1::COLLISION) continue;
    named = d.contact().link() == "arm" && d.contact().other() == "near_post";
    EXPECT_NEAR(d.contact().depth(), 0.01, 2e-4) << "margin - closest distance";
  }
  EXPECT_TRUE(named) << within.summary()->ShortDebugString();
  PlanPathCall outside = plan(clearance - 0.002, false);
  ASSERT_NE(outside.summary(), nullptr);
  EXPECT_TRUE(outside.summary()->collision_free()) << outside.summary()->ShortDebugString();
  PlanPathCall allowed = plan(clearance + 0.01, true);
  ASSERT_NE(allowed.summary(), nullptr);
  EXPECT_TRUE(allowed.summary()->collision_free());
  // A negative margin and an unknown pair name are refused.
  v1::PlanPathRequest bad = request;
  bad.set_safety_margin(-1);
  PlanPathCall refused = CallPlanPath(stubs_.planner(), bad);
  EXPECT_TRUE(IsInvalidArgument(refused.status, "safety_margin", {">= 0"}));
  bad = request;
  bad.add_allowed_collisions()->set_a("gripper");
  bad.mutable_allowed_collisions(0)->set_b("near_post");
  refused = CallPlanPath(stubs_.planner(), bad);
  EXPECT_TRUE(IsInvalidArgument(refused.status, "allowed_collisions[0].a", {"gripper"}));
}

// Without a scene, a path is checked against the robot itself by default
// when the robot has geometry of its own: a mesh that was sent counts, the
// capsule standing in for one that was not does not.
TEST_F(CollisionRegistrationTest, SelfCollisionIsOnByDefaultOnceTheMeshesAreSent) {
  v1::PlanPathRequest request;
  request.add_start_joints(0.0);
  v1::MotionSegment* move = request.add_segments();
  move->set_id("turn");
  move->mutable_movej()->mutable_joints()->add_values(0.5);
  v1::RegisterRobotResponse with_mesh;
  ASSERT_TRUE(Register(MeshArmRequest(), &with_mesh).ok());
  request.mutable_robot()->set_robot_id(with_mesh.robot_id());
  PlanPathCall checked = CallPlanPath(stubs_.planner(), request);
  ASSERT_NE(checked.summary(), nullptr) << Describe(checked.status);
  EXPECT_TRUE(checked.summary()->collision_checked());
  request.mutable_robot()->clear_robot_id();
  request.mutable_robot()->set_urdf(kMeshArm);
  PlanPathCall unchecked = CallPlanPath(stubs_.planner(), request);
  ASSERT_NE(unchecked.summary(), nullptr) << Describe(unchecked.status);
  EXPECT_FALSE(unchecked.summary()->collision_checked());
}

}  // namespace
}  // namespace motiond_test
