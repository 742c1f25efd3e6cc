#pragma once

#include <grpcpp/grpcpp.h>

#include "motion/v1/motion_planner.pb.h"
#include "server/rpc/service_env.h"

namespace motion::server {

/// \brief Starts one ValidateCell: the request's shape checked on the
/// calling thread, every robot's program planned as its own task on the
/// solver pool (in parallel), and the last task to finish checks the cell
/// and finishes the call. No task waits for another, so a cell never
/// holds a worker idle. A full queue is RESOURCE_EXHAUSTED; a cancelled
/// call stops between and inside the tasks.
grpc::ServerUnaryReactor* StartValidateCell(ServiceEnv env, grpc::CallbackServerContext* context,
                                            const v1::ValidateCellRequest* request,
                                            v1::ValidateCellResponse* response);

}  // namespace motion::server
