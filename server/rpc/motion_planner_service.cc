#include "server/rpc/motion_planner_service.h"

#include "server/rpc/plan_path_stream.h"
#include "server/rpc/validate_cell_call.h"
#include "server/rpc/validate_path_stream.h"

namespace motion::server {

grpc::ServerWriteReactor<v1::PlanPathResponse>* MotionPlannerService::PlanPath(
    grpc::CallbackServerContext* context, const v1::PlanPathRequest* request) {
  return new PlanPathStream(env_, context, request);
}

grpc::ServerBidiReactor<v1::ValidatePathRequest, v1::ValidatePathResponse>*
MotionPlannerService::ValidatePath(grpc::CallbackServerContext* context) {
  return new ValidatePathStream(env_, context, env_.limits.stream_max_in_flight);
}

grpc::ServerUnaryReactor* MotionPlannerService::ValidateCell(grpc::CallbackServerContext* context,
                                                             const v1::ValidateCellRequest* request,
                                                             v1::ValidateCellResponse* response) {
  return StartValidateCell(env_, context, request, response);
}

}  // namespace motion::server
