// Kinematics.CheckCollision over real gRPC: distances a hand computation
// gives, every contact in input order, what each link was checked with, and
// every malformed scene refused naming its field.

#include <chrono>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "service_test_support.h"

namespace motiond_test {
namespace {

const std::vector<double> kUr5Home = {0.0, -1.5708, 1.5708, -1.5708, -1.5708, 0.0};

// One link that turns about z: a sphere of radius 0.1 at 0.5 m along its x.
constexpr const char* kSphereOnAnArm = R"(<?xml version="1.0"?>
<robot name="sphere_on_an_arm">
  <link name="base"/>
  <link name="arm"><collision><origin xyz="0.5 0 0"/><geometry><sphere radius="0.1"/></geometry></collision></link>
  <joint name="turn" type="revolute"><parent link="base"/><child link="arm"/><axis xyz="0 0 1"/><limit lower="-3" upper="3" velocity="1" effort="1"/></joint>
</robot>)";

class CollisionServiceTest : public ::testing::Test {
 protected:
  TestServer server_;
  Stubs stubs_{server_.NewChannel()};

  grpc::Status Check(const v1::CheckCollisionRequest& request,
                     v1::CheckCollisionResponse* response) {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(20));
    return stubs_.kinematics().CheckCollision(&context, request, response);
  }

  static v1::CheckCollisionRequest SphereRequest(const std::vector<double>& angles) {
    v1::CheckCollisionRequest request;
    request.mutable_robot()->set_urdf(kSphereOnAnArm);
    *request.mutable_scene()->mutable_scene()->add_objects() =
        WireBox("post", 1.0, 0, 0, 0.2, 0.2, 0.2);
    for (double a : angles) request.add_configurations()->add_values(a);
    request.set_compute_distance(true);
    return request;
  }
};

TEST_F(CollisionServiceTest, DistancesAreTheHandComputedOnesInInputOrder) {
  // q = 0: sphere centre (0.5, 0, 0), box face at x = 0.9: 0.9 - 0.5 - 0.1.
  // q = pi/2: centre (0, 0.5, 0), nearest box point (0.9, 0.1, 0).
  // q = 0.3 with the box moved to touch: see below.
  v1::CheckCollisionRequest request = SphereRequest({0.0, M_PI / 2});
  v1::CheckCollisionResponse response;
  ASSERT_TRUE(Check(request, &response).ok());
  ASSERT_EQ(response.results_size(), 2);
  EXPECT_FALSE(response.results(0).in_collision());
  EXPECT_NEAR(response.results(0).min_distance(), 0.3, 1e-6);
  EXPECT_EQ(response.results(0).nearest_link(), "arm");
  EXPECT_EQ(response.results(0).nearest_other(), "post");
  EXPECT_NEAR(response.results(1).min_distance(), std::hypot(0.9, 0.4) - 0.1, 1e-6);
  // The box moved to x = 0.62: its face at 0.52 is 0.08 inside the sphere.
  *request.mutable_scene()->mutable_scene()->mutable_objects(0) =
      WireBox("post", 0.62, 0, 0, 0.2, 0.2, 0.2);
  response.Clear();
  ASSERT_TRUE(Check(request, &response).ok());
  ASSERT_TRUE(response.results(0).in_collision());
  ASSERT_EQ(response.results(0).contacts_size(), 1);
  EXPECT_EQ(response.results(0).contacts(0).link(), "arm");
  EXPECT_EQ(response.results(0).contacts(0).other(), "post");
  EXPECT_NEAR(response.results(0).contacts(0).depth(), 0.08, 1e-6);
  EXPECT_FALSE(response.results(1).in_collision());
}

TEST_F(CollisionServiceTest, EveryContactOfAConfigurationIsReported) {
  v1::CheckCollisionRequest request = SphereRequest({0.0});
  request.set_compute_distance(false);
  *request.mutable_scene()->mutable_scene()->add_objects() =
      WireBox("second", 0.4, 0, 0, 0.1, 0.1, 0.1);
  *request.mutable_scene()->mutable_scene()->add_objects() =
      WireBox("third", 0.5, 0.1, 0, 0.1, 0.1, 0.1);
  *request.mutable_scene()->mutable_scene()->mutable_objects(0) =
      WireBox("post", 0.62, 0, 0, 0.2, 0.2, 0.2);
  v1::CheckCollisionResponse response;
  ASSERT_TRUE(Check(request, &response).ok());
  ASSERT_EQ(response.results_size(), 1);
  std::set<std::string> others;
  for (const v1::Contact& c : response.results(0).contacts()) others.insert(c.other());
  EXPECT_EQ(others, (std::set<std::string>{"post", "second", "third"}));
}

TEST_F(CollisionServiceTest, TheResponseSaysWhatEachLinkWasCheckedWith) {
  v1::CheckCollisionRequest request;
  request.mutable_robot()->set_urdf(ReadRobot("ur5.urdf"));
  request.add_configurations()->mutable_values()->Add(kUr5Home.begin(), kUr5Home.end());
  v1::CheckCollisionResponse response;
  ASSERT_TRUE(Check(request, &response).ok());
  EXPECT_FALSE(response.results(0).in_collision()) << "the UR5's home pose is collision-free";
  int approximated = 0;
  for (const v1::LinkGeometryInfo& l : response.links()) {
    if (l.source() == "approximated") {
      ++approximated;
      ASSERT_GT(l.missing_meshes_size(), 0);
      EXPECT_EQ(l.missing_meshes(0).rfind("package://", 0), 0u) << l.missing_meshes(0);
    }
  }
  EXPECT_GE(approximated, 6);
  bool adjacent = false;
  for (const v1::DisabledLinkPair& p : response.disabled_pairs())
    adjacent |= p.reason() == "adjacent";
  EXPECT_TRUE(adjacent);
}

TEST_F(CollisionServiceTest, MalformedScenesAndRequestsAreRefusedNamingTheField) {
  v1::CheckCollisionRequest request = SphereRequest({0.0});
  v1::CheckCollisionResponse response;
  // A negative box size.
  v1::CheckCollisionRequest bad = request;
  bad.mutable_scene()
      ->mutable_scene()
      ->mutable_objects(0)
      ->mutable_shape()
      ->mutable_box()
      ->mutable_size()
      ->set_y(-0.2);
  EXPECT_TRUE(IsInvalidArgument(Check(bad, &response), "scene.scene.objects[0].shape.box.size.y",
                                {"-0.2"}));
  // NaN radius.
  bad = request;
  bad.mutable_scene()
      ->mutable_scene()
      ->mutable_objects(0)
      ->mutable_shape()
      ->mutable_sphere()
      ->set_radius(NAN);
  EXPECT_TRUE(IsInvalidArgument(Check(bad, &response), "scene.scene.objects[0].shape.sphere.radius",
                                {"finite"}));
  // Duplicate ids.
  bad = request;
  *bad.mutable_scene()->mutable_scene()->add_objects() = WireBox("post", 2, 0, 0, 1, 1, 1);
  EXPECT_TRUE(
      IsInvalidArgument(Check(bad, &response), "scene.scene.objects[1].id", {"earlier object"}));
  // A truncated STL.
  bad = request;
  bad.mutable_scene()
      ->mutable_scene()
      ->mutable_objects(0)
      ->mutable_shape()
      ->mutable_mesh()
      ->set_stl(std::string(80, ' ') + std::string("\x0c\0\0\0", 4) + std::string(100, '\0'));
  EXPECT_TRUE(IsInvalidArgument(Check(bad, &response), "scene.scene.objects[0].shape.mesh.stl",
                                {"truncated"}));
  // No shape at all.
  bad = request;
  bad.mutable_scene()->mutable_scene()->mutable_objects(0)->clear_shape();
  EXPECT_TRUE(
      IsInvalidArgument(Check(bad, &response), "scene.scene.objects[0].shape", {"no shape"}));
  // Wrong joint count, negative margin, too many configurations.
  bad = request;
  bad.mutable_configurations(0)->add_values(0.1);
  EXPECT_TRUE(IsInvalidArgument(Check(bad, &response), "configurations[0].values", {"1"}));
  bad = request;
  bad.set_safety_margin(-0.01);
  EXPECT_TRUE(IsInvalidArgument(Check(bad, &response), "safety_margin", {">= 0"}));
  bad = request;
  for (int i = 0; i < 10001; ++i) bad.add_configurations()->add_values(0.0);
  EXPECT_TRUE(IsInvalidArgument(Check(bad, &response), "configurations", {"limit"}));
  // Scene ids: malformed, not the inline scene's, never registered.
  bad = request;
  bad.mutable_scene()->set_scene_id("sha256:" + std::string(64, 'a'));
  EXPECT_TRUE(IsInvalidArgument(Check(bad, &response), "scene.scene_id", {"content hash"}));
  bad.mutable_scene()->clear_scene();
  bad.mutable_scene()->set_scene_id("sha256:abc");
  EXPECT_TRUE(IsInvalidArgument(Check(bad, &response), "scene.scene_id", {"64 lowercase hex"}));
  bad.mutable_scene()->set_scene_id("sha256:" + std::string(64, 'a'));
  const grpc::Status unknown = Check(bad, &response);
  EXPECT_EQ(unknown.error_code(), grpc::StatusCode::NOT_FOUND);
  const auto info = FindErrorInfo(unknown);
  ASSERT_TRUE(info.has_value());
  EXPECT_EQ(info->reason(), "SCENE_NOT_REGISTERED");
  EXPECT_EQ(info->metadata().at("scene_id"), "sha256:" + std::string(64, 'a'));
}

TEST_F(CollisionServiceTest, SceneOfTooManyObjectsIsRefusedByTheDocumentedLimit) {
  v1::CheckCollisionRequest request = SphereRequest({0.0});
  for (int i = 0; i < 10001; ++i) {
    *request.mutable_scene()->mutable_scene()->add_objects() =
        WireBox("o" + std::to_string(i), 5, 5, 5, 0.1, 0.1, 0.1);
  }
  v1::CheckCollisionResponse response;
  EXPECT_TRUE(IsInvalidArgument(Check(request, &response), "scene.scene.objects", {"10000"}));
  // 100 000 objects (~7 MB): refused before anything is hashed or built.
  for (int i = 10001; i < 99999; ++i) {  // with the post: 100 000
    *request.mutable_scene()->mutable_scene()->add_objects() =
        WireBox("o" + std::to_string(i), 5, 5, 5, 0.1, 0.1, 0.1);
  }
  EXPECT_TRUE(IsInvalidArgument(Check(request, &response), "scene.scene.objects", {"100000"}));
}

// The Panda's default chain ends at its flange (panda_link8); the hand is
// welded to it by fixed joints and moves with it, so it is checked too
// (its mesh not sent: a 5 cm capsule from its origin to its TCP frame). A
// 2 cm cube 8 cm beyond the flange, placed from ComputeFk's link poses,
// touches the hand and nothing else; the fingers (behind prismatic joints
// the chain does not command) are not part of the model.
TEST_F(CollisionServiceTest, LinksWeldedBeyondTheTipAreCheckedWithTheirChainLink) {
  const std::vector<double> ready = {0, -0.785, 0, -2.356, 0, 1.571, 0.785};
  v1::ComputeFkRequest fk;
  fk.mutable_robot()->set_urdf(ReadRobot("panda.urdf"));
  fk.mutable_robot()->set_tip_link("panda_hand_tcp");
  fk.mutable_joints()->Add(ready.begin(), ready.end());
  fk.set_all_links(true);
  v1::ComputeFkResponse poses;
  ASSERT_TRUE(stubs_.ComputeFk(fk, &poses).ok());
  Eigen::Vector3d hand = Eigen::Vector3d::Zero(), tcp = ToIsometry(poses.tcp()).translation();
  for (const v1::LinkPose& l : poses.links()) {
    if (l.link() == "panda_hand") hand = ToIsometry(l.pose()).translation();
  }
  ASSERT_NEAR((tcp - hand).norm(), 0.1034, 1e-6);
  const Eigen::Vector3d at = hand + 0.08 / 0.1034 * (tcp - hand);

  v1::CheckCollisionRequest request;
  request.mutable_robot()->set_urdf(ReadRobot("panda.urdf"));
  request.add_configurations()->mutable_values()->Add(ready.begin(), ready.end());
  *request.mutable_scene()->mutable_scene()->add_objects() =
      WireBox("cube", at.x(), at.y(), at.z(), 0.02, 0.02, 0.02);
  request.set_check_self_collision(false);
  v1::CheckCollisionResponse response;
  ASSERT_TRUE(Check(request, &response).ok());
  ASSERT_EQ(response.results(0).contacts_size(), 1) << response.ShortDebugString();
  EXPECT_EQ(response.results(0).contacts(0).link(), "panda_hand");
  EXPECT_EQ(response.results(0).contacts(0).other(), "cube");
  std::set<std::string> links;
  for (const v1::LinkGeometryInfo& l : response.links()) links.insert(l.link());
  EXPECT_TRUE(links.count("panda_hand"));
  EXPECT_FALSE(links.count("panda_leftfinger"));
  EXPECT_FALSE(links.count("panda_rightfinger"));
}

}  // namespace
}  // namespace motiond_test
