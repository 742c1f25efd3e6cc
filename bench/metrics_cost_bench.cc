// Metrics cost: ComputeIk throughput through gRPC on loopback with
// motiond's metrics interceptor (the grpc_server_* metrics) on and off.
//
// An in-process MotiondServer (127.0.0.1:0, --workers) and N client threads,
// each on its own channel (its own TCP connection) with one call in flight,
// send UR5 IK targets FK(q) for random q within the limits, mid-range seed,
// default options — the ik_bench "uniform" protocol. Each round runs both
// variants for a short time, in alternating order (on/off, then off/on),
// against two servers started once (one with, one without the interceptor;
// the idle one costs nothing), so drift of a busy machine hits both alike.
// Reported: the median throughput per variant, the median of the per-round
// on/off ratios, CPU time per call (client and server share this process)
// and client-side latency.
// The solve metrics (motiond_solve_seconds, IK outcomes) are recorded in the
// services and stay on in both variants; their cost per IK solve and the
// interceptor's bookkeeping per RPC are measured separately, as a loop of the
// same ServerMetrics calls.
//
// Benchmarks report, they do not gate. Writes JSON (--out) and prints markdown.

#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <grpcpp/grpcpp.h>
#include <prometheus/counter.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>
#include <spdlog/spdlog.h>

#include "bench/json_writer.h"
#include "bench/latency_summary.h"
#include "core/ik/ik_result.h"
#include "core/kinematics/chain_data.h"
#include "core/kinematics/forward_kinematics.h"
#include "core/model/robot_model.h"
#include "motion/v1/kinematics.grpc.pb.h"
#include "motion/v1/robot_registry.grpc.pb.h"
#include "server/convert/proto_conversion.h"
#include "server/observability/log_format.h"
#include "server/rpc/service_env.h"
#include "server/runtime/motiond_server.h"

namespace {

namespace v1 = motion::v1;
using Clock = std::chrono::steady_clock;
using motion_bench::JsonWriter;
using motion_bench::LatencySummary;

struct Flags {
  double seconds = 1.5;  // measured window per run
  double warmup = 0.25;  // unmeasured, per run
  int rounds = 24;       // each round: both variants, short, so drift cancels
  int clients = 4;       // client threads, one channel each
  int workers = 2;       // solver threads
  int targets = 2000;    // distinct IK targets
  std::string log_level = "info";
  std::string out;
};

Flags ParseFlags(int argc, char** argv) {
  Flags f;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const auto eq = a.find('=');
    const std::string key = a.substr(0, eq),
                      value = eq == std::string::npos ? "" : a.substr(eq + 1);
    if (key == "--seconds") {
      f.seconds = std::atof(value.c_str());
    } else if (key == "--warmup") {
      f.warmup = std::atof(value.c_str());
    } else if (key == "--rounds") {
      f.rounds = std::atoi(value.c_str());
    } else if (key == "--clients") {
      f.clients = std::atoi(value.c_str());
    } else if (key == "--workers") {
      f.workers = std::atoi(value.c_str());
    } else if (key == "--targets") {
      f.targets = std::atoi(value.c_str());
    } else if (key == "--log_level") {
      f.log_level = value;
    } else if (key == "--out") {
      f.out = value;
    } else {
      std::fprintf(stderr,
                   "usage: metrics_cost_bench [--seconds=1.5] [--warmup=0.25] [--rounds=24] "
                   "[--clients=4] [--workers=2] [--targets=2000] [--log_level=info] "
                   "[--out=FILE]\n");
      std::exit(a == "--help" ? 0 : 2);
    }
  }
  return f;
}

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<v1::Pose> MakeTargets(const std::string& urdf, int count) {
  auto model = motion::RobotModel::FromUrdf(urdf);
  if (!model.ok()) throw std::runtime_error(model.status().ToString());
  auto chain = (*model)->Chain();
  if (!chain.ok()) throw std::runtime_error(chain.status().ToString());
  std::mt19937_64 rng(6);
  motion::ChainData data(**chain);
  std::vector<v1::Pose> targets;
  for (int i = 0; i < count; ++i) {
    Eigen::VectorXd q((*chain)->dof());
    for (int j = 0; j < (*chain)->dof(); ++j) {
      const motion::JointLimits& l = (*chain)->dof_limits[j];
      const double lo = l.bounded ? l.lower : -M_PI, hi = l.bounded ? l.upper : M_PI;
      q[j] = std::uniform_real_distribution<double>(lo, hi)(rng);
    }
    v1::Pose wire;
    motion::server::PoseToProto(motion::ForwardKinematics(**chain, data, q), &wire);
    targets.push_back(wire);
  }
  return targets;
}

double ProcessCpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec +
         1e-6 * (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
}

struct Run {
  bool metrics = false;
  int round = 0;
  long calls = 0;
  long errors = 0;
  long solved = 0;
  double seconds = 0;
  double cpu_seconds = 0;
  LatencySummary latency;  // microseconds, client side
  double throughput() const { return calls / seconds; }
  double cpu_us_per_call() const { return 1e6 * cpu_seconds / calls; }
};

// One motiond and what its clients need: the robot's id and one stub per
// client thread, each on its own channel (its own TCP connection).
struct Server {
  bool metrics = false;
  std::unique_ptr<motion::server::MotiondServer> server;
  std::string robot_id;
  std::vector<std::unique_ptr<v1::Kinematics::Stub>> stubs;
};

Server StartServer(const Flags& flags, bool metrics, const std::string& urdf) {
  motion::server::ServerOptions options;
  options.listen = "127.0.0.1:0";
  options.workers = flags.workers;
  options.enable_metrics_interceptor = metrics;
  auto started = motion::server::MotiondServer::Start(options);
  if (!started.ok()) throw std::runtime_error(started.status().ToString());
  Server s;
  s.metrics = metrics;
  s.server = *std::move(started);
  const std::string target = "127.0.0.1:" + std::to_string(s.server->port());
  auto registry =
      v1::RobotRegistry::NewStub(grpc::CreateChannel(target, grpc::InsecureChannelCredentials()));
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
  v1::RegisterRobotRequest request;
  request.set_urdf(urdf);
  v1::RegisterRobotResponse response;
  const grpc::Status status = registry->RegisterRobot(&context, request, &response);
  if (!status.ok()) throw std::runtime_error("RegisterRobot: " + status.error_message());
  s.robot_id = response.robot_id();
  for (int t = 0; t < flags.clients; ++t) {
    grpc::ChannelArguments args;
    args.SetInt("motiond_bench_channel", t);  // distinct arguments: a channel of its own
    s.stubs.push_back(v1::Kinematics::NewStub(
        grpc::CreateCustomChannel(target, grpc::InsecureChannelCredentials(), args)));
  }
  return s;
}

Run RunOnce(const Flags& flags, Server& server, int round, const std::vector<v1::Pose>& targets) {
  std::atomic<int> phase{0};  // 0 warm-up, 1 measured, 2 stop
  struct PerThread {
    long calls = 0, errors = 0, solved = 0;
    std::vector<double> latencies_us;
  };
  std::vector<PerThread> per_thread(flags.clients);
  std::vector<std::thread> threads;
  for (int t = 0; t < flags.clients; ++t) {
    threads.emplace_back([&, t] {
      v1::Kinematics::Stub& stub = *server.stubs[t];
      PerThread& mine = per_thread[t];
      mine.latencies_us.reserve(100000);
      v1::ComputeIkRequest request;
      request.mutable_robot()->set_robot_id(server.robot_id);
      for (std::size_t i = t; phase.load() < 2; i += flags.clients) {
        *request.mutable_target() = targets[i % targets.size()];
        grpc::ClientContext context;
        context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
        v1::IkResult result;
        const auto start = Clock::now();
        const grpc::Status status = stub.ComputeIk(&context, request, &result);
        const double us = std::chrono::duration<double, std::micro>(Clock::now() - start).count();
        if (phase.load() != 1) continue;
        ++mine.calls;
        if (!status.ok()) ++mine.errors;
        if (result.ok()) ++mine.solved;
        mine.latencies_us.push_back(us);
      }
    });
  }
  std::this_thread::sleep_for(std::chrono::duration<double>(flags.warmup));
  const double cpu_start = ProcessCpuSeconds();
  const auto start = Clock::now();
  phase = 1;
  std::this_thread::sleep_for(std::chrono::duration<double>(flags.seconds));
  phase = 2;
  const auto end = Clock::now();
  const double cpu_end = ProcessCpuSeconds();
  for (auto& thread : threads) thread.join();

  Run run;
  run.metrics = server.metrics;
  run.round = round;
  run.seconds = std::chrono::duration<double>(end - start).count();
  run.cpu_seconds = cpu_end - cpu_start;
  std::vector<double> latencies;
  for (const PerThread& p : per_thread) {
    run.calls += p.calls;
    run.errors += p.errors;
    run.solved += p.solved;
    latencies.insert(latencies.end(), p.latencies_us.begin(), p.latencies_us.end());
  }
  run.latency = motion_bench::Summarize(std::move(latencies));
  return run;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Distribution-free ~95 % confidence interval of the median: the order
// statistics n/2 -+ 0.98 sqrt(n) (normal approximation of the binomial).
std::pair<double, double> MedianInterval(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const double n = static_cast<double>(v.size());
  const auto lo = static_cast<long>(std::floor(n / 2 - 0.98 * std::sqrt(n)));
  const auto hi = static_cast<long>(std::ceil(n / 2 + 0.98 * std::sqrt(n)));
  const long last = static_cast<long>(v.size()) - 1;
  return {v[std::clamp(lo, 0L, last)], v[std::clamp(hi - 1, 0L, last)]};
}

// ns per call of `body`, over enough calls for ~0.3 s, on `threads` threads at once.
template <typename Body>
double NsPerCall(int threads, Body body) {
  constexpr long kCalls = 300000;
  std::vector<std::thread> pool;
  const auto start = Clock::now();
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&] {
      for (long i = 0; i < kCalls; ++i) body(i);
    });
  }
  for (auto& thread : pool) thread.join();
  return std::chrono::duration<double, std::nano>(Clock::now() - start).count() / kCalls;
}

struct MicroCosts {
  double rpc_ns_1 = 0, rpc_ns_2 = 0;  // the interceptor's ServerMetrics calls per unary RPC
  double ik_ns_1 = 0, ik_ns_2 = 0;    // RecordIk per IK solve (always on)
  // The same four counter/histogram updates with the labelled children looked
  // up once and kept (what a per-method cache in the interceptor would do).
  double cached_ns_1 = 0, cached_ns_2 = 0;
};

// The metric updates themselves, without gRPC: what the interceptor does per
// unary RPC (started, received, sent, handled + latency) and what RecordIk
// does per IK solve, on one thread and on two at once (contention).
MicroCosts MeasureMetricUpdates() {
  motion::server::ServerOptions options;
  options.listen = "127.0.0.1:0";
  options.workers = 1;
  auto server = motion::server::MotiondServer::Start(options);
  if (!server.ok()) throw std::runtime_error(server.status().ToString());
  motion::server::ServerMetrics& metrics = (*server)->metrics();
  const std::string service = "motion.v1.Kinematics", method = "ComputeIk", type = "unary";
  const auto rpc = [&](long i) {
    metrics.RecordRpcStarted(service, method, type);
    metrics.RecordMessageReceived(service, method, type);
    metrics.RecordMessageSent(service, method, type);
    metrics.RecordRpcHandled(service, method, type, "OK", 1e-4 + 1e-9 * (i % 1000));
  };
  motion::IkResult result;
  result.ok = true;
  result.outcome = motion::IkOutcome::kOk;
  result.iterations = 14;
  const auto ik = [&](long i) {
    metrics.RecordIk(motion::IkSolverKind::kLevenbergMarquardt, result, 1e-5 + 1e-9 * (i % 1000));
  };
  // A registry of its own with the same families, children kept.
  prometheus::Registry registry;
  const prometheus::Labels labels = {
      {"grpc_service", service}, {"grpc_method", method}, {"grpc_type", type}};
  auto with_code = labels;
  with_code["grpc_code"] = "OK";
  prometheus::Counter& started =
      prometheus::BuildCounter().Name("s_total").Register(registry).Add(labels);
  prometheus::Counter& received =
      prometheus::BuildCounter().Name("r_total").Register(registry).Add(labels);
  prometheus::Counter& sent =
      prometheus::BuildCounter().Name("m_total").Register(registry).Add(labels);
  prometheus::Counter& handled =
      prometheus::BuildCounter().Name("h_total").Register(registry).Add(with_code);
  prometheus::Histogram& seconds =
      prometheus::BuildHistogram()
          .Name("h_seconds")
          .Register(registry)
          .Add(labels,
               prometheus::Histogram::BucketBoundaries{1e-4, 2.5e-4, 5e-4, 1e-3, 2.5e-3, 5e-3, 0.01,
                                                       0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10});
  const auto cached = [&](long i) {
    started.Increment();
    received.Increment();
    sent.Increment();
    handled.Increment();
    seconds.Observe(1e-4 + 1e-9 * (i % 1000));
  };
  MicroCosts costs;
  costs.cached_ns_1 = NsPerCall(1, cached);
  costs.cached_ns_2 = NsPerCall(2, cached);
  costs.rpc_ns_1 = NsPerCall(1, rpc);
  costs.rpc_ns_2 = NsPerCall(2, rpc);
  costs.ik_ns_1 = NsPerCall(1, ik);
  costs.ik_ns_2 = NsPerCall(2, ik);
  (*server)->Shutdown(std::chrono::milliseconds(0));
  return costs;
}

}  // namespace

int main(int argc, char** argv) {
  const Flags flags = ParseFlags(argc, argv);
  const auto level = spdlog::level::from_str(flags.log_level);
  motion::server::ConfigureLogging(level, motion::server::LogFormat::kText);

  const std::string urdf = ReadText(std::string(MOTIOND_ROBOTS_DIR) + "/ur5.urdf");
  const std::vector<v1::Pose> targets = MakeTargets(urdf, flags.targets);
  double load[3] = {0, 0, 0};
  getloadavg(load, 3);
  std::fprintf(stderr,
               "metrics_cost_bench: %d rounds x 2 variants x %.1f s, %d clients, %d workers, "
               "log level %s, load average %.2f\n",
               flags.rounds, flags.seconds, flags.clients, flags.workers, flags.log_level.c_str(),
               load[0]);

  // Both servers run for the whole benchmark (an idle one costs nothing);
  // the clients drive one at a time.
  Server with = StartServer(flags, true, urdf), without = StartServer(flags, false, urdf);
  std::vector<Run> runs;
  for (int round = 0; round < flags.rounds; ++round) {
    const bool first = round % 2 == 0;  // on/off, then off/on
    for (const bool metrics : {first, !first}) {
      runs.push_back(RunOnce(flags, metrics ? with : without, round, targets));
      const Run& r = runs.back();
      std::fprintf(
          stderr,
          "  round %d metrics %-3s %8.0f calls/s  %6.1f us CPU/call  p50 %.0f us  errors %ld\n",
          round, metrics ? "on" : "off", r.throughput(), r.cpu_us_per_call(), r.latency.median,
          r.errors);
    }
  }
  with.server->Shutdown(std::chrono::milliseconds(1000));
  without.server->Shutdown(std::chrono::milliseconds(1000));
  const MicroCosts micro = MeasureMetricUpdates();

  std::vector<double> on, off, ratios, cpu_on, cpu_off, p50_on, p50_off, p99_on, p99_off;
  long errors = 0;
  for (const Run& r : runs) {
    errors += r.errors;
    (r.metrics ? on : off).push_back(r.throughput());
    (r.metrics ? cpu_on : cpu_off).push_back(r.cpu_us_per_call());
    (r.metrics ? p50_on : p50_off).push_back(r.latency.median);
    (r.metrics ? p99_on : p99_off).push_back(r.latency.p99);
  }
  for (int round = 0; round < flags.rounds; ++round) {
    double a = 0, b = 0;
    for (const Run& r : runs) {
      if (r.round == round) (r.metrics ? a : b) = r.throughput();
    }
    ratios.push_back(a / b);
  }
  const double cost_median = 100 * (1 - Median(on) / Median(off));
  const double cost_paired = 100 * (1 - Median(ratios));
  const auto [ratio_lo, ratio_hi] = MedianInterval(ratios);
  const double cost_hi = 100 * (1 - ratio_lo), cost_lo = 100 * (1 - ratio_hi);

  std::printf(
      "| metrics interceptor | ComputeIk calls/s (median of %d) | CPU µs per call | client p50 µs "
      "| client p99 µs |\n",
      flags.rounds);
  std::printf("|---|---:|---:|---:|---:|\n");
  std::printf("| on | %.0f | %.1f | %.0f | %.0f |\n", Median(on), Median(cpu_on), Median(p50_on),
              Median(p99_on));
  std::printf("| off | %.0f | %.1f | %.0f | %.0f |\n", Median(off), Median(cpu_off),
              Median(p50_off), Median(p99_off));
  std::printf(
      "\nthroughput cost of the interceptor: %.2f %% (medians), %.2f %% (median of the "
      "per-round on/off ratios; ~95 %% interval %.2f .. %.2f %%); ratios: %s; errors: %ld\n",
      cost_median, cost_paired, cost_lo, cost_hi,
      [&] {
        std::string s;
        for (double r : ratios) {
          char part[16];
          std::snprintf(part, sizeof part, "%s%.3f", s.empty() ? "" : " ", r);
          s += part;
        }
        return s;
      }()
          .c_str(),
      errors);
  std::printf(
      "metric updates without gRPC (ns per call, 1 thread / 2 threads at once): "
      "interceptor per unary RPC %.0f / %.0f; the same updates with cached children "
      "%.0f / %.0f; RecordIk per IK solve %.0f / %.0f\n",
      micro.rpc_ns_1, micro.rpc_ns_2, micro.cached_ns_1, micro.cached_ns_2, micro.ik_ns_1,
      micro.ik_ns_2);

  if (!flags.out.empty()) {
    std::ofstream out(flags.out);
    JsonWriter json(out);
    json.BeginObject();
    json.Key("flags").BeginObject();
    json.Key("seconds").Number(flags.seconds).Key("warmup").Number(flags.warmup);
    json.Key("rounds").Int(flags.rounds).Key("clients").Int(flags.clients);
    json.Key("workers").Int(flags.workers).Key("targets").Int(flags.targets);
    json.Key("log_level").String(flags.log_level);
    json.EndObject();
    json.Key("load_average").Number(load[0]);
    json.Key("runs").BeginArray();
    for (const Run& r : runs) {
      json.BeginObject();
      json.Key("round").Int(r.round).Key("metrics_interceptor").Bool(r.metrics);
      json.Key("calls").Int(r.calls).Key("errors").Int(r.errors).Key("solved").Int(r.solved);
      json.Key("seconds").Number(r.seconds).Key("calls_per_second").Number(r.throughput());
      json.Key("cpu_us_per_call").Number(r.cpu_us_per_call());
      json.Key("latency_us").BeginObject();
      json.Key("mean").Number(r.latency.mean).Key("median").Number(r.latency.median);
      json.Key("p99").Number(r.latency.p99).Key("max").Number(r.latency.max);
      json.EndObject();
      json.EndObject();
    }
    json.EndArray();
    json.Key("median_calls_per_second_on").Number(Median(on));
    json.Key("median_calls_per_second_off").Number(Median(off));
    json.Key("cost_percent_medians").Number(cost_median);
    json.Key("cost_percent_paired").Number(cost_paired);
    json.Key("cost_percent_paired_interval")
        .BeginArray()
        .Number(cost_lo)
        .Number(cost_hi)
        .EndArray();
    json.Key("metric_updates_ns").BeginObject();
    json.Key("interceptor_per_rpc_1_thread").Number(micro.rpc_ns_1);
    json.Key("interceptor_per_rpc_2_threads").Number(micro.rpc_ns_2);
    json.Key("record_ik_1_thread").Number(micro.ik_ns_1);
    json.Key("record_ik_2_threads").Number(micro.ik_ns_2);
    json.Key("cached_children_per_rpc_1_thread").Number(micro.cached_ns_1);
    json.Key("cached_children_per_rpc_2_threads").Number(micro.cached_ns_2);
    json.EndObject();
    json.EndObject();
    out << "\n";
    std::fprintf(stderr, "written %s\n", flags.out.c_str());
  }
  return errors == 0 ? 0 : 1;
}
