#pragma once

#include "motion/v1/kinematics.grpc.pb.h"
#include "server/rpc/service_env.h"

namespace motion::server {

/// \brief motion.v1.Kinematics: FK, IK, Jacobian and reachability batches.
class KinematicsService final : public v1::Kinematics::CallbackService {
 public:
  explicit KinematicsService(ServiceEnv env) : env_(env) {}

  grpc::ServerUnaryReactor* ComputeFk(grpc::CallbackServerContext* context,
                                      const v1::ComputeFkRequest* request,
                                      v1::ComputeFkResponse* response) override;
  grpc::ServerUnaryReactor* ComputeIk(grpc::CallbackServerContext* context,
                                      const v1::ComputeIkRequest* request,
                                      v1::IkResult* response) override;
  grpc::ServerUnaryReactor* CheckReachability(grpc::CallbackServerContext* context,
                                              const v1::CheckReachabilityRequest* request,
                                              v1::CheckReachabilityResponse* response) override;
  grpc::ServerUnaryReactor* ComputeJacobian(grpc::CallbackServerContext* context,
                                            const v1::ComputeJacobianRequest* request,
                                            v1::ComputeJacobianResponse* response) override;
  grpc::ServerUnaryReactor* CheckCollision(grpc::CallbackServerContext* context,
                                           const v1::CheckCollisionRequest* request,
                                           v1::CheckCollisionResponse* response) override;

 private:
  ServiceEnv env_;
};

}  // namespace motion::server
