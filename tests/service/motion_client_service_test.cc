// The C++ client library against real in-process servers: robots it knows
// are sent by id, and a server that has never seen one (a fresh replica,
// or after eviction) gets the URDF re-sent transparently.

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "clients/motion_client.h"
#include "service_test_support.h"

namespace motiond_test {
namespace {

using motion::client::ClientOptions;
using motion::client::MotionClient;

// README reference: ur5 base_link -> tool0 at q_i = 0.1 (i + 1).
constexpr double kUr5RampX = 0.689485, kUr5RampY = 0.251465, kUr5RampZ = -0.273073;

v1::ComputeFkRequest Ur5RampRequest(const std::string& robot_id) {
  v1::ComputeFkRequest request;
  request.mutable_robot()->set_robot_id(robot_id);
  for (int i = 0; i < 6; ++i) request.add_joints(0.1 * (i + 1));
  return request;
}

void ExpectUr5Ramp(const v1::ComputeFkResponse& response) {
  EXPECT_NEAR(response.flange().position().x(), kUr5RampX, 1e-6);
  EXPECT_NEAR(response.flange().position().y(), kUr5RampY, 1e-6);
  EXPECT_NEAR(response.flange().position().z(), kUr5RampZ, 1e-6);
}

std::unique_ptr<MotionClient> ClientFor(const TestServer& server) {
  ClientOptions options;
  options.target = server.target();
  options.timeout = std::chrono::seconds(20);
  return MotionClient::Connect(options);
}

bool ServerHas(TestServer& server, const std::string& robot_id) {
  Stubs stubs(server.NewChannel());
  v1::GetRobotRequest request;
  request.set_robot_id(robot_id);
  v1::RobotInfo info;
  return stubs.GetRobot(request, &info).ok();
}

TEST(MotionClientTest, AddRobotComputesTheSha256sumIdLocally) {
  TestServer server;
  auto client = ClientFor(server);
  EXPECT_EQ(client->AddRobot(ReadRobot("ur5.urdf")), Sha256sumId(RobotPath("ur5.urdf")));
  // Adding sends nothing.
  EXPECT_FALSE(ServerHas(server, Sha256sumId(RobotPath("ur5.urdf"))));
}

TEST(MotionClientTest, IdOnlyFkOnAFreshServerResendsTheUrdf) {
  TestServer server;
  auto client = ClientFor(server);
  const std::string id = client->AddRobot(ReadRobot("ur5.urdf"));
  ASSERT_FALSE(ServerHas(server, id));

  v1::ComputeFkResponse response;
  const grpc::Status status = client->ComputeFk(Ur5RampRequest(id), &response);
  ASSERT_TRUE(status.ok()) << Describe(status);
  ExpectUr5Ramp(response);
  // The re-send registered the robot under the same id.
  EXPECT_TRUE(ServerHas(server, id));

  // A second fresh server, a second client that knows the robot.
  TestServer second;
  auto second_client = ClientFor(second);
  second_client->AddRobot(ReadRobot("ur5.urdf"));
  v1::ComputeFkResponse second_response;
  const grpc::Status second_status = second_client->ComputeFk(Ur5RampRequest(id), &second_response);
  ASSERT_TRUE(second_status.ok()) << Describe(second_status);
  EXPECT_EQ(second_response.flange().DebugString(), response.flange().DebugString());
  EXPECT_TRUE(ServerHas(second, id));
}

TEST(MotionClientTest, IdOnlyJacobianOnAFreshServerResendsTheUrdf) {
  TestServer server;
  auto client = ClientFor(server);
  const std::string id = client->AddRobot(ReadRobot("planar_2r.urdf"));
  v1::ComputeJacobianRequest request;
  request.mutable_robot()->set_robot_id(id);
  const double q1 = 0.5, q2 = 0.8;
  request.add_joints(q1);
  request.add_joints(q2);
  v1::ComputeJacobianResponse response;
  const grpc::Status status = client->ComputeJacobian(request, &response);
  ASSERT_TRUE(status.ok()) << Describe(status);
  // planar 2R: dx/dq1 = -0.1 s1 - 0.2 s12, dx/dq2 = -0.2 s12,
  //            dy/dq1 =  0.1 c1 + 0.2 c12, dy/dq2 =  0.2 c12, wz = 1, 1.
  ASSERT_EQ(response.data_size(), 12);
  EXPECT_NEAR(response.data(0), -0.1 * std::sin(q1) - 0.2 * std::sin(q1 + q2), 1e-12);
  EXPECT_NEAR(response.data(1), -0.2 * std::sin(q1 + q2), 1e-12);
  EXPECT_NEAR(response.data(2), 0.1 * std::cos(q1) + 0.2 * std::cos(q1 + q2), 1e-12);
  EXPECT_NEAR(response.data(3), 0.2 * std::cos(q1 + q2), 1e-12);
  EXPECT_NEAR(response.data(10), 1.0, 1e-12);
  EXPECT_NEAR(response.data(11), 1.0, 1e-12);
}

TEST(MotionClientTest, GetRobotOnAFreshServerRegistersTheKnownUrdf) {
  TestServer server;
  auto client = ClientFor(server);
  const std::string id = client->AddRobot(ReadRobot("panda.urdf"));
  v1::GetRobotRequest request;
  request.set_robot_id(id);
  request.set_tip_link("panda_hand_tcp");
  v1::RobotInfo info;
  const grpc::Status status = client->GetRobot(request, &info);
  ASSERT_TRUE(status.ok()) << Describe(status);
  EXPECT_EQ(info.robot_id(), id);
  EXPECT_EQ(info.tip_link(), "panda_hand_tcp");
  EXPECT_EQ(info.dof(), 7);
}

TEST(MotionClientTest, AnUnknownRobotTheClientNeverSawStaysNotFound) {
  TestServer server;
  auto client = ClientFor(server);
  v1::ComputeFkResponse response;
  const grpc::Status status =
      client->ComputeFk(Ur5RampRequest(Sha256sumId(RobotPath("ur5.urdf"))), &response);
  EXPECT_TRUE(IsRobotNotRegistered(status));
  EXPECT_TRUE(motion::client::IsRobotNotRegistered(status));
}

TEST(MotionClientTest, EvictionOnTheServerIsInvisibleToTheClient) {
  auto options = TestServer::DefaultOptions();
  options.registry.max_robots = 1;
  TestServer server(options);
  auto client = ClientFor(server);
  const std::string ur5 = client->AddRobot(ReadRobot("ur5.urdf"));
  const std::string planar = client->AddRobot(ReadRobot("planar_2r.urdf"));
  for (int round = 0; round < 3; ++round) {
    v1::ComputeFkResponse response;
    const grpc::Status status = client->ComputeFk(Ur5RampRequest(ur5), &response);
    ASSERT_TRUE(status.ok()) << Describe(status);
    ExpectUr5Ramp(response);
    v1::ComputeFkRequest request;  // evicts ur5 (max_robots = 1)
    request.mutable_robot()->set_robot_id(planar);
    request.add_joints(0.0);
    request.add_joints(0.0);
    const grpc::Status planar_status = client->ComputeFk(request, &response);
    ASSERT_TRUE(planar_status.ok()) << Describe(planar_status);
    EXPECT_NEAR(response.flange().position().x(), 0.3, 1e-12);
  }
}

TEST(MotionClientTest, ReplicasBehindARoundRobinChannelAreInterchangeable) {
  TestServer a, b;
  grpc::ChannelArguments args;
  args.SetLoadBalancingPolicyName("round_robin");
  auto channel = grpc::CreateCustomChannel(
      "ipv4:127.0.0.1:" + std::to_string(a.port()) + ",127.0.0.1:" + std::to_string(b.port()),
      grpc::InsecureChannelCredentials(), args);
  ClientOptions options;
  options.timeout = std::chrono::seconds(20);
  MotionClient client(channel, options);
  const std::string id = client.AddRobot(ReadRobot("ur5.urdf"));
  for (int i = 0; i < 8; ++i) {
    v1::ComputeFkResponse response;
    const grpc::Status status = client.ComputeFk(Ur5RampRequest(id), &response);
    ASSERT_TRUE(status.ok()) << "call " << i << ": " << Describe(status);
    ExpectUr5Ramp(response);
  }
  // At least one replica learnt the robot from a re-send.
  EXPECT_TRUE(ServerHas(a, id) || ServerHas(b, id));
}

// NOT_FOUND answers to ComputeFk that `server` counted (its own
// grpc_server_handled_total, read from the /metrics text).
int NotFoundComputeFk(TestServer& server) {
  std::istringstream text(server.server().metrics().Serialize());
  int total = 0;
  for (std::string line; std::getline(text, line);) {
    if (line.rfind("grpc_server_handled_total{", 0) == 0 &&
        line.find("grpc_method=\"ComputeFk\"") != std::string::npos &&
        line.find("grpc_code=\"NotFound\"") != std::string::npos) {
      total += static_cast<int>(std::stod(line.substr(line.rfind(' ') + 1)));
    }
  }
  return total;
}

// Three replicas behind one round-robin channel, two that know the robot
// and a fresh one. Re-sending only the refused call would land it on a
// replica that already knows the robot, and the fresh one would refuse
// every call that reaches it; after the first refusal the client sends the
// URDF inline for a while, so the fresh replica refuses at most once.
TEST(MotionClientTest, AfterOneRefusalEveryReplicaLearnsTheRobot) {
  TestServer a, b, fresh;
  const std::string urdf = ReadRobot("ur5.urdf");
  for (TestServer* known : {&a, &b}) {
    ASSERT_TRUE(known->server().registry().Register(urdf).ok());
  }
  grpc::ChannelArguments args;
  args.SetLoadBalancingPolicyName("round_robin");
  auto channel = grpc::CreateCustomChannel("ipv4:127.0.0.1:" + std::to_string(a.port()) +
                                               ",127.0.0.1:" + std::to_string(b.port()) +
                                               ",127.0.0.1:" + std::to_string(fresh.port()),
                                           grpc::InsecureChannelCredentials(), args);
  ClientOptions options;
  options.timeout = std::chrono::seconds(20);
  MotionClient client(channel, options);
  const std::string id = client.AddRobot(urdf);
  for (int i = 0; i < 30; ++i) {
    v1::ComputeFkResponse response;
    const grpc::Status status = client.ComputeFk(Ur5RampRequest(id), &response);
    ASSERT_TRUE(status.ok()) << "call " << i << ": " << Describe(status);
    ExpectUr5Ramp(response);
  }
  EXPECT_TRUE(ServerHas(fresh, id));
  EXPECT_EQ(NotFoundComputeFk(a) + NotFoundComputeFk(b), 0);
  EXPECT_LE(NotFoundComputeFk(fresh), 1);
}

// A robot whose link is a mesh, and a scene, both known to the client by id
// only: a fresh server gets the URDF with its mesh and the scene re-sent
// (unary, PlanPath and ValidatePath), and the ids are the server's own.
TEST(MotionClientTest, IdsOnlyOnFreshServersResendTheMeshesAndTheScene) {
  const std::string urdf = R"(<?xml version="1.0"?>
<robot name="mesh_on_an_arm">
  <link name="base"/>
  <link name="arm"><collision><origin xyz="0.5 0 0"/><geometry><mesh filename="package://parts/block.stl"/></geometry></collision></link>
  <joint name="turn" type="revolute"><parent link="base"/><child link="arm"/><axis xyz="0 0 1"/><limit lower="-3" upper="3" velocity="1" effort="1"/></joint>
</robot>)";
  v1::MeshFile mesh;
  mesh.set_filename("package://parts/block.stl");
  mesh.set_data(BinaryStlOfBox(0.2, 0.2, 0.2));
  v1::Scene scene;
  *scene.add_objects() =
      WireBox("post", 0.65, 0, 0, 0.2, 0.2, 0.2);  // 5 cm into the block at q = 0

  TestServer reference;
  Stubs stubs(reference.NewChannel());
  v1::RegisterRobotRequest register_robot;
  register_robot.set_urdf(urdf);
  *register_robot.add_meshes() = mesh;
  v1::RegisterRobotResponse registered;
  {
    grpc::ClientContext context;
    ASSERT_TRUE(stubs.registry().RegisterRobot(&context, register_robot, &registered).ok());
  }
  v1::RegisterSceneRequest register_scene;
  *register_scene.mutable_scene() = scene;
  v1::RegisterSceneResponse scene_registered;
  {
    grpc::ClientContext context;
    ASSERT_TRUE(stubs.registry().RegisterScene(&context, register_scene, &scene_registered).ok());
  }

  TestServer fresh;
  auto client = ClientFor(fresh);
  const std::string robot_id = client->AddRobot(urdf, {mesh});
  const std::string scene_id = client->AddScene(scene);
  EXPECT_EQ(robot_id, registered.robot_id());
  EXPECT_EQ(scene_id, scene_registered.scene_id());

  v1::CheckCollisionRequest check;
  check.mutable_robot()->set_robot_id(robot_id);
  check.mutable_scene()->set_scene_id(scene_id);
  check.add_configurations()->add_values(0.0);
  check.add_configurations()->add_values(1.5);
  v1::CheckCollisionResponse verdicts;
  const grpc::Status checked = client->CheckCollision(check, &verdicts);
  ASSERT_TRUE(checked.ok()) << Describe(checked);
  ASSERT_EQ(verdicts.results_size(), 2);
  EXPECT_TRUE(verdicts.results(0).in_collision());
  EXPECT_NEAR(verdicts.results(0).contacts(0).depth(), 0.05, 1e-6) << "the mesh, not a capsule";
  EXPECT_FALSE(verdicts.results(1).in_collision());
  EXPECT_TRUE(ServerHas(fresh, robot_id));

  // PlanPath and ValidatePath, each on a server of its own.
  v1::PlanPathRequest plan;
  plan.mutable_robot()->set_robot_id(robot_id);
  plan.mutable_scene()->set_scene_id(scene_id);
  plan.add_start_joints(1.5);
  plan.add_segments()->mutable_movej()->mutable_joints()->add_values(-0.5);
  plan.mutable_segments(0)->set_id("through_the_post");
  TestServer for_plan, for_validate;
  auto plan_client = ClientFor(for_plan);
  plan_client->AddRobot(urdf, {mesh});
  plan_client->AddScene(scene);
  v1::PlanPathSummary summary;
  const grpc::Status planned = plan_client->PlanPath(plan, [&](const v1::PlanPathResponse& m) {
    if (m.has_summary()) summary = m.summary();
  });
  ASSERT_TRUE(planned.ok()) << Describe(planned);
  EXPECT_TRUE(summary.collision_checked());
  EXPECT_FALSE(summary.collision_free());

  auto validate_client = ClientFor(for_validate);
  validate_client->AddRobot(urdf, {mesh});
  validate_client->AddScene(scene);
  std::vector<v1::ValidatePathRequest> requests(3);
  for (int i = 0; i < 3; ++i) {
    requests[i].set_request_id("r" + std::to_string(i));
    *requests[i].mutable_path() = plan;
  }
  int answered = 0;
  const grpc::Status validated =
      validate_client->ValidatePaths(requests, [&](const v1::ValidatePathResponse& r) {
        ++answered;
        EXPECT_TRUE(r.error_reason().empty()) << r.ShortDebugString();
        EXPECT_TRUE(r.collision_checked()) << r.ShortDebugString();
        EXPECT_FALSE(r.collision_free());
      });
  ASSERT_TRUE(validated.ok()) << Describe(validated);
  EXPECT_EQ(answered, 3);
}

}  // namespace
}  // namespace motiond_test
