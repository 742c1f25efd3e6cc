#include "server/rpc/robot_registry_service.h"

#include "server/convert/collision_conversion.h"
#include "server/convert/proto_conversion.h"

namespace motion::server {
namespace {

// The chain's collision geometry in RobotInfo: built (self-collision
// sampling included) at registration, then served from the cache.
void FillCollisionInfo(ServiceEnv& env, const RegisteredRobot& robot,
                       const std::shared_ptr<const ChainModel>& chain, v1::RobotInfo* out) {
  const std::shared_ptr<const RobotCollisionModel> model =
      env.collision_models.For(*robot.model, *robot.meshes, chain);
  CollisionModelToProto(*model, out->mutable_link_geometry(), out->mutable_disabled_pairs());
  for (const auto& [a, b] : model->never_seen_pairs()) {
    v1::LinkPair* pair = out->add_never_colliding_pairs();
    pair->set_a(a);
    pair->set_b(b);
  }
  for (const auto& [filename, mesh] : *robot.meshes) out->add_meshes(filename);
}

}  // namespace

grpc::ServerUnaryReactor* RobotRegistryService::RegisterRobot(
    grpc::CallbackServerContext* context, const v1::RegisterRobotRequest* request,
    v1::RegisterRobotResponse* response) {
  return RunUnaryOnPool(
      env_, context, "RegisterRobot", Lane::kLong, [this, request, response](auto&) {
        std::vector<MeshFileBytes> meshes;
        for (const v1::MeshFile& m : request->meshes()) meshes.push_back({m.filename(), m.data()});
        absl::StatusOr<RegisteredRobot> robot = env_.registry.Register(request->urdf(), meshes);
        if (!robot.ok()) return robot.status();
        absl::StatusOr<std::shared_ptr<const ChainModel>> chain = robot->model->Chain();
        if (!chain.ok()) return chain.status();
        response->set_robot_id(robot->robot_id);
        response->set_already_registered(robot->already_registered);
        FillRobotInfo(robot->robot_id, *robot->model, **chain, response->mutable_info());
        FillCollisionInfo(env_, *robot, *chain, response->mutable_info());
        return absl::OkStatus();
      });
}

grpc::ServerUnaryReactor* RobotRegistryService::GetRobot(grpc::CallbackServerContext* context,
                                                         const v1::GetRobotRequest* request,
                                                         v1::RobotInfo* response) {
  return RunUnaryOnPool(env_, context, "GetRobot", Lane::kShort, [this, request, response](auto&) {
    v1::RobotRef ref;
    ref.set_robot_id(request->robot_id());
    ref.set_base_link(request->base_link());
    ref.set_tip_link(request->tip_link());
    absl::StatusOr<ResolvedChain> resolved = ResolveChain(env_.registry, ref, "");
    if (!resolved.ok()) return resolved.status();
    FillRobotInfo(resolved->robot.robot_id, *resolved->robot.model, *resolved->chain, response);
    FillCollisionInfo(env_, resolved->robot, resolved->chain, response);
    return absl::OkStatus();
  });
}

grpc::ServerUnaryReactor* RobotRegistryService::ListRobots(grpc::CallbackServerContext* context,
                                                           const v1::ListRobotsRequest*,
                                                           v1::ListRobotsResponse* response) {
  return RunUnaryOnPool(env_, context, "ListRobots", Lane::kShort, [this, response](auto&) {
    for (const RegisteredRobot& robot : env_.registry.List()) {
      absl::StatusOr<std::shared_ptr<const ChainModel>> chain = robot.model->Chain();
      if (!chain.ok()) return chain.status();
      FillRobotInfo(robot.robot_id, *robot.model, **chain, response->add_robots());
    }
    return absl::OkStatus();
  });
}

grpc::ServerUnaryReactor* RobotRegistryService::RegisterScene(
    grpc::CallbackServerContext* context, const v1::RegisterSceneRequest* request,
    v1::RegisterSceneResponse* response) {
  return RunUnaryOnPool(
      env_, context, "RegisterScene", Lane::kLong, [this, request, response](auto&) {
        absl::StatusOr<RegisteredScene> scene =
            motion::server::RegisterScene(env_.scenes, request->scene(), "scene");
        if (!scene.ok()) return scene.status();
        response->set_scene_id(scene->scene_id);
        response->set_object_count(static_cast<int>(scene->scene->objects().size()));
        response->set_already_registered(scene->already_registered);
        return absl::OkStatus();
      });
}

}  // namespace motion::server
