#pragma once

#include "motion/v1/motion_planner.grpc.pb.h"
#include "server/rpc/service_env.h"

namespace motion::server {

/// \brief motion.v1.MotionPlanner: PlanPath streams one planned program;
/// ValidatePath validates many on one bidirectional stream; ValidateCell
/// checks several robots' programs together in time.
class MotionPlannerService final : public v1::MotionPlanner::CallbackService {
 public:
  explicit MotionPlannerService(ServiceEnv env) : env_(env) {}

  grpc::ServerWriteReactor<v1::PlanPathResponse>* PlanPath(
      grpc::CallbackServerContext* context, const v1::PlanPathRequest* request) override;
  grpc::ServerBidiReactor<v1::ValidatePathRequest, v1::ValidatePathResponse>* ValidatePath(
      grpc::CallbackServerContext* context) override;
  grpc::ServerUnaryReactor* ValidateCell(grpc::CallbackServerContext* context,
                                         const v1::ValidateCellRequest* request,
                                         v1::ValidateCellResponse* response) override;

 private:
  ServiceEnv env_;
};

}  // namespace motion::server
