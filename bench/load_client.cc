// Service load benchmark: how much of the machine's planning and
// IK throughput motiond delivers over gRPC on loopback.
//
// 1. Baseline: the same work called directly in this process — core
//    PlanPath (ValidatePath's work) and SolveIk (ComputeIk's) — on as many
//    threads as the server has solver workers, each with its own chain data cache.
// 2. Service: a load client drives ValidatePath (N bidirectional streams,
//    each with W requests in flight) and unary ComputeIk (N threads, one call
//    in flight each) against motiond: in-process (a MotiondServer on
//    127.0.0.1:0 in this process, sharing its cores with the client, as a
//    sidecar would) or a running one (--target=HOST:PORT).
// Reported per run: throughput, latency p50 / p99 / mean / max, errors, CPU
// seconds per wall second of this process, and service throughput /
// baseline throughput. Benchmarks report, they do not gate.
//
// Per-call cost (modes fk and health): unary ComputeFk and the standard
// grpc.health.v1.Health/Check on the same server, N threads each with one
// call in flight. Check does no work of motiond's, so its throughput and CPU
// per call are the floor every unary RPC pays (HTTP/2, the completion queue,
// the callback threads); ComputeFk / Check shows what motiond adds on top.
//
// Work: ValidatePath sends the example programs of clients/examples (UR5
// pick-and-place and glue path, MoveJ/MoveL/MoveC, 4 ms samples); ComputeIk
// sends UR5 targets FK(q) of random q within the limits, mid-range seed,
// default options (the ik_bench "uniform" protocol).

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <grpcpp/grpcpp.h>
#include <spdlog/spdlog.h>

#include "bench/bench_io.h"
#include "bench/json_writer.h"
#include "bench/latency_summary.h"
#include "clients/motionctl/program_file.h"
#include "core/cache/chain_data_cache.h"
#include "core/ik/ik_solver.h"
#include "core/kinematics/forward_kinematics.h"
#include "core/model/robot_model.h"
#include "core/motion/path_planner.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "motion/v1/kinematics.grpc.pb.h"
#include "motion/v1/motion_planner.grpc.pb.h"
#include "motion/v1/robot_registry.grpc.pb.h"
#include "server/convert/path_conversion.h"
#include "server/convert/proto_conversion.h"
#include "server/runtime/motiond_server.h"

namespace {

namespace v1 = motion::v1;
using Clock = std::chrono::steady_clock;
using motion_bench::LatencySummary;
using motion_bench::ReadText;
using motion_bench::Summarize;

struct Flags {
  std::string target;  // empty: in-process server
  int workers = 0;     // solver workers of the in-process server and baseline threads
  std::vector<int> streams = {1, 2, 4, 8};
  int window = 2;         // ValidatePath requests in flight per stream
  double duration = 3.0;  // s measured per run (after `warmup`)
  double warmup = 0.5;
  std::set<std::string> modes = {"validate", "ik", "fk", "health"};
  int ik_targets = 2000;
  std::string out;
  // With --target: the server's process, whose CPU seconds are then the ones
  // reported (0: this process's).
  int server_pid = 0;
  // spdlog level of the in-process server: the RPC log interceptor exists
  // at warn and below, not at err (its cost is part of what is measured).
  std::string server_log_level = "warn";
};

void Usage() {
  std::fprintf(stderr,
               "usage: load_client [--target=HOST:PORT] [--workers=N] [--streams=1,2,4,8]\n"
               "                   [--window=2] [--duration=3] [--warmup=0.5]\n"
               "                   [--modes=validate,ik,fk,health] [--ik_targets=2000]\n"
               "                   [--out=FILE] [--server_pid=PID] [--server_log_level=warn]\n"
               "  --target   a running motiond (default: one in this process, --workers)\n"
               "  --workers  solver threads of the in-process server and of the in-process\n"
               "             baseline (default: cores; with --target, give the server's)\n"
               "  --server_pid  with --target: report that process's CPU seconds\n");
}

std::vector<std::string> Split(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream list(text);
  for (std::string item; std::getline(list, item, ',');) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

bool ParseFlags(int argc, char** argv, Flags& f) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const motion_bench::FlagArgument flag = motion_bench::SplitFlag(arg);
    const std::string& name = flag.name;
    const std::string& value = flag.value;
    char* end = nullptr;
    auto as_int = [&](const std::string& text, int& out) {
      out = static_cast<int>(std::strtol(text.c_str(), &end, 10));
      return !text.empty() && *end == '\0' && out > 0;
    };
    auto as_double = [&](double& out) {
      out = std::strtod(value.c_str(), &end);
      return !value.empty() && *end == '\0' && out >= 0;
    };
    bool ok = true;
    if (name == "--target") {
      f.target = value;
    } else if (name == "--workers") {
      ok = as_int(value, f.workers);
    } else if (name == "--streams") {
      f.streams.clear();
      for (const std::string& s : Split(value)) {
        int n = 0;
        ok = ok && as_int(s, n);
        f.streams.push_back(n);
      }
      ok = ok && !f.streams.empty();
    } else if (name == "--window") {
      ok = as_int(value, f.window);
    } else if (name == "--duration") {
      ok = as_double(f.duration) && f.duration > 0;
    } else if (name == "--warmup") {
      ok = as_double(f.warmup);
    } else if (name == "--modes") {
      f.modes.clear();
      for (const std::string& m : Split(value)) {
        ok = ok && (m == "validate" || m == "ik" || m == "fk" || m == "health");
        f.modes.insert(m);
      }
    } else if (name == "--ik_targets") {
      ok = as_int(value, f.ik_targets);
    } else if (name == "--server_pid") {
      ok = as_int(value, f.server_pid);
    } else if (name == "--out") {
      f.out = value;
    } else if (name == "--server_log_level") {
      f.server_log_level = value;
      ok = spdlog::level::from_str(value) != spdlog::level::off || value == "off";
    } else if (name == "--help" || name == "-h") {
      Usage();
      std::exit(0);
    } else {
      ok = false;
    }
    if (!ok) {
      std::fprintf(stderr, "load_client: bad flag '%s'\n", arg.c_str());
      Usage();
      return false;
    }
  }
  if (f.workers == 0)
    f.workers = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return true;
}

double ProcessCpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec +
         1e-6 * (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
}

// CPU seconds (user + system) of process `pid` from /proc/PID/stat.
double OtherProcessCpuSeconds(int pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // Fields after the command name in parentheses (which may hold spaces):
  // state is field 3, utime 14, stime 15.
  const auto close = text.rfind(')');
  if (close == std::string::npos) return 0;
  std::istringstream fields(text.substr(close + 2));
  std::string field;
  double utime = 0, stime = 0;
  for (int i = 3; i <= 15 && fields >> field; ++i) {
    if (i == 14) utime = std::atof(field.c_str());
    if (i == 15) stime = std::atof(field.c_str());
  }
  return (utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

double Ms(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

// ------------------------------------------------------------------ work --

struct Workload {
  std::string urdf;
  std::shared_ptr<const motion::ChainModel> chain;
  std::vector<v1::PlanPathRequest> programs;  // robot: unset (filled per server)
  std::vector<motion::PathRequest> core_programs;
  std::vector<std::string> program_names;
  std::vector<v1::Pose> ik_targets;
  std::vector<motion::Pose> core_ik_targets;
  std::vector<Eigen::VectorXd> fk_joints;         // the q of the IK targets
  std::vector<v1::ComputeFkRequest> fk_requests;  // robot: unset
  motion::PathLimits limits;                      // the server's defaults
};

Workload MakeWorkload(const Flags& flags) {
  Workload w;
  w.urdf = ReadText(std::string(MOTIOND_ROBOTS_DIR) + "/ur5.urdf");
  auto model = motion::RobotModel::FromUrdf(w.urdf);
  if (!model.ok()) throw std::runtime_error(model.status().ToString());
  auto chain = (*model)->Chain();
  if (!chain.ok()) throw std::runtime_error(chain.status().ToString());
  w.chain = *chain;
  w.limits = motion::server::ServerOptions().limits.path;

  for (const char* name : {"ur5_pick_and_place.json", "ur5_glue_path.json"}) {
    motionctl::ProgramFile program;
    std::string error;
    if (!motionctl::ReadProgramFile(std::string(MOTIOND_EXAMPLES_DIR) + "/" + name, &program,
                                    &error)) {
      throw std::runtime_error(error);
    }
    program.request.clear_robot();
    auto core = motion::server::PathRequestFromProto(program.request);
    if (!core.ok()) throw std::runtime_error(name + (": " + core.status().ToString()));
    w.programs.push_back(program.request);
    w.core_programs.push_back(*std::move(core));
    w.program_names.push_back(name);
  }

  std::mt19937_64 rng(5);
  motion::ChainData data(*w.chain);
  for (int i = 0; i < flags.ik_targets; ++i) {
    Eigen::VectorXd q(w.chain->dof());
    for (int j = 0; j < w.chain->dof(); ++j) {
      const motion::JointLimits& l = w.chain->dof_limits[j];
      const double lo = l.bounded ? l.lower : -M_PI, hi = l.bounded ? l.upper : M_PI;
      q[j] = std::uniform_real_distribution<double>(lo, hi)(rng);
    }
    const Eigen::Isometry3d pose = motion::ForwardKinematics(*w.chain, data, q);
    w.fk_joints.push_back(q);
    v1::ComputeFkRequest fk;
    for (int j = 0; j < q.size(); ++j) fk.add_joints(q[j]);
    w.fk_requests.push_back(std::move(fk));
    v1::Pose wire;
    motion::server::PoseToProto(pose, &wire);
    auto core = motion::server::PoseFromProto(wire, "target");
    if (!core.ok()) throw std::runtime_error(core.status().ToString());
    w.ik_targets.push_back(wire);
    w.core_ik_targets.push_back(*core);
  }
  return w;
}

// ----------------------------------------------------------------- runs --

struct RunResult {
  std::string mode;     // "validate" or "ik"
  std::string where;    // "in-process core", "in-process motiond", "motiond at HOST:PORT"
  int concurrency = 0;  // threads (baseline, ik) or streams (validate)
  int window = 1;
  long completed = 0;  // in the measured window
  long errors = 0;     // RPC errors or error answers
  long not_ok = 0;     // answered, but the path / IK said ok = false
  double seconds = 0;
  double throughput = 0;    // per second
  double cpu_per_wall = 0;  // this process
  LatencySummary latency_ms;
  double ratio = 0;      // service / baseline throughput
  double cpu_ratio = 0;  // service / baseline completions per CPU second of this process
  double PerCpuSecond() const { return cpu_per_wall > 0 ? throughput / cpu_per_wall : 0; }
};

// Shared bookkeeping of one measured run: the window, latencies, counts.
class Recorder {
 public:
  Recorder(double warmup, double duration)
      : start_(Clock::now() +
               std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(warmup))),
        end_(start_ +
             std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(duration))) {
  }

  Clock::time_point start() const { return start_; }
  Clock::time_point end() const { return end_; }
  bool Running() const { return Clock::now() < end_; }

  /// Counts a request sent at `sent` and finished at `done`, when both fall
  /// in the measured window.
  void Record(Clock::time_point sent, Clock::time_point done, bool error, bool not_ok) {
    if (sent < start_ || done > end_) return;
    std::lock_guard<std::mutex> lock(mutex_);
    latencies_.push_back(Ms(done - sent));
    if (error) ++errors_;
    if (not_ok) ++not_ok_;
  }

  RunResult Finish(RunResult r, double cpu_seconds) {
    std::lock_guard<std::mutex> lock(mutex_);
    r.seconds = std::chrono::duration<double>(end_ - start_).count();
    r.completed = static_cast<long>(latencies_.size());
    r.errors = errors_;
    r.not_ok = not_ok_;
    r.throughput = r.completed / r.seconds;
    r.cpu_per_wall = cpu_seconds / r.seconds;
    r.latency_ms = Summarize(latencies_);
    return r;
  }

 private:
  const Clock::time_point start_, end_;
  std::mutex mutex_;
  std::vector<double> latencies_;
  long errors_ = 0, not_ok_ = 0;
};

// CPU seconds this process spends inside the measured window.
class CpuWindow {
 public:
  // pid 0: this process.
  explicit CpuWindow(const Recorder& recorder, int pid = 0) : recorder_(recorder) {
    thread_ = std::thread([this, pid] {
      auto cpu = [pid] { return pid > 0 ? OtherProcessCpuSeconds(pid) : ProcessCpuSeconds(); };
      std::this_thread::sleep_until(recorder_.start());
      const double at_start = cpu();
      std::this_thread::sleep_until(recorder_.end());
      seconds_ = cpu() - at_start;
    });
  }
  double Seconds() {
    if (thread_.joinable()) thread_.join();
    return seconds_;
  }
  ~CpuWindow() { Seconds(); }

 private:
  const Recorder& recorder_;
  std::thread thread_;
  double seconds_ = 0;
};

// What one in-process call reported: an error, or an answer that is not ok.
struct Outcome {
  bool error = false;
  bool not_ok = false;
};

// The in-process baseline of `mode`: `flags.workers` threads, each with its
// own chain data cache, call `call(cache, i)` back to back; thread t starts
// at input t * `stride`.
template <typename Call>
RunResult RunInProcess(const std::string& mode, const Flags& flags, std::size_t stride, Call call) {
  Recorder recorder(flags.warmup, flags.duration);
  CpuWindow cpu(recorder);
  std::vector<std::thread> threads;
  for (int t = 0; t < flags.workers; ++t) {
    threads.emplace_back([&, t] {
      motion::ChainDataCache cache;
      for (std::size_t i = t * stride; recorder.Running(); ++i) {
        const auto sent = Clock::now();
        const Outcome outcome = call(cache, i);
        recorder.Record(sent, Clock::now(), outcome.error, outcome.not_ok);
      }
    });
  }
  for (auto& t : threads) t.join();
  RunResult r;
  r.mode = mode;
  r.where = "in-process core";
  r.concurrency = flags.workers;
  return recorder.Finish(r, cpu.Seconds());
}

RunResult Baseline(const std::string& mode, const Workload& w, const Flags& flags) {
  if (mode == "validate") {
    return RunInProcess(mode, flags, 1, [&](motion::ChainDataCache& cache, std::size_t i) {
      auto result = motion::PlanPath(*w.chain, cache.For(w.chain),
                                     w.core_programs[i % w.core_programs.size()], w.limits);
      return Outcome{!result.ok(), result.ok() && !result->ok};
    });
  }
  if (mode == "ik") {
    const motion::IkOptions options;
    return RunInProcess(mode, flags, 7919, [&](motion::ChainDataCache& cache, std::size_t i) {
      auto result = motion::SolveIk(*w.chain, cache.For(w.chain),
                                    w.core_ik_targets[i % w.core_ik_targets.size()],
                                    motion::Pose::Identity(), {}, options);
      return Outcome{!result.ok(), result.ok() && !result->ok};
    });
  }
  return RunInProcess(mode, flags, 7919, [&](motion::ChainDataCache& cache, std::size_t i) {
    const Eigen::Isometry3d pose = motion::ForwardKinematics(
        *w.chain, cache.For(w.chain).kinematics, w.fk_joints[i % w.fk_joints.size()]);
    // Keeps the compiler from dropping an FK whose result is unused.
    return Outcome{!std::isfinite(pose.translation().x()), false};
  });
}

// A channel of its own (its own TCP connection) for each stream / thread.
std::shared_ptr<grpc::Channel> NewChannel(const std::string& target, int index) {
  grpc::ChannelArguments args;
  args.SetInt("motiond.load_client.channel", index);  // distinct args: no shared subchannel
  args.SetMaxReceiveMessageSize(64 << 20);
  return grpc::CreateCustomChannel(target, grpc::InsecureChannelCredentials(), args);
}

// One ValidatePath stream: a writer keeps `window` requests in flight
// (request ids from a ring, never one still in flight), the caller's thread
// reads answers.
void ValidateStream(const std::string& target, int index, const Workload& w,
                    const std::string& robot_id, int window, Recorder& recorder) {
  auto stub = v1::MotionPlanner::NewStub(NewChannel(target, index));
  const int ring = 4 * window + 1;
  std::vector<v1::ValidatePathRequest> requests(ring);
  for (int k = 0; k < ring; ++k) {
    requests[k].set_request_id(std::to_string(k));
    *requests[k].mutable_path() = w.programs[(index + k) % w.programs.size()];
    requests[k].mutable_path()->mutable_robot()->set_robot_id(robot_id);
  }
  grpc::ClientContext context;
  context.set_deadline(recorder.end() - Clock::now() + std::chrono::system_clock::now() +
                       std::chrono::seconds(60));
  auto stream = stub->ValidatePath(&context);

  std::mutex mutex;
  std::condition_variable window_open;
  std::vector<Clock::time_point> sent_at(ring);
  std::vector<bool> in_flight(ring, false);
  int outstanding = 0;
  bool broken = false;
  std::thread writer([&] {
    int k = 0;
    while (true) {
      std::unique_lock<std::mutex> lock(mutex);
      window_open.wait(lock, [&] { return broken || outstanding < window; });
      if (broken || !recorder.Running()) break;
      while (in_flight[k]) k = (k + 1) % ring;
      in_flight[k] = true;
      ++outstanding;
      sent_at[k] = Clock::now();
      lock.unlock();
      if (!stream->Write(requests[k])) break;
      k = (k + 1) % ring;
    }
    stream->WritesDone();
  });
  v1::ValidatePathResponse response;
  while (stream->Read(&response)) {
    const auto done = Clock::now();
    const int k = std::atoi(response.request_id().c_str());
    Clock::time_point sent;
    {
      std::lock_guard<std::mutex> lock(mutex);
      sent = sent_at[k];
      in_flight[k] = false;
      --outstanding;
    }
    window_open.notify_one();
    recorder.Record(sent, done, response.error_code() != 0,
                    response.error_code() == 0 && !response.ok());
  }
  {
    std::lock_guard<std::mutex> lock(mutex);
    broken = true;
  }
  window_open.notify_one();
  writer.join();
  const grpc::Status status = stream->Finish();
  if (!status.ok()) {
    std::fprintf(stderr, "ValidatePath stream %d: %d %s\n", index,
                 static_cast<int>(status.error_code()), status.error_message().c_str());
  }
}

void IkCaller(const std::string& target, int index, const Workload& w, const std::string& robot_id,
              Recorder& recorder) {
  auto stub = v1::Kinematics::NewStub(NewChannel(target, index));
  v1::ComputeIkRequest request;
  request.mutable_robot()->set_robot_id(robot_id);
  for (std::size_t i = index * 7919; recorder.Running(); ++i) {
    *request.mutable_target() = w.ik_targets[i % w.ik_targets.size()];
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    v1::IkResult result;
    const auto sent = Clock::now();
    const grpc::Status status = stub->ComputeIk(&context, request, &result);
    recorder.Record(sent, Clock::now(), !status.ok(), status.ok() && !result.ok());
  }
}

void FkCaller(const std::string& target, int index, const Workload& w, const std::string& robot_id,
              Recorder& recorder) {
  auto stub = v1::Kinematics::NewStub(NewChannel(target, index));
  std::vector<v1::ComputeFkRequest> requests = w.fk_requests;
  for (auto& request : requests) request.mutable_robot()->set_robot_id(robot_id);
  for (std::size_t i = index * 7919; recorder.Running(); ++i) {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    v1::ComputeFkResponse response;
    const auto sent = Clock::now();
    const grpc::Status status = stub->ComputeFk(&context, requests[i % requests.size()], &response);
    recorder.Record(sent, Clock::now(), !status.ok(), false);
  }
}

void HealthCaller(const std::string& target, int index, Recorder& recorder) {
  auto stub = grpc::health::v1::Health::NewStub(NewChannel(target, index));
  const grpc::health::v1::HealthCheckRequest request;  // "": the whole server
  while (recorder.Running()) {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    grpc::health::v1::HealthCheckResponse response;
    const auto sent = Clock::now();
    const grpc::Status status = stub->Check(&context, request, &response);
    recorder.Record(sent, Clock::now(), !status.ok(),
                    status.ok() && response.status() != response.SERVING);
  }
}

RunResult ServiceRun(const std::string& mode, const std::string& target, const std::string& where,
                     const Workload& w, const std::string& robot_id, int concurrency,
                     const Flags& flags) {
  Recorder recorder(flags.warmup, flags.duration);
  CpuWindow cpu(recorder, flags.server_pid);
  std::vector<std::thread> threads;
  for (int i = 0; i < concurrency; ++i) {
    threads.emplace_back([&, i] {
      if (mode == "validate") {
        ValidateStream(target, i, w, robot_id, flags.window, recorder);
      } else if (mode == "ik") {
        IkCaller(target, i, w, robot_id, recorder);
      } else if (mode == "fk") {
        FkCaller(target, i, w, robot_id, recorder);
      } else {
        HealthCaller(target, i, recorder);
      }
    });
  }
  for (auto& t : threads) t.join();
  RunResult r;
  r.mode = mode;
  r.where = where;
  r.concurrency = concurrency;
  r.window = mode == "validate" ? flags.window : 1;
  return recorder.Finish(r, cpu.Seconds());
}

// --------------------------------------------------------------- report --

const char* RpcName(const std::string& mode) {
  if (mode == "validate") return "ValidatePath";
  if (mode == "ik") return "ComputeIk";
  if (mode == "fk") return "ComputeFk";
  return "Health/Check";
}

// The service run of `mode` at `concurrency`, or nullptr.
const RunResult* FindRun(const std::vector<RunResult>& results, const std::string& mode,
                         int concurrency) {
  for (const RunResult& r : results) {
    if (r.mode == mode && r.where != "in-process core" && r.concurrency == concurrency) return &r;
  }
  return nullptr;
}

double CpuMicrosecondsPerCall(const RunResult& r) {
  return r.throughput > 0 ? 1e6 * r.cpu_per_wall / r.throughput : 0;
}

// Unary calls against the health check at the same concurrency: what motiond
// adds to the cost every unary RPC pays anyway.
void PrintPerCallCost(const std::vector<RunResult>& results, const std::vector<int>& streams,
                      bool server_cpu) {
  std::printf(
      "\nPer-call cost against Health/Check (CPU µs per call: %s)\n\n"
      "| in flight | Check per s | Check CPU µs | ComputeFk per s | FK CPU µs | FK / Check | "
      "ComputeIk per s | IK CPU µs | IK / Check |\n"
      "|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
      server_cpu ? "the server process" : "this process, client and server");
  for (int n : streams) {
    const RunResult* health = FindRun(results, "health", n);
    if (health == nullptr || health->throughput <= 0) continue;
    std::printf("| %d | %.0f | %.1f", n, health->throughput, CpuMicrosecondsPerCall(*health));
    for (const char* mode : {"fk", "ik"}) {
      const RunResult* r = FindRun(results, mode, n);
      if (r == nullptr) {
        std::printf(" | – | – | –");
      } else {
        std::printf(" | %.0f | %.1f | %.2f", r->throughput, CpuMicrosecondsPerCall(*r),
                    r->throughput / health->throughput);
      }
    }
    std::printf(" |\n");
  }
  std::fflush(stdout);
}

void PrintRow(const RunResult& r) {
  const bool service = r.where != "in-process core";
  std::string concurrency = std::to_string(r.concurrency);
  if (service && r.mode == "validate") concurrency += " × " + std::to_string(r.window);
  char ratio[16] = "–", cpu_ratio[16] = "–";
  if (r.ratio > 0) std::snprintf(ratio, sizeof ratio, "%.2f", r.ratio);
  if (r.cpu_ratio > 0) std::snprintf(cpu_ratio, sizeof cpu_ratio, "%.2f", r.cpu_ratio);
  std::printf("| %s | %s | %s | %.0f | %.3f | %.3f | %.3f | %.2f | %.0f | %ld | %s | %s |\n",
              RpcName(r.mode), r.where.c_str(), concurrency.c_str(), r.throughput,
              r.latency_ms.median, r.latency_ms.p99, r.latency_ms.mean, r.cpu_per_wall,
              r.PerCpuSecond(), r.errors, ratio, cpu_ratio);
  std::fflush(stdout);
}

void WriteRun(motion_bench::JsonWriter& json, const RunResult& r) {
  json.BeginObject();
  json.Key("mode").String(r.mode);
  json.Key("where").String(r.where);
  json.Key("concurrency").Int(r.concurrency);
  json.Key("window").Int(r.window);
  json.Key("completed").Int(r.completed);
  json.Key("errors").Int(r.errors);
  json.Key("not_ok").Int(r.not_ok);
  json.Key("seconds").Number(r.seconds);
  json.Key("throughput_per_s").Number(r.throughput);
  json.Key("cpu_seconds_per_second").Number(r.cpu_per_wall);
  json.Key("per_cpu_second").Number(r.PerCpuSecond());
  json.Key("latency_ms").BeginObject();
  json.Key("p50").Number(r.latency_ms.median);
  json.Key("p99").Number(r.latency_ms.p99);
  json.Key("mean").Number(r.latency_ms.mean);
  json.Key("max").Number(r.latency_ms.max);
  json.EndObject();
  if (r.ratio > 0) json.Key("ratio_to_in_process").Number(r.ratio);
  if (r.cpu_ratio > 0) json.Key("per_cpu_ratio_to_in_process").Number(r.cpu_ratio);
  json.EndObject();
}

}  // namespace

int main(int argc, char** argv) {
  Flags flags;
  if (!ParseFlags(argc, argv, flags)) return 2;
  spdlog::set_level(spdlog::level::from_str(flags.server_log_level));
  const Workload workload = MakeWorkload(flags);

  std::unique_ptr<motion::server::MotiondServer> server;
  std::string target = flags.target, where = "motiond at " + flags.target;
  if (target.empty()) {
    motion::server::ServerOptions options;
    options.listen = "127.0.0.1:0";
    options.workers = flags.workers;
    auto started = motion::server::MotiondServer::Start(options);
    if (!started.ok()) {
      std::fprintf(stderr, "load_client: %s\n", started.status().ToString().c_str());
      return 1;
    }
    server = *std::move(started);
    target = "127.0.0.1:" + std::to_string(server->port());
    where = "in-process motiond";
  }
  // Register once (the ids are content hashes), as a client would.
  std::string robot_id;
  {
    auto stub =
        v1::RobotRegistry::NewStub(grpc::CreateChannel(target, grpc::InsecureChannelCredentials()));
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    v1::RegisterRobotRequest request;
    request.set_urdf(workload.urdf);
    v1::RegisterRobotResponse response;
    const grpc::Status status = stub->RegisterRobot(&context, request, &response);
    if (!status.ok()) {
      std::fprintf(stderr, "load_client: RegisterRobot at %s: %s\n", target.c_str(),
                   status.error_message().c_str());
      return 1;
    }
    robot_id = response.robot_id();
  }

  std::string load_average;
  std::getline(std::ifstream("/proc/loadavg"), load_average);
  std::printf("load_client: %s, %d solver workers / baseline threads, %u cores, load %s\n",
              where.c_str(), flags.workers, std::thread::hardware_concurrency(),
              load_average.c_str());
  std::printf(
      "%.1f s warm-up + %.1f s measured per row; ratio = throughput / in-process "
      "core throughput on %d threads\n\n",
      flags.warmup, flags.duration, flags.workers);
  std::printf(
      "| RPC | where | streams × in flight / threads | per s | p50 ms | p99 ms | mean ms | CPU "
      "s/s | per CPU s | errors | ratio | per-CPU ratio |\n"
      "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");

  std::vector<RunResult> results;
  for (const std::string mode : {"validate", "ik", "fk", "health"}) {
    if (!flags.modes.count(mode)) continue;
    // The health check has no core work to compare with.
    RunResult baseline;
    if (mode != "health") {
      baseline = Baseline(mode, workload, flags);
      PrintRow(baseline);
      results.push_back(baseline);
    }
    for (int n : flags.streams) {
      RunResult r = ServiceRun(mode, target, where, workload, robot_id, n, flags);
      r.ratio = baseline.throughput > 0 ? r.throughput / baseline.throughput : 0;
      // In-process only: with --target the server's CPU is not this process's.
      if (server && baseline.PerCpuSecond() > 0) {
        r.cpu_ratio = r.PerCpuSecond() / baseline.PerCpuSecond();
      }
      PrintRow(r);
      results.push_back(r);
    }
  }
  if (server) server->Shutdown(std::chrono::milliseconds(1000));
  if (flags.modes.count("health")) {
    PrintPerCallCost(results, flags.streams, !server && flags.server_pid > 0);
  }

  if (!flags.out.empty()) {
    std::ofstream out(flags.out);
    motion_bench::JsonWriter json(out);
    json.BeginObject();
    json.Key("benchmark").String("load_client");
    json.Key("server").String(where);
    json.Key("workers").Int(flags.workers);
    json.Key("server_log_level").String(flags.server_log_level);
    json.Key("cores").Int(std::thread::hardware_concurrency());
    json.Key("load_average").String(load_average);
    json.Key("warmup_s").Number(flags.warmup);
    json.Key("duration_s").Number(flags.duration);
    json.Key("validate_programs").BeginArray();
    for (const std::string& name : workload.program_names) json.String(name);
    json.EndArray();
    json.Key("ik_targets").Int(static_cast<long long>(workload.ik_targets.size()));
    json.Key("cpu_of").String(server                 ? "this process (client and in-process server)"
                              : flags.server_pid > 0 ? "the server process"
                                                     : "this process (client only)");
    json.Key("runs").BeginArray();
    for (const RunResult& r : results) WriteRun(json, r);
    json.EndArray();
    json.EndObject();
    std::printf("\nResults: %s\n", flags.out.c_str());
  }
  return 0;
}
