#pragma once

#include <array>
#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

#include "absl/strings/string_view.h"
#include "core/diagnostics/diagnostic.h"
#include "core/ik/ik_options.h"
#include "core/ik/ik_result.h"
#include "core/motion/trajectory.h"

namespace motion::server {

class RobotRegistry;
class SolverPool;

/// \brief Every metric motiond exports, on one prometheus::Registry.
///
/// gRPC metrics use the names and labels of go-grpc-prometheus
/// (grpc_server_started_total, grpc_server_handled_total,
/// grpc_server_handling_seconds, grpc_server_msg_{received,sent}_total), so
/// existing dashboards and alerts work; the MetricsInterceptor feeds them.
/// Label values are bounded: service/method names, status codes, operation
/// and solver names, outcome and diagnostic codes — never a robot or
/// request id. Registry and pool gauges are read at scrape time.
class ServerMetrics {
 public:
  ServerMetrics(std::shared_ptr<prometheus::Registry> registry, const RobotRegistry& robots,
                const SolverPool& pool);
  /// \brief What an exposer serves: the registry and the scrape-time
  /// collector of registry/pool state.
  std::vector<std::shared_ptr<prometheus::Collectable>> Collectables() const;

  /// \brief The Prometheus text exposition of everything (what /metrics
  /// returns), for tests and tools.
  std::string Serialize() const;

  // gRPC, fed by the interceptor. `type` is unary, client_stream,
  // server_stream or bidi_stream; `code` the canonical name (OK, ...).
  void RecordRpcStarted(const std::string& service, const std::string& method,
                        const std::string& type);
  void RecordRpcHandled(const std::string& service, const std::string& method,
                        const std::string& type, const std::string& code, double seconds);
  void RecordMessageReceived(const std::string& service, const std::string& method,
                             const std::string& type);
  void RecordMessageSent(const std::string& service, const std::string& method,
                         const std::string& type);

  /// \brief The grpc_server_* children of one method, looked up once:
  /// Family::Add builds a label map, hashes it and locks the family on every
  /// call (~1.2 us per RPC for the five updates); a kept child is an atomic add.
  struct MethodMetrics {
    prometheus::Counter* started;
    prometheus::Counter* received;
    prometheus::Counter* sent;
    prometheus::Histogram* handling_seconds;
    std::array<std::atomic<prometheus::Counter*>, 17> handled{};  // by code, on first use
    std::string service, method, type;
  };
  /// \brief The children of `service`/`method`, created on the first call
  /// and then cached (stable reference for the server's lifetime).
  MethodMetrics& ForMethod(const std::string& service, const std::string& method,
                           const std::string& type);
  void RecordRpcHandled(MethodMetrics& m, int code, const char* code_name, double seconds);

  /// \brief Time of one core computation: operation = fk, ik, jacobian,
  /// reachability, movej, movel, movec, path; solver = lm, kdl_nr_jl,
  /// kdl_lma or "-".
  void RecordSolve(absl::string_view operation, absl::string_view solver, double seconds);
  /// \brief One IK solve: its solve time, iterations, outcome and diagnostics.
  void RecordIk(IkSolverKind solver, const motion::IkResult& result, double seconds);
  /// \brief One planned program: solve time per segment and for the whole
  /// path, the points planned and the diagnostics.
  void RecordPath(const PathResult& result, double seconds);
  void RecordDiagnostic(const motion::Diagnostic& diagnostic);
  void RecordStreamOpened(absl::string_view method);
  void RecordStreamClosed(absl::string_view method);

 private:
  std::shared_ptr<prometheus::Registry> registry_;
  prometheus::Family<prometheus::Counter>& started_;
  prometheus::Family<prometheus::Counter>& handled_;
  prometheus::Family<prometheus::Histogram>& handling_seconds_;
  prometheus::Family<prometheus::Counter>& msg_received_;
  prometheus::Family<prometheus::Counter>& msg_sent_;
  prometheus::Family<prometheus::Histogram>& solve_seconds_;
  prometheus::Family<prometheus::Histogram>& ik_iterations_;
  prometheus::Family<prometheus::Counter>& ik_solves_;
  prometheus::Family<prometheus::Counter>& diagnostics_;
  prometheus::Counter& trajectory_points_;
  prometheus::Family<prometheus::Gauge>& streams_;
  std::shared_ptr<prometheus::Collectable> state_;  // registry and pool, at scrape time
  std::mutex methods_mutex_;
  std::map<std::string, std::unique_ptr<MethodMetrics>> methods_;
};

}  // namespace motion::server
