#pragma once

#include "motion/v1/kinematics.grpc.pb.h"
#include "server/service_env.h"

namespace motion::server {

/// \brief motion.v1.Kinematics: FK and Jacobian (IK and reachability come
/// with the IK solver and answer UNIMPLEMENTED until then).
class KinematicsService final : public v1::Kinematics::CallbackService {
 public:
  explicit KinematicsService(ServiceEnv env) : env_(env) {}

  grpc::ServerUnaryReactor* ComputeFk(grpc::CallbackServerContext* context,
                                      const v1::ComputeFkRequest* request,
                                      v1::ComputeFkResponse* response) override;
  grpc::ServerUnaryReactor* ComputeJacobian(grpc::CallbackServerContext* context,
                                            const v1::ComputeJacobianRequest* request,
                                            v1::ComputeJacobianResponse* response) override;

 private:
  ServiceEnv env_;
};

}  // namespace motion::server
