#pragma once

#include <cstddef>
#include <string>

#include "core/motion/motion_request.h"
#include "server/runtime/robot_registry.h"

namespace motion::server {

/// \brief Per-request bounds, each refused with INVALID_ARGUMENT naming it.
struct RequestLimits {
  int max_batch_targets = 10000;  ///< CheckReachability targets per request
  PathLimits path;                ///< points, segments, sample time of one path
  int stream_max_in_flight = 16;  ///< ValidatePath requests read but not yet answered
  /// The gRPC message limit (ServerOptions::max_message_bytes, copied here
  /// by MotiondServer): answers that would not fit are refused up front.
  std::size_t max_message_bytes = 16 << 20;
};

/// \brief Everything that configures one motiond instance (the flags in
/// main.cc fill it; tests build it directly).
/// \brief TLS of the gRPC port. Empty cert/key: plaintext (localhost
/// development). With client_ca_file, every client must present a
/// certificate signed by that CA (mTLS).
struct TlsOptions {
  std::string cert_file;
  std::string key_file;
  std::string client_ca_file;
  bool enabled() const { return !cert_file.empty() || !key_file.empty(); }
};

struct ServerOptions {
  std::string listen = "127.0.0.1:50051";  ///< port 0 picks a free port
  std::string robots_dir;                  ///< preload every *.urdf here
  int workers = 0;                         ///< 0 = hardware threads
  std::size_t max_queue = 1024;  ///< queued solver tasks per lane before RESOURCE_EXHAUSTED
  int short_workers = 1;         ///< extra threads for short calls only (FK, IK, ...)
  /// Planned trajectories PlanPath streams may hold for clients that have
  /// not read them, over all streams; beyond it a plan is RESOURCE_EXHAUSTED.
  std::size_t max_unsent_trajectory_bytes = 96u << 20;
  /// gRPC's own buffers (grpc::ResourceQuota), over every connection.
  std::size_t grpc_memory_bytes = std::size_t{512} << 20;
  int max_message_bytes = 16 << 20;  ///< gRPC receive/send limit
  int max_concurrent_streams = 100;  ///< HTTP/2 streams per client connection
  RegistryOptions registry;
  RequestLimits limits;
  TlsOptions tls;
  /// The grpc_server_* metrics (MetricsInterceptor). Off only to measure
  /// what they cost (bench/metrics_cost_bench.cc); solve metrics stay on.
  bool enable_metrics_interceptor = true;
};

}  // namespace motion::server
