#include "server/motion_planner_service.h"

#include "server/plan_path_stream.h"

namespace motion::server {

grpc::ServerWriteReactor<v1::PlanPathResponse>* MotionPlannerService::PlanPath(
    grpc::CallbackServerContext* context, const v1::PlanPathRequest* request) {
  return new PlanPathStream(env_, context, request);
}

}  // namespace motion::server
