#pragma once

#include "motion/v1/geometry.grpc.pb.h"
#include "server/rpc/service_env.h"

namespace motion::server {

/// \brief motion.v1.Geometry: motiond's conventions as small operations
/// (trajectory audit and resampling).
class GeometryService final : public v1::Geometry::CallbackService {
 public:
  explicit GeometryService(ServiceEnv env) : env_(env) {}

  grpc::ServerUnaryReactor* CheckTrajectory(grpc::CallbackServerContext* context,
                                            const v1::CheckTrajectoryRequest* request,
                                            v1::CheckTrajectoryResponse* response) override;
  grpc::ServerUnaryReactor* ResampleTrajectory(grpc::CallbackServerContext* context,
                                               const v1::ResampleTrajectoryRequest* request,
                                               v1::ResampleTrajectoryResponse* response) override;

 private:
  ServiceEnv env_;
};

}  // namespace motion::server
