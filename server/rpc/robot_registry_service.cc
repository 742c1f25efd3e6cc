#include "server/rpc/robot_registry_service.h"

#include "server/convert/proto_conversion.h"

namespace motion::server {

grpc::ServerUnaryReactor* RobotRegistryService::RegisterRobot(
    grpc::CallbackServerContext* context, const v1::RegisterRobotRequest* request,
    v1::RegisterRobotResponse* response) {
  return RunUnaryOnPool(env_, context, "RegisterRobot", [this, request, response](auto&) {
    absl::StatusOr<RegisteredRobot> robot = env_.registry.Register(request->urdf());
    if (!robot.ok()) return robot.status();
    absl::StatusOr<std::shared_ptr<const ChainModel>> chain = robot->model->Chain();
    if (!chain.ok()) return chain.status();
    response->set_robot_id(robot->robot_id);
    response->set_already_registered(robot->already_registered);
    FillRobotInfo(robot->robot_id, *robot->model, **chain, response->mutable_info());
    return absl::OkStatus();
  });
}

grpc::ServerUnaryReactor* RobotRegistryService::GetRobot(grpc::CallbackServerContext* context,
                                                         const v1::GetRobotRequest* request,
                                                         v1::RobotInfo* response) {
  return RunUnaryOnPool(env_, context, "GetRobot", [this, request, response](auto&) {
    v1::RobotRef ref;
    ref.set_robot_id(request->robot_id());
    ref.set_base_link(request->base_link());
    ref.set_tip_link(request->tip_link());
    absl::StatusOr<ResolvedChain> resolved = ResolveChain(env_.registry, ref, "");
    if (!resolved.ok()) return resolved.status();
    FillRobotInfo(resolved->robot.robot_id, *resolved->robot.model, *resolved->chain, response);
    return absl::OkStatus();
  });
}

grpc::ServerUnaryReactor* RobotRegistryService::ListRobots(grpc::CallbackServerContext* context,
                                                           const v1::ListRobotsRequest*,
                                                           v1::ListRobotsResponse* response) {
  return RunUnaryOnPool(env_, context, "ListRobots", [this, response](auto&) {
    for (const RegisteredRobot& robot : env_.registry.List()) {
      absl::StatusOr<std::shared_ptr<const ChainModel>> chain = robot.model->Chain();
      if (!chain.ok()) return chain.status();
      FillRobotInfo(robot.robot_id, *robot.model, **chain, response->add_robots());
    }
    return absl::OkStatus();
  });
}

}  // namespace motion::server
