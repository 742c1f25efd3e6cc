#pragma once

#include "motion/v1/robot_registry.grpc.pb.h"
#include "server/rpc/service_env.h"

namespace motion::server {

/// \brief motion.v1.RobotRegistry: register / get / list robots.
class RobotRegistryService final : public v1::RobotRegistry::CallbackService {
 public:
  explicit RobotRegistryService(ServiceEnv env) : env_(env) {}

  grpc::ServerUnaryReactor* RegisterRobot(grpc::CallbackServerContext* context,
                                          const v1::RegisterRobotRequest* request,
                                          v1::RegisterRobotResponse* response) override;
  grpc::ServerUnaryReactor* GetRobot(grpc::CallbackServerContext* context,
                                     const v1::GetRobotRequest* request,
                                     v1::RobotInfo* response) override;
  grpc::ServerUnaryReactor* ListRobots(grpc::CallbackServerContext* context,
                                       const v1::ListRobotsRequest* request,
                                       v1::ListRobotsResponse* response) override;
  grpc::ServerUnaryReactor* RegisterScene(grpc::CallbackServerContext* context,
                                          const v1::RegisterSceneRequest* request,
                                          v1::RegisterSceneResponse* response) override;

 private:
  ServiceEnv env_;
};

}  // namespace motion::server
