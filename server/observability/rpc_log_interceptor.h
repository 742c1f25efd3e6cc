#pragma once

#include <grpcpp/support/server_interceptor.h>

namespace motion::server {

/// \brief The per-RPC log, for every call — unary, streaming,
/// health, reflection — in one place, from the messages as they pass:
///
/// - debug: one line per RPC when it ends, `rpc method=ComputeIk code=OK
///   duration_ms=0.123 robot=sha256:21a125fe2f6a targets=1 solved=1 ...`
///   (robot_id prefix; joints, targets, segments, points, paths as the
///   method has them; the error message when not OK);
/// - warning: input rejected (InvalidArgument, NotFound, OutOfRange,
///   FailedPrecondition) or refused (ResourceExhausted), with the reason —
///   also for single requests rejected inside a ValidatePath stream;
///   an unknown robot_id (ROBOT_NOT_REGISTERED, which clients answer by
///   re-sending the URDF) is info;
/// - error: Internal, Unknown, DataLoss (a bug).
///
/// Costs nothing when the level is above warn (no interceptor is created),
/// and extracts the request summary only when debug is on.
class RpcLogInterceptorFactory : public grpc::experimental::ServerInterceptorFactoryInterface {
 public:
  grpc::experimental::Interceptor* CreateServerInterceptor(
      grpc::experimental::ServerRpcInfo* info) override;
};

}  // namespace motion::server
