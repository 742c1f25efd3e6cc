// motiond: the gRPC motion-planning service. Flags are part of the contract
// (design.md); run with --help for the list.
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <spdlog/spdlog.h>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/synchronization/mutex.h"
#include "server/observability/log_format.h"
#include "server/observability/metrics_exporter.h"
#include "server/runtime/motiond_server.h"

ABSL_FLAG(std::string, listen, "127.0.0.1:50051", "gRPC listen address HOST:PORT");
ABSL_FLAG(std::string, metrics_listen, "127.0.0.1:9464",
          "Prometheus /metrics address HOST:PORT; empty disables");
ABSL_FLAG(std::string, robots_dir, "", "Register every *.urdf in this folder at start-up");
ABSL_FLAG(int, workers, 0, "Solver threads (0 = number of cores)");
ABSL_FLAG(int, max_queue, 1024,
          "Solver tasks queued per lane (short, long) before requests get RESOURCE_EXHAUSTED");
ABSL_FLAG(int64_t, max_unsent_trajectory_mb, 96,
          "Megabytes of planned trajectories that PlanPath streams may hold, over all streams, "
          "for clients that have not read them; a plan beyond it is RESOURCE_EXHAUSTED with a "
          "retry hint");
ABSL_FLAG(int64_t, grpc_memory_mb, 512,
          "Megabytes gRPC may use for its own buffers over every connection (ResourceQuota)");
ABSL_FLAG(int, short_workers, 1,
          "Extra solver threads that run short calls only (one FK, Jacobian or IK, registry "
          "lookups), so they never wait behind plans and batches");
ABSL_FLAG(std::string, log_level, "info",
          "trace, debug (one line per RPC), info, warn (rejected input), error, critical, off");
ABSL_FLAG(std::string, log_format, "text",
          "text (for people) or json (one object per line, for log shippers)");
ABSL_FLAG(int, registry_max_robots, 256, "Robots kept in the registry cache (LRU)");
ABSL_FLAG(int64_t, registry_max_bytes, 256ll << 20, "Registry cache bound in bytes (LRU)");
ABSL_FLAG(int64_t, max_urdf_bytes, 4ll << 20, "Largest URDF accepted, bytes");
ABSL_FLAG(int, max_batch_targets, 10000, "Most targets in one CheckReachability request");
ABSL_FLAG(int64_t, max_trajectory_points, 100000,
          "Most samples in one planned trajectory (duration / sample_time)");
ABSL_FLAG(int, max_path_segments, 1000, "Most segments in one path");
ABSL_FLAG(int, stream_max_in_flight, 16,
          "ValidatePath requests read but not yet answered, per stream (flow control)");
ABSL_FLAG(std::string, tls_cert, "", "PEM certificate chain of the gRPC port (enables TLS)");
ABSL_FLAG(std::string, tls_key, "", "PEM private key matching --tls_cert");
ABSL_FLAG(std::string, tls_client_ca, "",
          "PEM CA bundle; when given, clients must present a certificate it signed (mTLS)");
ABSL_FLAG(int, max_concurrent_streams, 100,
          "Concurrent calls (HTTP/2 streams) per client connection; more wait in the client");
ABSL_FLAG(int, max_message_bytes, 16 << 20, "Largest gRPC message sent or received, bytes");

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage("motiond --listen=127.0.0.1:50051 [--robots_dir=DIR] ...");
  absl::ParseCommandLine(argc, argv);

  const auto level = spdlog::level::from_str(absl::GetFlag(FLAGS_log_level));
  if (level == spdlog::level::off && absl::GetFlag(FLAGS_log_level) != "off") {
    spdlog::error("--log_level={}: unknown level", absl::GetFlag(FLAGS_log_level));
    return EXIT_FAILURE;
  }
  const auto format = motion::server::ParseLogFormat(absl::GetFlag(FLAGS_log_format));
  if (!format) {
    spdlog::error("--log_format={}: use text or json", absl::GetFlag(FLAGS_log_format));
    return EXIT_FAILURE;
  }
  motion::server::ConfigureLogging(level, *format);

  // Debian builds Abseil without NDEBUG, which leaves absl::Mutex's deadlock
  // detector on: every lock gRPC takes then updates a global lock graph
  // (about a fifth of the server's CPU per FK call in the load client's
  // profile). Lock order bugs are for the sanitizer and debug builds to find,
  // not for every production request to pay for.
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);

  // Block the shutdown signals before any thread exists, so every thread
  // inherits the mask and only sigwait below receives them.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  motion::server::ServerOptions options;
  options.listen = absl::GetFlag(FLAGS_listen);
  options.robots_dir = absl::GetFlag(FLAGS_robots_dir);
  options.workers = absl::GetFlag(FLAGS_workers);
  options.max_queue = static_cast<std::size_t>(std::max(1, absl::GetFlag(FLAGS_max_queue)));
  options.short_workers = std::max(0, absl::GetFlag(FLAGS_short_workers));
  options.grpc_memory_bytes =
      static_cast<std::size_t>(std::max<int64_t>(16, absl::GetFlag(FLAGS_grpc_memory_mb))) << 20;
  options.max_unsent_trajectory_bytes =
      static_cast<std::size_t>(std::max<int64_t>(1, absl::GetFlag(FLAGS_max_unsent_trajectory_mb)))
      << 20;
  options.max_message_bytes = absl::GetFlag(FLAGS_max_message_bytes);
  options.max_concurrent_streams = std::max(1, absl::GetFlag(FLAGS_max_concurrent_streams));
  options.registry.max_robots =
      static_cast<std::size_t>(std::max(1, absl::GetFlag(FLAGS_registry_max_robots)));
  options.registry.max_bytes = static_cast<std::size_t>(absl::GetFlag(FLAGS_registry_max_bytes));
  options.registry.model_limits.max_urdf_bytes =
      static_cast<std::size_t>(absl::GetFlag(FLAGS_max_urdf_bytes));

  options.limits.max_batch_targets = absl::GetFlag(FLAGS_max_batch_targets);
  options.tls.cert_file = absl::GetFlag(FLAGS_tls_cert);
  options.tls.key_file = absl::GetFlag(FLAGS_tls_key);
  options.tls.client_ca_file = absl::GetFlag(FLAGS_tls_client_ca);
  options.limits.path.max_points = absl::GetFlag(FLAGS_max_trajectory_points);
  options.limits.path.max_segments = absl::GetFlag(FLAGS_max_path_segments);
  options.limits.stream_max_in_flight = absl::GetFlag(FLAGS_stream_max_in_flight);

  auto server = motion::server::MotiondServer::Start(options);
  if (!server.ok()) {
    spdlog::critical("{}", server.status().ToString());
    return EXIT_FAILURE;
  }
  std::unique_ptr<motion::server::MetricsExporter> metrics;
  if (const std::string address = absl::GetFlag(FLAGS_metrics_listen); !address.empty()) {
    auto started =
        motion::server::MetricsExporter::Start(address, (*server)->metrics().Collectables());
    if (!started.ok()) {
      spdlog::critical("{}", started.status().ToString());
      (*server)->Shutdown(std::chrono::milliseconds(0));
      return EXIT_FAILURE;
    }
    metrics = *std::move(started);
    spdlog::info("metrics on http://{}/metrics", address);
  }

  int received = 0;
  sigwait(&signals, &received);
  spdlog::info("signal {} received: draining", received);
  (*server)->Shutdown();
  // Everything is drained: calls finished or cancelled, the pool joined.
  // Exit now rather than through destructors: gRPC's global shutdown can
  // wait ~10 s for an idle executor thread and the metrics exposer ~1.6 s,
  // which only delays a restart.
  spdlog::shutdown();
  std::fflush(nullptr);
  std::_Exit(EXIT_SUCCESS);
}
