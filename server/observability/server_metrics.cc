#include "server/observability/server_metrics.h"

#include <string>
#include <vector>

#include <prometheus/collectable.h>
#include <prometheus/metric_family.h>
#include <prometheus/text_serializer.h>

#include "server/runtime/robot_registry.h"
#include "server/runtime/solver_pool.h"

namespace motion::server {
namespace {

// 10 us .. 10 s, ~1-2-5 steps with extra resolution below a millisecond,
// where IK and FK live (p50 and p99 of a 30 us solve must be readable).
const prometheus::Histogram::BucketBoundaries kSolveBuckets = {
    1e-5, 1.5e-5, 2.5e-5, 4e-5, 6e-5, 1e-4, 1.5e-4, 2.5e-4, 4e-4, 6e-4, 1e-3, 2.5e-3,
    5e-3, 1e-2,   2.5e-2, 5e-2, 0.1,  0.25, 0.5,    1.0,    2.5,  5.0,  10.0};
// go-grpc-prometheus's defaults, plus sub-millisecond buckets.
const prometheus::Histogram::BucketBoundaries kRpcBuckets = {2.5e-5, 5e-5, 1e-4, 2.5e-4, 5e-4, 1e-3,
                                                             2.5e-3, 5e-3, 0.01, 0.025,  0.05, 0.1,
                                                             0.25,   0.5,  1,    2.5,    5,    10};
const prometheus::Histogram::BucketBoundaries kIterationBuckets = {
    1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096};

prometheus::ClientMetric Value(double v) {
  prometheus::ClientMetric m;
  m.gauge.value = v;
  return m;
}

prometheus::MetricFamily Gauge(std::string name, std::string help, double value) {
  prometheus::MetricFamily family;
  family.name = std::move(name);
  family.help = std::move(help);
  family.type = prometheus::MetricType::Gauge;
  family.metric.push_back(Value(value));
  return family;
}

prometheus::MetricFamily Counter(std::string name, std::string help, double value) {
  prometheus::MetricFamily family;
  family.name = std::move(name);
  family.help = std::move(help);
  family.type = prometheus::MetricType::Counter;
  prometheus::ClientMetric m;
  m.counter.value = value;
  family.metric.push_back(m);
  return family;
}

// Registry and pool state, read when Prometheus scrapes (no update on the
// request path).
class StateCollector : public prometheus::Collectable {
 public:
  StateCollector(const RobotRegistry& robots, const SolverPool& pool)
      : robots_(robots), pool_(pool) {}

  std::vector<prometheus::MetricFamily> Collect() const override {
    const RegistryStats stats = robots_.Stats();
    return {
        Gauge("motiond_registry_robots", "Robots in the registry cache",
              static_cast<double>(stats.robots)),
        Gauge("motiond_registry_bytes", "Estimated memory of the cached robot models",
              static_cast<double>(stats.bytes)),
        Counter("motiond_registry_hits_total", "Robot lookups served from the cache",
                static_cast<double>(stats.hits)),
        Counter("motiond_registry_misses_total", "Robot lookups that missed the cache",
                static_cast<double>(stats.misses)),
        Counter("motiond_registry_evictions_total", "Robots evicted from the cache (LRU)",
                static_cast<double>(stats.evictions)),
        Gauge("motiond_solver_workers", "Solver pool threads", pool_.workers()),
        Gauge("motiond_solver_busy_workers", "Solver threads running a task", pool_.busy_workers()),
        Gauge("motiond_solver_queue_depth", "Tasks waiting for a solver thread",
              static_cast<double>(pool_.queue_depth())),
        Gauge("motiond_solver_queue_capacity",
              "Queued tasks beyond which requests get RESOURCE_EXHAUSTED",
              static_cast<double>(pool_.max_queue())),
    };
  }

 private:
  const RobotRegistry& robots_;
  const SolverPool& pool_;
};

}  // namespace

ServerMetrics::ServerMetrics(std::shared_ptr<prometheus::Registry> registry,
                             const RobotRegistry& robots, const SolverPool& pool)
    : registry_(std::move(registry)),
      started_(prometheus::BuildCounter()
                   .Name("grpc_server_started_total")
                   .Help("Total number of RPCs started on the server.")
                   .Register(*registry_)),
      handled_(prometheus::BuildCounter()
                   .Name("grpc_server_handled_total")
                   .Help("Total number of RPCs completed on the server, regardless of success "
                         "or failure.")
                   .Register(*registry_)),
      handling_seconds_(prometheus::BuildHistogram()
                            .Name("grpc_server_handling_seconds")
                            .Help("Histogram of response latency (seconds) of gRPC that had "
                                  "been application-level handled by the server.")
                            .Register(*registry_)),
      msg_received_(prometheus::BuildCounter()
                        .Name("grpc_server_msg_received_total")
                        .Help("Total number of RPC stream messages received on the server.")
                        .Register(*registry_)),
      msg_sent_(prometheus::BuildCounter()
                    .Name("grpc_server_msg_sent_total")
                    .Help("Total number of gRPC stream messages sent by the server.")
                    .Register(*registry_)),
      solve_seconds_(prometheus::BuildHistogram()
                         .Name("motiond_solve_seconds")
                         .Help("Time of one core computation on a solver thread, by operation "
                               "and solver")
                         .Register(*registry_)),
      ik_iterations_(prometheus::BuildHistogram()
                         .Name("motiond_ik_iterations")
                         .Help("FK evaluations one IK solve took, over all its restarts")
                         .Register(*registry_)),
      ik_solves_(prometheus::BuildCounter()
                     .Name("motiond_ik_solves_total")
                     .Help("IK solves by solver and result (ok, unreachable, joint_limit, "
                           "max_iterations, timeout, in_collision)")
                     .Register(*registry_)),
      diagnostics_(prometheus::BuildCounter()
                       .Name("motiond_diagnostics_total")
                       .Help("Diagnostics reported to clients, by code and severity")
                       .Register(*registry_)),
      trajectory_points_(prometheus::BuildCounter()
                             .Name("motiond_trajectory_points_total")
                             .Help("Trajectory samples planned")
                             .Register(*registry_)
                             .Add({})),
      streams_(prometheus::BuildGauge()
                   .Name("motiond_streams_in_flight")
                   .Help("Streaming calls currently open, by method")
                   .Register(*registry_)),
      state_(std::make_shared<StateCollector>(robots, pool)){
          prometheus::BuildGauge()
              .Name("motiond_build_info")
              .Help("motiond build: version, compiler and architecture (value 1)")
              .Register(*registry_)
              .Add({
                {"version", MOTIOND_VERSION}, {"compiler", __VERSION__},
#if defined(__aarch64__)
                {
                  "arch", "aarch64"
                }
              })
#else
                {
                  "arch", "x86_64"
                }
              })
#endif
              .Set(1);
}  // namespace motion::server

std::vector<std::shared_ptr<prometheus::Collectable>> ServerMetrics::Collectables() const {
  return {registry_, state_};
}

std::string ServerMetrics::Serialize() const {
  std::vector<prometheus::MetricFamily> families;
  for (const auto& collectable : Collectables()) {
    auto collected = collectable->Collect();
    families.insert(families.end(), collected.begin(), collected.end());
  }
  return prometheus::TextSerializer().Serialize(families);
}

void ServerMetrics::RecordRpcStarted(const std::string& service, const std::string& method,
                                     const std::string& type) {
  started_.Add({{"grpc_service", service}, {"grpc_method", method}, {"grpc_type", type}})
      .Increment();
}

void ServerMetrics::RecordRpcHandled(const std::string& service, const std::string& method,
                                     const std::string& type, const std::string& code,
                                     double seconds) {
  handled_
      .Add({{"grpc_service", service},
            {"grpc_method", method},
            {"grpc_type", type},
            {"grpc_code", code}})
      .Increment();
  handling_seconds_
      .Add({{"grpc_service", service}, {"grpc_method", method}, {"grpc_type", type}}, kRpcBuckets)
      .Observe(seconds);
}

ServerMetrics::MethodMetrics& ServerMetrics::ForMethod(const std::string& service,
                                                       const std::string& method,
                                                       const std::string& type) {
  std::lock_guard<std::mutex> lock(methods_mutex_);
  auto& slot = methods_[service + "/" + method + "/" + type];
  if (!slot) {
    const prometheus::Labels labels = {
        {"grpc_service", service}, {"grpc_method", method}, {"grpc_type", type}};
    slot = std::make_unique<MethodMetrics>();
    slot->started = &started_.Add(labels);
    slot->received = &msg_received_.Add(labels);
    slot->sent = &msg_sent_.Add(labels);
    slot->handling_seconds = &handling_seconds_.Add(labels, kRpcBuckets);
    slot->service = service;
    slot->method = method;
    slot->type = type;
  }
  return *slot;
}

void ServerMetrics::RecordRpcHandled(MethodMetrics& m, int code, const char* code_name,
                                     double seconds) {
  prometheus::Counter* handled = nullptr;
  if (code >= 0 && code < static_cast<int>(m.handled.size())) {
    handled = m.handled[code].load(std::memory_order_acquire);
    if (handled == nullptr) {
      handled = &handled_.Add({{"grpc_service", m.service},
                               {"grpc_method", m.method},
                               {"grpc_type", m.type},
                               {"grpc_code", code_name}});
      m.handled[code].store(handled, std::memory_order_release);
    }
  } else {
    handled = &handled_.Add({{"grpc_service", m.service},
                             {"grpc_method", m.method},
                             {"grpc_type", m.type},
                             {"grpc_code", code_name}});
  }
  handled->Increment();
  m.handling_seconds->Observe(seconds);
}

void ServerMetrics::RecordMessageReceived(const std::string& service, const std::string& method,
                                          const std::string& type) {
  msg_received_.Add({{"grpc_service", service}, {"grpc_method", method}, {"grpc_type", type}})
      .Increment();
}

void ServerMetrics::RecordMessageSent(const std::string& service, const std::string& method,
                                      const std::string& type) {
  msg_sent_.Add({{"grpc_service", service}, {"grpc_method", method}, {"grpc_type", type}})
      .Increment();
}

void ServerMetrics::RecordSolve(absl::string_view operation, absl::string_view solver,
                                double seconds) {
  solve_seconds_
      .Add({{"operation", std::string(operation)}, {"solver", std::string(solver)}}, kSolveBuckets)
      .Observe(seconds);
}

void ServerMetrics::RecordIk(IkSolverKind solver, const motion::IkResult& result, double seconds) {
  const std::string solver_name = IkSolverName(solver);
  RecordSolve("ik", solver_name, seconds);
  ik_iterations_.Add({{"solver", solver_name}}, kIterationBuckets).Observe(result.iterations);
  ik_solves_.Add({{"solver", solver_name}, {"result", IkOutcomeName(result.outcome)}}).Increment();
  for (const motion::Diagnostic& d : result.diagnostics) RecordDiagnostic(d);
}

void ServerMetrics::RecordPath(const PathResult& result, double seconds) {
  for (const SegmentReport& segment : result.segments) {
    RecordSolve(segment.motion, "lm", segment.compute_seconds);
  }
  RecordSolve("path", "lm", seconds);
  trajectory_points_.Increment(static_cast<double>(result.trajectory.size()));
  for (const motion::Diagnostic& d : result.diagnostics) RecordDiagnostic(d);
}

void ServerMetrics::RecordDiagnostic(const motion::Diagnostic& diagnostic) {
  static const char* kSeverity[] = {"", "info", "warning", "error"};
  diagnostics_
      .Add({{"code", DiagnosticCodeName(diagnostic.code)},
            {"severity", kSeverity[static_cast<int>(diagnostic.severity)]}})
      .Increment();
}

void ServerMetrics::RecordStreamOpened(absl::string_view method) {
  streams_.Add({{"grpc_method", std::string(method)}}).Increment();
}

void ServerMetrics::RecordStreamClosed(absl::string_view method) {
  streams_.Add({{"grpc_method", std::string(method)}}).Decrement();
}

}  // namespace motion::server
