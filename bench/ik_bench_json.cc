// IK benchmark: the JSON results file.
#include "bench/ik_bench_protocol.h"

namespace ik_bench {

void WriteCase(JsonWriter& j, const Case& c) {
  j.BeginObject();
  j.Key("index").Int(static_cast<long long>(c.index));
  j.Key("category").String(kCategoryNames[c.problem->category]);
  j.Key("q").Numbers(c.problem->q);
  if (!c.problem->seed.empty()) j.Key("seed").Numbers(c.problem->seed);
  j.Key("joints").Numbers(c.joints);
  j.Key("outcome").String(c.outcome);
  j.Key("solver_ok").Bool(c.solver_ok);
  j.Key("within_limits").Bool(c.verdict.within_limits);
  j.Key("position_error").Number(c.verdict.position_error);
  j.Key("rotation_error").Number(c.verdict.rotation_error);
  j.Key("time_us").Number(c.time_us);
  j.Key("cpu_us").Number(c.cpu_us);
  j.Key("attempts").Int(c.attempts);
  j.Key("iterations").Int(c.iterations);
  j.EndObject();
}

void WriteLatency(JsonWriter& j, const std::vector<double>& times) {
  const LatencySummary s = motion_bench::Summarize(times);
  j.BeginObject();
  j.Key("count").Int(static_cast<long long>(s.count));
  j.Key("mean").Number(s.mean);
  j.Key("median").Number(s.median);
  j.Key("p99").Number(s.p99);
  j.Key("max").Number(s.max);
  j.EndObject();
}

void WriteRun(JsonWriter& j, const SolverRun& r) {
  j.BeginObject();
  j.Key("solver").String(r.key);
  j.Key("label").String(r.label);
  j.Key("samples").Int(static_cast<long long>(r.samples));
  j.Key("strict_success").Int(static_cast<long long>(r.strict));
  j.Key("strict_success_pct").Number(r.samples ? 100.0 * r.strict / r.samples : 0.0);
  j.Key("success_ignoring_limits").Int(static_cast<long long>(r.pose_only));
  j.Key("success_ignoring_limits_pct").Number(r.samples ? 100.0 * r.pose_only / r.samples : 0.0);
  j.Key("latency_us");
  WriteLatency(j, r.times_us);
  j.Key("latency_success_us");
  WriteLatency(j, r.success_times_us);
  j.Key("cpu_us");
  WriteLatency(j, r.cpu_times_us);
  j.Key("preempted").Int(static_cast<long long>(r.preempted));
  j.Key("preempted_failures").Int(static_cast<long long>(r.preempted_failures));
  j.Key("solver_says_ok").Int(static_cast<long long>(r.solver_ok_count));
  if (r.has_lma_own_test) j.Key("kdl_lma_own_test").Int(static_cast<long long>(r.lma_own_test));
  if (r.key == "kdl_nr_jl_loop") {
    j.Key("kdl_rc_disagreements").Int(static_cast<long long>(r.kdl_rc_disagreements));
  }
  j.Key("mean_attempts").Number(r.samples ? static_cast<double>(r.attempts) / r.samples : 0.0);
  j.Key("per_category").BeginObject();
  for (int c = 0; c < kCategoryCount; ++c) {
    if (r.category_samples[c] == 0) continue;
    j.Key(kCategoryNames[c]).BeginObject();
    j.Key("samples").Int(static_cast<long long>(r.category_samples[c]));
    j.Key("strict_success").Int(static_cast<long long>(r.category_strict[c]));
    j.EndObject();
  }
  j.EndObject();
  j.Key("failure_outcomes").BeginObject();
  for (const auto& [outcome, n] : r.failure_outcomes) j.Key(outcome).Int(static_cast<long long>(n));
  j.EndObject();
  j.Key("disagreements").BeginObject();
  j.Key("solver_ok_check_failed").Int(static_cast<long long>(r.ok_but_check_failed));
  j.Key("solver_failed_check_ok").Int(static_cast<long long>(r.failed_but_check_ok));
  j.Key("cases").BeginArray();
  for (const Case& c : r.disagreements) WriteCase(j, c);
  j.EndArray();
  j.EndObject();
  j.Key("failures").BeginArray();
  for (const Case& c : r.failures) WriteCase(j, c);
  j.EndArray();
  j.Key("preempted_failures_cases").BeginArray();
  for (const Case& c : r.preempted_failure_cases) WriteCase(j, c);
  j.EndArray();
  j.EndObject();
}

std::string FirstLineWith(const char* path, const std::string& prefix) {
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(prefix, 0) == 0) {
      const auto colon = line.find(':');
      return colon == std::string::npos ? line
                                        : line.substr(line.find_first_not_of(" \t", colon + 1));
    }
  }
  return "";
}

void WriteJson(const std::string& path, const Flags& flags, const std::vector<ArmReport>& reports,
               const std::string& started, const std::string& load_average, double seconds) {
  std::ofstream out(path);
  if (!out) Die("cannot write " + path);
  JsonWriter j(out);
  j.BeginObject();
  j.Key("benchmark").String("ik_bench");
  j.Key("started").String(started);
  j.Key("run_seconds").Number(seconds);
  j.Key("machine").BeginObject();
  j.Key("cpu").String(FirstLineWith("/proc/cpuinfo", "model name"));
  j.Key("load_average_at_start").String(load_average);
#if defined(__clang__)
  j.Key("compiler").String("clang " __clang_version__);
#else
  j.Key("compiler").String("gcc " __VERSION__);
#endif
  j.EndObject();
  j.Key("protocol").BeginObject();
  j.Key("position_tolerance_m").Number(kPositionTolerance);
  j.Key("rotation_tolerance_rad").Number(kRotationTolerance);
  j.Key("timeout_ms").Number(flags.timeout_ms);
  j.Key("samples").Int(flags.samples);
  j.Key("kdl_samples").Int(flags.kdl_samples);
  j.Key("singular_samples").Int(flags.singular_samples);
  j.Key("sigma_pool").Int(flags.sigma_pool);
  j.Key("sigma_fraction").Number(flags.sigma_fraction);
  j.Key("straight_window_rad").Number(flags.straight_window);
  j.Key("uniform_seed").String("mid-range");
  j.Key("near_singular_seed").String("uniform random within limits");
  j.Key("threads").Int(1);
  j.EndObject();

  j.Key("uniform").BeginArray();
  for (const ArmReport& a : reports) {
    j.BeginObject();
    j.Key("robot").String(a.arm->name);
    j.Key("synthetic").Bool(a.arm->synthetic);
    j.Key("dof").Int(a.arm->chain->dof());
    j.Key("base_link").String(a.arm->chain->base_link);
    j.Key("tip_link").String(a.arm->chain->tip_link);
    j.Key("check_fk").String(a.judge_fk);
    j.Key("solvers").BeginArray();
    for (const SolverRun& r : a.uniform_runs) WriteRun(j, r);
    j.EndArray();
    j.EndObject();
  }
  j.EndArray();

  j.Key("near_singular").BeginArray();
  for (const ArmReport& a : reports) {
    if (a.singular_runs.empty()) continue;
    j.BeginObject();
    j.Key("robot").String(a.arm->name);
    j.Key("straight_joints").BeginArray();
    for (const ArmReport::Window& w : a.windows) {
      j.BeginObject();
      j.Key("category").String(kCategoryNames[w.spec->category]);
      j.Key("joint").String(w.spec->joint);
      j.Key("straight").Number(w.spec->straight);
      j.Key("window").BeginArray().Number(w.lower).Number(w.upper).EndArray();
      j.Key("why").String(w.spec->why);
      j.EndObject();
    }
    j.EndArray();
    j.Key("sigma_min").BeginObject();
    j.Key("uniform_pool_median").Number(a.uniform_sigma_median);
    j.Key("low_sigma_threshold").Number(a.low_sigma_threshold);
    for (int c = kElbow; c < kCategoryCount; ++c) {
      j.Key(std::string(kCategoryNames[c]) + "_median").Number(a.category_sigma_median[c]);
    }
    j.EndObject();
    j.Key("solvers").BeginArray();
    for (const SolverRun& r : a.singular_runs) WriteRun(j, r);
    j.EndArray();
    j.EndObject();
  }
  j.EndArray();
  j.EndObject();
}

}  // namespace ik_bench
