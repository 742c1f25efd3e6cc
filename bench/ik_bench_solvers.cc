// IK benchmark: the timed solver runs: motiond's SolveIk and KDL's baselines.
#include "bench/ik_bench_protocol.h"

namespace ik_bench {

double MicrosecondsBetween(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::micro>(b - a).count();
}

// CPU time of this thread, µs. Read outside the steady_clock window; a solve
// whose wall time exceeds its CPU time was preempted (or slept), which on a
// shared 2-core machine is the usual cause of a wall-clock timeout.
double ThreadCpuMicroseconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1e6 + t.tv_nsec * 1e-3;
}

/// Between solves (never inside a timed one), sleeps 60 ms after every
/// 400 ms of work. Under `chrt -f` (how to keep other processes from
/// preempting the timed solves on a busy machine) this keeps the run below
/// the kernel's real-time throttle (950 ms per second by default), which
/// would otherwise stop the process for ~50 ms in the middle of some solve.
void Breathe() {
  static Clock::time_point last = Clock::now();
  if (Clock::now() - last < std::chrono::milliseconds(400)) return;
  std::this_thread::sleep_for(std::chrono::milliseconds(60));
  last = Clock::now();
}

/// motiond's SolveIk with the given solver (default LM, or a KDL baseline as
/// one call), on the first `count` problems.
SolverRun RunSolveIk(const Arm& arm, motion::IkData& ws, StrictIkCheck& check,
                     const std::vector<Problem>& problems, std::size_t count,
                     motion::IkSolverKind solver, const std::string& key, const std::string& label,
                     double timeout_ms) {
  motion::IkOptions options;
  options.solver = solver;
  options.timeout = timeout_ms * 1e-3;
  const motion::Pose tool = motion::Pose::Identity();
  count = std::min(count, problems.size());
  for (std::size_t i = 0; i < std::min<std::size_t>(kWarmupSolves, count); ++i) {
    (void)motion::SolveIk(*arm.chain, ws, problems[i].target, tool, problems[i].seed, options);
  }
  SolverRun run;
  run.key = key;
  run.label = label;
  run.has_lma_own_test = solver == motion::IkSolverKind::kKdlLma;
  for (std::size_t i = 0; i < count; ++i) {
    const Problem& p = problems[i];
    Breathe();
    const double cpu_start = ThreadCpuMicroseconds();
    const Clock::time_point start = Clock::now();
    absl::StatusOr<motion::IkResult> result =
        motion::SolveIk(*arm.chain, ws, p.target, tool, p.seed, options);
    const Clock::time_point stop = Clock::now();
    const double cpu_us = ThreadCpuMicroseconds() - cpu_start;
    if (!result.ok()) {
      Die(arm.name + ": SolveIk(" + key + ") refused sample " + std::to_string(i) + ": " +
          std::string(result.status().message()));
    }
    const StrictVerdict v = check(result->joints, p.target_isometry);
    run.Record(i, p, result->joints, result->ok, motion::IkOutcomeName(result->outcome), v,
               MicrosecondsBetween(start, stop), cpu_us, result->attempts, result->iterations);
  }
  return run;
}

KDL::Frame ToKdlFrame(const Eigen::Isometry3d& pose) {
  KDL::Frame frame;
  for (int r = 0; r < 3; ++r) {
    frame.p(r) = pose.translation()[r];
    for (int c = 0; c < 3; ++c) frame.M(r, c) = pose.linear()(r, c);
  }
  return frame;
}

void SetSeed(const Problem& p, const Eigen::VectorXd& mid, KDL::JntArray& q_init) {
  if (p.seed.empty()) {
    q_init.data = mid;
  } else {
    q_init.data = Eigen::Map<const Eigen::VectorXd>(p.seed.data(), p.seed.size());
  }
}

std::string KdlReturnName(int rc) {
  switch (rc) {
    case KDL::SolverI::E_NOERROR:
      return "ok";
    case KDL::SolverI::E_MAX_ITERATIONS_EXCEEDED:
      return "max_iterations";
    case KDL::ChainIkSolverPos_LMA::E_GRADIENT_JOINTS_TOO_SMALL:
      return "gradient_too_small";
    case KDL::ChainIkSolverPos_LMA::E_INCREMENT_JOINTS_TOO_SMALL:
      return "increment_too_small";
    default:
      return "rc " + std::to_string(rc);
  }
}

/// KDL NR_JL the way TRAC-IK benchmarks it: the first call from the seed,
/// then random restarts within limits until a strict solution or the time
/// budget. The loop stops on the benchmark's check (a KDL user must check
/// too), so its verdict is the check's; the check is timed with the loop. A
/// call that starts before the deadline runs to its end.
SolverRun RunKdlLoop(const Arm& arm, motion::IkData& ws, StrictIkCheck& check,
                     const std::vector<Problem>& problems, std::size_t count, double timeout_ms) {
  const motion::ChainModel& chain = *arm.chain;
  motion::KdlIkSolvers& kdl = ws.Kdl(chain);
  const Eigen::VectorXd mid = motion::MidRangeConfiguration(chain);
  motion::SplitMix64 rng(StreamSeed(arm.name, 7));
  const auto budget = std::chrono::nanoseconds(static_cast<std::int64_t>(timeout_ms * 1e6));
  KDL::JntArray q_init(chain.dof()), q_out(chain.dof());
  count = std::min(count, problems.size());

  int calls = 0;
  std::size_t rc_disagreements = 0;
  StrictVerdict v;
  auto solve = [&](const Problem& p) {
    const KDL::Frame goal = ToKdlFrame(p.target_isometry);
    SetSeed(p, mid, q_init);
    const Clock::time_point deadline = Clock::now() + budget;
    calls = 0;
    for (;;) {
      const int rc = kdl.nr_jl.CartToJnt(q_init, goal, q_out);
      ++calls;
      v = check(q_out.data, p.target_isometry);
      if ((rc >= 0) != v.strict()) ++rc_disagreements;
      if (v.strict() || Clock::now() >= deadline) return;
      motion::RandomConfiguration(chain, mid, rng, q_init.data);
    }
  };

  for (std::size_t i = 0; i < std::min<std::size_t>(kWarmupSolves, count); ++i) solve(problems[i]);
  rc_disagreements = 0;
  SolverRun run;
  run.key = "kdl_nr_jl_loop";
  run.label = "KDL NR_JL 5 ms loop";
  for (std::size_t i = 0; i < count; ++i) {
    const Problem& p = problems[i];
    Breathe();
    const double cpu_start = ThreadCpuMicroseconds();
    const Clock::time_point start = Clock::now();
    solve(p);
    const Clock::time_point stop = Clock::now();
    const double cpu_us = ThreadCpuMicroseconds() - cpu_start;
    const std::string outcome = v.strict() ? "ok" : v.pose_ok ? "joint_limit" : "timeout";
    run.Record(i, p, q_out.data, v.strict(), outcome, v, MicrosecondsBetween(start, stop), cpu_us,
               calls, 0);
  }
  run.kdl_rc_disagreements = rc_disagreements;
  return run;
}

/// KDL LMA with unit weights on position and rotation (the bench builds it;
/// motiond's baseline uses KDL's default weights 1, 1, 1, 0.01, 0.01, 0.01),
/// one call, KDL's default eps and iterations. Its verdict is its return code.
SolverRun RunKdlLmaUnitWeights(const Arm& arm, StrictIkCheck& check,
                               const std::vector<Problem>& problems, std::size_t count) {
  const motion::ChainModel& chain = *arm.chain;
  KDL::ChainIkSolverPos_LMA lma(chain.kdl_chain, Eigen::Matrix<double, 6, 1>::Ones(),
                                motion::KdlIkSolvers::kLmaEpsilon,
                                motion::KdlIkSolvers::kLmaMaxIterations);
  const Eigen::VectorXd mid = motion::MidRangeConfiguration(chain);
  KDL::JntArray q_init(chain.dof()), q_out(chain.dof());
  count = std::min(count, problems.size());
  for (std::size_t i = 0; i < std::min<std::size_t>(kWarmupSolves, count); ++i) {
    SetSeed(problems[i], mid, q_init);
    lma.CartToJnt(q_init, ToKdlFrame(problems[i].target_isometry), q_out);
  }
  SolverRun run;
  run.key = "kdl_lma_unit_weights";
  run.label = "KDL LMA unit weights (bench-built)";
  run.verdict_ignores_limits = true;
  for (std::size_t i = 0; i < count; ++i) {
    const Problem& p = problems[i];
    Breathe();
    const double cpu_start = ThreadCpuMicroseconds();
    const Clock::time_point start = Clock::now();
    SetSeed(p, mid, q_init);
    const int rc = lma.CartToJnt(q_init, ToKdlFrame(p.target_isometry), q_out);
    const Clock::time_point stop = Clock::now();
    const double cpu_us = ThreadCpuMicroseconds() - cpu_start;
    const StrictVerdict v = check(q_out.data, p.target_isometry);
    std::string outcome = KdlReturnName(rc);
    if (rc >= 0 && !v.within_limits) outcome = "outside_limits";
    run.Record(i, p, q_out.data, rc >= 0, outcome, v, MicrosecondsBetween(start, stop), cpu_us, 1,
               lma.lastNrOfIter);
  }
  return run;
}

std::vector<SolverRun> RunSolvers(const Arm& arm, motion::IkData& ws, StrictIkCheck& check,
                                  const std::vector<Problem>& problems, std::size_t lm_count,
                                  std::size_t kdl_count, const Flags& flags, const char* protocol) {
  std::vector<SolverRun> runs;
  auto timed = [&](auto&& run) {
    const Clock::time_point start = Clock::now();
    runs.push_back(run());
    const SolverRun& r = runs.back();
    std::fprintf(stderr, "  %-8s %-14s %-22s %6zu solves %8.2f %% strict  %6.1f s\n",
                 arm.name.c_str(), protocol, r.label.c_str(), r.samples,
                 r.samples ? 100.0 * r.strict / r.samples : 0.0,
                 std::chrono::duration<double>(Clock::now() - start).count());
  };
  timed([&] {
    return RunSolveIk(arm, ws, check, problems, lm_count, motion::IkSolverKind::kLevenbergMarquardt,
                      "lm", "motiond lm (default)", flags.timeout_ms);
  });
  if (!flags.kdl || !arm.kdl_ok) return runs;
  timed([&] {
    return RunSolveIk(arm, ws, check, problems, kdl_count, motion::IkSolverKind::kKdlNrJl,
                      "kdl_nr_jl", "KDL NR_JL single call", flags.timeout_ms);
  });
  timed([&] { return RunKdlLoop(arm, ws, check, problems, kdl_count, flags.timeout_ms); });
  timed([&] {
    return RunSolveIk(arm, ws, check, problems, kdl_count, motion::IkSolverKind::kKdlLma, "kdl_lma",
                      "KDL LMA single call", flags.timeout_ms);
  });
  timed([&] { return RunKdlLmaUnitWeights(arm, check, problems, kdl_count); });
  return runs;
}

}  // namespace ik_bench
