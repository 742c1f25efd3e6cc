#pragma once

#include <grpcpp/support/server_interceptor.h>

#include "server/observability/server_metrics.h"

namespace motion::server {

/// \brief Feeds the grpc_server_* metrics for every RPC (including health
/// and reflection): started when the call is created, messages as they pass,
/// handled with the status code and latency when the status is sent (or as
/// CANCELLED if the call ends without one).
class MetricsInterceptorFactory : public grpc::experimental::ServerInterceptorFactoryInterface {
 public:
  explicit MetricsInterceptorFactory(ServerMetrics& metrics) : metrics_(metrics) {}
  grpc::experimental::Interceptor* CreateServerInterceptor(
      grpc::experimental::ServerRpcInfo* info) override;

 private:
  ServerMetrics& metrics_;
};

}  // namespace motion::server
