// IK benchmark: TRAC-IK's protocol on the default chain of every
// bundled robot, motiond's default solver next to KDL's NR_JL and LMA in the
// same run.
//
// Uniform protocol: N joint vectors uniform within limits -> FK -> target;
// solve from the mid-range seed with a 5 ms budget. Near-singular protocol
// (ur5, panda, iiwa14): targets with the elbow or the wrist within 0.05 rad
// of straight, plus the 1 % of uniform samples with the smallest sigma_min;
// seeds random within limits. A solve counts as a success only when the
// solver says ok AND the benchmark's own check (strict_ik_check.h: FK of the
// returned joints here, within limits, |dp| <= 1e-5 m, angle <= 1e-5 rad)
// agrees; every disagreement is counted and reported.
//
// Not Google Benchmark: this measures a success rate and a latency
// distribution (one steady_clock reading around each solve, single thread),
// not the mean of a tight loop. Writes JSON (--out=FILE) and prints markdown.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <time.h>  // clock_gettime, CLOCK_THREAD_CPUTIME_ID (POSIX)

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <kdl/chainiksolverpos_lma.hpp>
#include <kdl/frames.hpp>
#include <kdl/jntarray.hpp>

#include "bench/json_writer.h"
#include "bench/latency_summary.h"
#include "bench/strict_ik_check.h"
#include "core/geometry/pose.h"
#include "core/ik/ik_options.h"
#include "core/ik/ik_result.h"
#include "core/ik/ik_solver.h"
#include "core/ik/joint_space.h"
#include "core/ik/kdl_ik_baselines.h"
#include "core/kinematics/chain_data.h"
#include "core/kinematics/forward_kinematics.h"
#include "core/kinematics/jacobian.h"
#include "core/model/chain_model.h"
#include "core/model/robot_model.h"
#include "core/workspace/kinematics_workspace.h"

namespace {

using motion_bench::JsonWriter;
using motion_bench::LatencySummary;
using motion_bench::StrictIkCheck;
using motion_bench::StrictVerdict;
using Clock = std::chrono::steady_clock;

constexpr double kPositionTolerance = 1e-5;  // m, TRAC-IK's strict criterion
constexpr double kRotationTolerance = 1e-5;  // rad
// Fixed, and different from the solver's own restart seed, so runs compare
// and the targets are not correlated with the solver's restarts.
constexpr std::uint64_t kSampleSeed = 0x696b5f62656e6368ull;  // "ik_bench"
// Untimed solves before each solver's run (caches, lazily built solvers).
constexpr int kWarmupSolves = 20;
constexpr std::size_t kKeptCases = 20;    // failures / disagreements kept per run
constexpr std::size_t kPrintedCases = 5;  // of which printed to stderr

// Synthetic robots: reported separately, their success is informative only.
const char* const kSyntheticRobots[] = {"planar_2r", "quirks"};

enum Category { kUniform = 0, kElbow = 1, kWrist = 2, kLowSigma = 3 };
const char* const kCategoryNames[] = {"uniform", "elbow", "wrist", "low_sigma"};
constexpr int kCategoryCount = 4;

/// The joint whose "straight" value puts an arm at its elbow or wrist
/// singularity, per robot of the near-singular protocol.
struct StraightJoint {
  const char* robot;
  Category category;
  const char* joint;
  double straight;  ///< rad
  const char* why;
};

const StraightJoint kStraightJoints[] = {
    {"ur5", kElbow, "elbow_joint", 0.0, "upper arm and forearm aligned: arm stretched"},
    {"ur5", kWrist, "wrist_2_joint", 0.0, "wrist 1 and wrist 3 axes parallel"},
    {"panda", kElbow, "panda_joint4", -0.0698,
     "upper limit -0.0698: the straightest the elbow gets (straight = 0 is outside the limits)"},
    {"panda", kWrist, "panda_joint6", 0.0, "joint 5 and joint 7 axes parallel, 0.088 m apart"},
    {"iiwa14", kElbow, "iiwa_joint_4", 0.0, "arm straight: joints 3 and 5 collinear"},
    {"iiwa14", kWrist, "iiwa_joint_6", 0.0, "joints 5 and 7 collinear"},
};

struct Flags {
  std::string out;
  int samples = 10000;          // per arm, motiond
  int kdl_samples = 2000;       // per arm, each KDL solver (first ones of the same set)
  int singular_samples = 1000;  // near-straight targets per arm
  int sigma_pool = 100000;      // uniform samples ranked by sigma_min
  double sigma_fraction = 0.01;
  double straight_window = 0.05;  // rad
  double timeout_ms = 5.0;
  bool kdl = true;
  bool singular = true;
  std::vector<std::string> robots;  // empty: all
};

void Usage() {
  std::fprintf(stderr,
               "usage: ik_bench [--out=FILE] [--samples=10000] [--kdl_samples=2000]\n"
               "                [--singular_samples=1000] [--sigma_pool=100000]\n"
               "                [--sigma_fraction=0.01] [--straight_window=0.05]\n"
               "                [--timeout_ms=5] [--robots=ur5,panda,...] [--no_kdl]\n"
               "                [--no_singular]\n");
}

bool ParseFlags(int argc, char** argv, Flags& f) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto eq = arg.find('=');
    const std::string name = arg.substr(0, eq);
    const std::string value = eq == std::string::npos ? "" : arg.substr(eq + 1);
    char* end = nullptr;
    auto as_int = [&](int& out) {
      out = static_cast<int>(std::strtol(value.c_str(), &end, 10));
      return !value.empty() && *end == '\0' && out >= 0;
    };
    auto as_double = [&](double& out) {
      out = std::strtod(value.c_str(), &end);
      return !value.empty() && *end == '\0' && out > 0;
    };
    bool ok = true;
    if (name == "--out") {
      f.out = value;
    } else if (name == "--samples") {
      ok = as_int(f.samples);
    } else if (name == "--kdl_samples") {
      ok = as_int(f.kdl_samples);
    } else if (name == "--singular_samples") {
      ok = as_int(f.singular_samples);
    } else if (name == "--sigma_pool") {
      ok = as_int(f.sigma_pool);
    } else if (name == "--sigma_fraction") {
      ok = as_double(f.sigma_fraction) && f.sigma_fraction <= 1.0;
    } else if (name == "--straight_window") {
      ok = as_double(f.straight_window);
    } else if (name == "--timeout_ms") {
      ok = as_double(f.timeout_ms);
    } else if (name == "--no_kdl") {
      f.kdl = false;
    } else if (name == "--no_singular") {
      f.singular = false;
    } else if (name == "--robots") {
      std::stringstream list(value);
      for (std::string robot; std::getline(list, robot, ',');) {
        if (!robot.empty()) f.robots.push_back(robot);
      }
    } else if (name == "--help" || name == "-h") {
      Usage();
      std::exit(0);
    } else {
      ok = false;
    }
    if (!ok) {
      std::fprintf(stderr, "ik_bench: bad argument '%s'\n", arg.c_str());
      Usage();
      return false;
    }
  }
  return true;
}

[[noreturn]] void Die(const std::string& message) {
  std::fprintf(stderr, "ik_bench: %s\n", message.c_str());
  std::exit(1);
}

std::string FormatQ(const Eigen::VectorXd& q) {
  std::ostringstream out;
  out.precision(17);
  out << "(";
  for (Eigen::Index i = 0; i < q.size(); ++i) out << (i ? ", " : "") << q[i];
  out << ")";
  return out.str();
}

std::string Printf(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

// FNV-1a: a stable hash of the robot name (std::hash is not), so adding a
// robot does not change another robot's samples.
std::uint64_t NameHash(const std::string& name) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (const unsigned char c : name) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

std::uint64_t StreamSeed(const std::string& robot, std::uint64_t stream) {
  return kSampleSeed ^ NameHash(robot) ^ (stream * 0x9e3779b97f4a7c15ull);
}

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

constexpr double kPreemptedMicroseconds = 100.0;  // wall - CPU above this: preempted

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
// KDL LMA's default weight on rotation errors (position 1, rotation 0.01).
constexpr double kLmaRotationWeight = 0.01;

struct Arm {
  std::string name;  ///< file name without ".urdf"
  bool synthetic = false;
  std::shared_ptr<const motion::RobotModel> robot;
  std::shared_ptr<const motion::ChainModel> chain;
  bool kdl_ok = false;  ///< KDL can express the chain (no mimic joints)
};

/// One IK problem: the joints the target came from, the target, the seed.
struct Problem {
  Eigen::VectorXd q;
  motion::Pose target;
  Eigen::Isometry3d target_isometry;  ///< target.ToIsometry(): what the solver is given
  std::vector<double> seed;           ///< empty: the solver's mid-range seed
  Category category = kUniform;
  double sigma_min = 0.0;  ///< of the Jacobian at q (near-singular protocol only)
};

Problem MakeProblem(const motion::ChainModel& chain, motion::ChainData& data,
                    const Eigen::VectorXd& q, Category category) {
  Problem p;
  p.q = q;
  p.target = motion::Pose::FromIsometry(motion::ForwardKinematics(chain, data, q));
  p.target_isometry = p.target.ToIsometry();
  p.category = category;
  return p;
}

/// A failed or disputed solve, kept for the report.
struct Case {
  std::size_t index = 0;
  const Problem* problem = nullptr;
  Eigen::VectorXd joints;
  std::string outcome;
  bool solver_ok = false;
  StrictVerdict verdict;
  double time_us = 0.0;
  double cpu_us = 0.0;
  int attempts = 0;
  int iterations = 0;
};

struct SolverRun {
  std::string key;    ///< "lm", "kdl_nr_jl", "kdl_nr_jl_loop", "kdl_lma", "kdl_lma_unit_weights"
  std::string label;  ///< for the tables
  std::size_t samples = 0;
  std::size_t strict = 0;           ///< solver ok and the check agrees
  std::size_t pose_only = 0;        ///< the check's pose test passes, limits ignored
  std::size_t solver_ok_count = 0;  ///< the solver's own verdict (result.ok, KDL rc >= 0)
  /// The solver knows no limits (bench-built LMA): its verdict is compared
  /// with the check's pose test only.
  bool verdict_ignores_limits = false;
  std::size_t ok_but_check_failed = 0;
  std::size_t failed_but_check_ok = 0;
  /// KDL LMA only: KDL's own convergence test, reconstructed from the
  /// check's errors: |L (dp, dtheta)| < eps with its default weights L.
  std::size_t lma_own_test = 0;
  bool has_lma_own_test = false;
  /// NR_JL loop only: calls whose return code disagreed with the check.
  std::size_t kdl_rc_disagreements = 0;
  std::size_t preempted = 0;  ///< solves with wall - CPU > kPreemptedMicroseconds
  std::size_t preempted_failures = 0;
  std::vector<double> times_us;
  std::vector<double> cpu_times_us;
  std::vector<double> success_times_us;
  std::map<std::string, std::size_t> failure_outcomes;
  std::size_t category_samples[kCategoryCount] = {};
  std::size_t category_strict[kCategoryCount] = {};
  long long attempts = 0;      ///< LM descents / KDL calls, summed
  std::vector<Case> failures;  ///< not preempted
  std::vector<Case> preempted_failure_cases;
  std::vector<Case> disagreements;

  void Record(std::size_t index, const Problem& p, const Eigen::VectorXd& joints, bool solver_ok,
              const std::string& outcome, const StrictVerdict& v, double time_us, double cpu_us,
              int attempts_used, int iterations) {
    ++samples;
    ++category_samples[p.category];
    times_us.push_back(time_us);
    cpu_times_us.push_back(cpu_us);
    if (time_us - cpu_us > kPreemptedMicroseconds) ++preempted;
    attempts += attempts_used;
    if (solver_ok) ++solver_ok_count;
    if (v.pose_ok) ++pose_only;
    if (has_lma_own_test) {
      const double weighted = std::hypot(v.position_error, kLmaRotationWeight * v.rotation_error);
      if (weighted < motion::KdlIkSolvers::kLmaEpsilon) ++lma_own_test;
    }
    const bool success = solver_ok && v.strict();
    if (success) {
      ++strict;
      ++category_strict[p.category];
      success_times_us.push_back(time_us);
    }
    Case c{index, &p, joints, outcome, solver_ok, v, time_us, cpu_us, attempts_used, iterations};
    if (solver_ok != (verdict_ignores_limits ? v.pose_ok : v.strict())) {
      ++(solver_ok ? ok_but_check_failed : failed_but_check_ok);
      if (disagreements.size() < kKeptCases) disagreements.push_back(c);
    }
    if (!success) {
      ++failure_outcomes[outcome];
      // Kept apart: a preempted failure says more about the machine than the solver.
      const bool preempted_solve = time_us - cpu_us > kPreemptedMicroseconds;
      std::vector<Case>& kept = preempted_solve ? preempted_failure_cases : failures;
      if (preempted_solve) ++preempted_failures;
      if (kept.size() < kKeptCases) kept.push_back(std::move(c));
    }
  }
};

/// motiond's SolveIk with the given solver (default LM, or a KDL baseline as
/// one call), on the first `count` problems.
SolverRun RunSolveIk(const Arm& arm, motion::ChainWorkspace& ws, StrictIkCheck& check,
                     const std::vector<Problem>& problems, std::size_t count,
                     motion::IkSolverKind solver, const std::string& key, const std::string& label,
                     double timeout_ms) {
  motion::IkOptions options;
  options.solver = solver;
  options.timeout = timeout_ms * 1e-3;
  const motion::Pose tool = motion::Pose::Identity();
  count = std::min(count, problems.size());
  for (std::size_t i = 0; i < std::min<std::size_t>(kWarmupSolves, count); ++i) {
    (void)motion::SolveIk(ws, problems[i].target, tool, problems[i].seed, options);
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
    absl::StatusOr<motion::IkResult> result = motion::SolveIk(ws, p.target, tool, p.seed, options);
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
SolverRun RunKdlLoop(const Arm& arm, motion::ChainWorkspace& ws, StrictIkCheck& check,
                     const std::vector<Problem>& problems, std::size_t count, double timeout_ms) {
  const motion::ChainModel& chain = *arm.chain;
  motion::KdlIkSolvers& kdl = ws.Kdl();
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

/// Problem sets and results of one arm.
struct ArmReport {
  const Arm* arm = nullptr;
  std::string judge_fk;
  std::vector<Problem> uniform;
  std::vector<SolverRun> uniform_runs;
  // Near-singular protocol (empty when the arm is not part of it).
  std::vector<Problem> singular;
  std::vector<SolverRun> singular_runs;
  struct Window {
    const StraightJoint* spec;
    int dof;
    double lower, upper;
  };
  std::vector<Window> windows;
  double uniform_sigma_median = 0.0;
  double low_sigma_threshold = 0.0;  ///< largest sigma_min in the low-sigma set
  double category_sigma_median[kCategoryCount] = {};
  double seconds = 0.0;
};

double Median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double SigmaMin(const motion::ChainModel& chain, motion::ChainData& data, const Eigen::VectorXd& q,
                motion::Jacobian& jacobian) {
  motion::ComputeJacobian(chain, data, q, Eigen::Isometry3d::Identity(), jacobian);
  const motion::JacobianMeasures measures = motion::MeasureJacobian(jacobian);
  return measures.singular_values[measures.singular_values.size() - 1];
}

std::vector<Problem> UniformProblems(const Arm& arm, int count) {
  const motion::ChainModel& chain = *arm.chain;
  motion::ChainData data(chain);
  motion::SplitMix64 rng(StreamSeed(arm.name, 1));
  const Eigen::VectorXd mid = motion::MidRangeConfiguration(chain);
  Eigen::VectorXd q(chain.dof());
  std::vector<Problem> problems;
  problems.reserve(count);
  for (int i = 0; i < count; ++i) {
    motion::RandomConfiguration(chain, mid, rng, q);
    problems.push_back(MakeProblem(chain, data, q, kUniform));
  }
  return problems;
}

/// The near-singular set: `flags.singular_samples` targets alternating
/// elbow / wrist near straight, then the `sigma_fraction` of `sigma_pool`
/// uniform samples with the smallest sigma_min. Seeds random within limits.
void SingularProblems(const Arm& arm, const Flags& flags, ArmReport& report) {
  const motion::ChainModel& chain = *arm.chain;
  motion::ChainData data(chain);
  motion::Jacobian jacobian(6, chain.dof());
  const Eigen::VectorXd mid = motion::MidRangeConfiguration(chain);
  Eigen::VectorXd q(chain.dof());

  for (const StraightJoint& s : kStraightJoints) {
    if (arm.name != s.robot) continue;
    const auto it = std::find(chain.dof_names.begin(), chain.dof_names.end(), s.joint);
    if (it == chain.dof_names.end()) Die(arm.name + ": no joint " + s.joint + " in default chain");
    const int dof = static_cast<int>(it - chain.dof_names.begin());
    const motion::JointLimits& l = chain.dof_limits[dof];
    const double lower = l.bounded ? std::max(l.lower, s.straight - flags.straight_window)
                                   : s.straight - flags.straight_window;
    const double upper = l.bounded ? std::min(l.upper, s.straight + flags.straight_window)
                                   : s.straight + flags.straight_window;
    if (!(lower < upper)) Die(arm.name + ": straight window of " + s.joint + " outside limits");
    report.windows.push_back({&s, dof, lower, upper});
  }
  if (report.windows.size() != 2) Die(arm.name + ": needs one elbow and one wrist joint");

  motion::SplitMix64 rng(StreamSeed(arm.name, 2));
  for (int i = 0; i < flags.singular_samples; ++i) {
    const ArmReport::Window& w = report.windows[i % 2];
    motion::RandomConfiguration(chain, mid, rng, q);
    q[w.dof] = rng.Uniform(w.lower, w.upper);
    report.singular.push_back(MakeProblem(chain, data, q, w.spec->category));
  }

  // Rank a uniform pool by sigma_min; keep the smallest fraction.
  motion::SplitMix64 pool_rng(StreamSeed(arm.name, 3));
  std::vector<Eigen::VectorXd> pool(flags.sigma_pool, Eigen::VectorXd(chain.dof()));
  std::vector<std::pair<double, std::size_t>> ranked(pool.size());
  for (std::size_t i = 0; i < pool.size(); ++i) {
    Breathe();
    motion::RandomConfiguration(chain, mid, pool_rng, pool[i]);
    ranked[i] = {SigmaMin(chain, data, pool[i], jacobian), i};
  }
  std::vector<double> all_sigma(ranked.size());
  for (std::size_t i = 0; i < ranked.size(); ++i) all_sigma[i] = ranked[i].first;
  report.uniform_sigma_median = Median(all_sigma);
  const auto keep = std::min<std::size_t>(
      ranked.size(), static_cast<std::size_t>(std::llround(flags.sigma_fraction * pool.size())));
  std::nth_element(ranked.begin(), ranked.begin() + keep, ranked.end());
  ranked.resize(keep);
  std::sort(ranked.begin(), ranked.end(),
            [](const auto& a, const auto& b) { return a.second < b.second; });
  for (const auto& [sigma, index] : ranked) {
    report.singular.push_back(MakeProblem(chain, data, pool[index], kLowSigma));
    report.low_sigma_threshold = std::max(report.low_sigma_threshold, sigma);
  }

  // Seeds random within limits; sigma_min of every target for the report.
  motion::SplitMix64 seed_rng(StreamSeed(arm.name, 4));
  std::vector<double> sigmas[kCategoryCount];
  for (Problem& p : report.singular) {
    motion::RandomConfiguration(chain, mid, seed_rng, q);
    p.seed.assign(q.data(), q.data() + q.size());
    p.sigma_min = SigmaMin(chain, data, p.q, jacobian);
    sigmas[p.category].push_back(p.sigma_min);
  }
  for (int c = 0; c < kCategoryCount; ++c) report.category_sigma_median[c] = Median(sigmas[c]);
}

std::vector<SolverRun> RunSolvers(const Arm& arm, motion::ChainWorkspace& ws, StrictIkCheck& check,
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

// ---- report ----

std::string Percent(std::size_t part, std::size_t whole) {
  return whole ? Printf("%.2f %%", 100.0 * part / whole) : "–";
}

std::string Micro(double us) {
  return us >= 100 ? Printf("%.0f", us) : us >= 10 ? Printf("%.1f", us) : Printf("%.2f", us);
}

std::string Outcomes(const SolverRun& r) {
  std::string text;
  for (const auto& [outcome, n] : r.failure_outcomes) {
    text += (text.empty() ? "" : ", ") + outcome + " " + std::to_string(n);
  }
  if (r.preempted_failures > 0) {
    text += " (" + std::to_string(r.preempted_failures) + " of them preempted)";
  }
  return text.empty() ? "–" : text;
}

std::string Disagreements(const SolverRun& r) {
  if (r.ok_but_check_failed + r.failed_but_check_ok == 0) return "0";
  return std::to_string(r.ok_but_check_failed) + " ok/check failed, " +
         std::to_string(r.failed_but_check_ok) + " failed/check ok";
}

std::string Row(const SolverRun& r) {
  const LatencySummary s = motion_bench::Summarize(r.times_us);
  const LatencySummary cpu = motion_bench::Summarize(r.cpu_times_us);
  return std::to_string(r.samples) + " | " + Percent(r.strict, r.samples) + " | " +
         Percent(r.pose_only, r.samples) + " | " + Micro(s.mean) + " | " + Micro(s.median) + " | " +
         Micro(s.p99) + " | " + Micro(s.max) + " | " + Micro(cpu.mean) + " | " +
         std::to_string(r.preempted) + " | " + Outcomes(r) + " | " + Disagreements(r) + " |";
}

const char* const kRowHeader =
    "samples | strict success | success ignoring limits | mean µs | median µs | p99 µs | max µs | "
    "mean CPU µs | preempted | failures | solver/check disagreements |";
const char* const kRowRule = "---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|";

void PrintUniformTable(const std::vector<ArmReport>& reports, bool synthetic) {
  std::printf("| robot | DOF | solver | %s\n|---|---:|---|%s\n", kRowHeader, kRowRule);
  for (const ArmReport& a : reports) {
    if (a.arm->synthetic != synthetic) continue;
    for (const SolverRun& r : a.uniform_runs) {
      std::printf("| %s | %d | %s | %s\n", a.arm->name.c_str(), a.arm->chain->dof(),
                  r.label.c_str(), Row(r).c_str());
    }
  }
}

void PrintTargets(const std::vector<ArmReport>& reports) {
  std::printf(
      "| robot | DOF | motiond strict success | ≥ 99.9 %% | mean µs | ≤ 100 µs | p99 µs | ≤ 1 ms "
      "| preempted |\n");
  std::printf("|---|---:|---:|:---:|---:|:---:|---:|:---:|---:|\n");
  for (const ArmReport& a : reports) {
    if (a.arm->synthetic || a.uniform_runs.empty()) continue;
    const SolverRun& r = a.uniform_runs.front();
    const LatencySummary s = motion_bench::Summarize(r.times_us);
    const bool rate = r.strict >= 0.999 * r.samples;
    std::printf("| %s | %d | %s | %s | %s | %s | %s | %s | %zu |\n", a.arm->name.c_str(),
                a.arm->chain->dof(), Percent(r.strict, r.samples).c_str(), rate ? "yes" : "**no**",
                Micro(s.mean).c_str(), s.mean <= 100.0 ? "yes" : "**no**", Micro(s.p99).c_str(),
                s.p99 <= 1000.0 ? "yes" : "**no**", r.preempted);
  }
}

const SolverRun* FindRun(const std::vector<SolverRun>& runs, const std::string& key) {
  for (const SolverRun& r : runs) {
    if (r.key == key) return &r;
  }
  return nullptr;
}

void PrintLmaTable(const std::vector<ArmReport>& reports) {
  std::printf(
      "| robot | LMA (motiond baseline, default weights): strict | ignoring limits | KDL's own "
      "test, limits ignored | LMA unit weights: strict | ignoring limits | KDL's own test |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---:|\n");
  for (const ArmReport& a : reports) {
    const SolverRun* lma = FindRun(a.uniform_runs, "kdl_lma");
    const SolverRun* unit = FindRun(a.uniform_runs, "kdl_lma_unit_weights");
    if (lma == nullptr || unit == nullptr) continue;
    std::printf("| %s | %s | %s | %s | %s | %s | %s |\n", a.arm->name.c_str(),
                Percent(lma->strict, lma->samples).c_str(),
                Percent(lma->pose_only, lma->samples).c_str(),
                Percent(lma->lma_own_test, lma->samples).c_str(),
                Percent(unit->strict, unit->samples).c_str(),
                Percent(unit->pose_only, unit->samples).c_str(),
                Percent(unit->solver_ok_count, unit->samples).c_str());
  }
}

void PrintSingularTables(const std::vector<ArmReport>& reports) {
  std::printf("| robot | solver | elbow | wrist | low σ_min | %s\n|---|---|---:|---:|---:|%s\n",
              kRowHeader, kRowRule);
  for (const ArmReport& a : reports) {
    for (const SolverRun& r : a.singular_runs) {
      std::printf("| %s | %s | %s | %s | %s | %s\n", a.arm->name.c_str(), r.label.c_str(),
                  Percent(r.category_strict[kElbow], r.category_samples[kElbow]).c_str(),
                  Percent(r.category_strict[kWrist], r.category_samples[kWrist]).c_str(),
                  Percent(r.category_strict[kLowSigma], r.category_samples[kLowSigma]).c_str(),
                  Row(r).c_str());
    }
  }
  std::printf(
      "\n| robot | elbow joint: window (rad) | wrist joint: window (rad) | median σ_min: uniform "
      "| elbow set | wrist set | low-σ set (threshold) |\n");
  std::printf("|---|---|---|---:|---:|---:|---:|\n");
  for (const ArmReport& a : reports) {
    if (a.windows.size() != 2) continue;
    auto window = [](const ArmReport::Window& w) {
      return std::string(w.spec->joint) + " [" + Printf("%.4f", w.lower) + ", " +
             Printf("%.4f", w.upper) + "]";
    };
    std::printf("| %s | %s | %s | %s | %s | %s | %s (< %s) |\n", a.arm->name.c_str(),
                window(a.windows[0]).c_str(), window(a.windows[1]).c_str(),
                Printf("%.3g", a.uniform_sigma_median).c_str(),
                Printf("%.3g", a.category_sigma_median[kElbow]).c_str(),
                Printf("%.3g", a.category_sigma_median[kWrist]).c_str(),
                Printf("%.3g", a.category_sigma_median[kLowSigma]).c_str(),
                Printf("%.3g", a.low_sigma_threshold).c_str());
  }
}

void PrintCases(const ArmReport& a, const std::vector<SolverRun>& runs, const char* protocol) {
  for (const SolverRun& r : runs) {
    const bool motiond = r.key == "lm";
    if (!(motiond && r.strict < r.samples) && r.disagreements.empty()) continue;
    auto print = [&](const Case& c, const char* what) {
      std::fprintf(stderr,
                   "  %s %s %s #%zu [%s]: outcome %s, solver ok %d, within limits %d, |dp| %.3e m, "
                   "angle %.3e rad, %.0f µs (CPU %.0f µs), %d attempts\n    q    = %s\n",
                   a.arm->name.c_str(), protocol, r.key.c_str(), c.index, what, c.outcome.c_str(),
                   c.solver_ok, c.verdict.within_limits, c.verdict.position_error,
                   c.verdict.rotation_error, c.time_us, c.cpu_us, c.attempts,
                   FormatQ(c.problem->q).c_str());
      if (!c.problem->seed.empty()) {
        std::fprintf(stderr, "    seed = %s\n",
                     FormatQ(Eigen::Map<const Eigen::VectorXd>(c.problem->seed.data(),
                                                               c.problem->seed.size()))
                         .c_str());
      }
    };
    if (motiond) {
      for (std::size_t i = 0; i < std::min(kPrintedCases, r.failures.size()); ++i) {
        print(r.failures[i], "failure");
      }
      for (std::size_t i = 0; i < std::min(kPrintedCases, r.preempted_failure_cases.size()); ++i) {
        print(r.preempted_failure_cases[i], "failure, preempted");
      }
    }
    for (std::size_t i = 0; i < std::min(kPrintedCases, r.disagreements.size()); ++i) {
      print(r.disagreements[i], "DISAGREEMENT");
    }
  }
}

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

bool LoadArm(const std::filesystem::path& file, Arm& arm) {
  arm.name = file.stem().string();
  arm.synthetic = std::find(std::begin(kSyntheticRobots), std::end(kSyntheticRobots), arm.name) !=
                  std::end(kSyntheticRobots);
  std::ifstream in(file, std::ios::binary);
  if (!in) Die("cannot open " + file.string());
  std::stringstream text;
  text << in.rdbuf();
  auto robot = motion::RobotModel::FromUrdf(text.str());
  if (!robot.ok()) Die(arm.name + ": " + std::string(robot.status().message()));
  arm.robot = *robot;
  auto chain = arm.robot->Chain();
  if (!chain.ok()) Die(arm.name + ": " + std::string(chain.status().message()));
  arm.chain = *chain;
  arm.kdl_ok = arm.chain->mimics.empty();
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  Flags flags;
  if (!ParseFlags(argc, argv, flags)) return 2;
  const Clock::time_point run_start = Clock::now();
  const std::time_t now = std::time(nullptr);
  char started[32];
  std::strftime(started, sizeof started, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  std::string load_average;
  std::getline(std::ifstream("/proc/loadavg"), load_average);

  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(MOTIOND_ROBOTS_DIR)) {
    if (entry.path().extension() != ".urdf") continue;
    const std::string name = entry.path().stem().string();
    if (flags.robots.empty() ||
        std::find(flags.robots.begin(), flags.robots.end(), name) != flags.robots.end()) {
      files.push_back(entry.path());
    }
  }
  for (const std::string& robot : flags.robots) {
    if (std::none_of(files.begin(), files.end(),
                     [&](const auto& file) { return file.stem().string() == robot; })) {
      Die("--robots: no " + robot + ".urdf in " + MOTIOND_ROBOTS_DIR);
    }
  }
  // Real arms first, then the synthetic ones; by name within each group.
  std::vector<Arm> arms(files.size());
  for (std::size_t i = 0; i < files.size(); ++i) LoadArm(files[i], arms[i]);
  std::sort(arms.begin(), arms.end(), [](const Arm& a, const Arm& b) {
    return std::make_pair(a.synthetic, a.name) < std::make_pair(b.synthetic, b.name);
  });
  if (arms.empty()) Die(std::string("no matching *.urdf in ") + MOTIOND_ROBOTS_DIR);

  std::fprintf(stderr, "ik_bench: %zu robots, %d samples (KDL %d), timeout %.1f ms, 1 thread\n",
               arms.size(), flags.samples, flags.kdl_samples, flags.timeout_ms);
  std::vector<ArmReport> reports(arms.size());
  motion::KinematicsWorkspace workspace;
  for (std::size_t i = 0; i < arms.size(); ++i) {
    const Arm& arm = arms[i];
    ArmReport& report = reports[i];
    report.arm = &arm;
    const Clock::time_point arm_start = Clock::now();
    motion::ChainWorkspace& ws = workspace.For(arm.chain);
    if (arm.kdl_ok) ws.Kdl();  // built here, not inside the first timed solve
    StrictIkCheck check(*arm.chain, kPositionTolerance, kRotationTolerance);
    report.judge_fk = check.fk_name();

    report.uniform = UniformProblems(arm, std::max(flags.samples, flags.kdl_samples));
    report.uniform_runs = RunSolvers(arm, ws, check, report.uniform, flags.samples,
                                     flags.kdl_samples, flags, "uniform");
    PrintCases(report, report.uniform_runs, "uniform");

    const bool singular =
        flags.singular && std::any_of(std::begin(kStraightJoints), std::end(kStraightJoints),
                                      [&](const StraightJoint& s) { return arm.name == s.robot; });
    if (singular) {
      SingularProblems(arm, flags, report);
      report.singular_runs = RunSolvers(arm, ws, check, report.singular, report.singular.size(),
                                        report.singular.size(), flags, "near-singular");
      PrintCases(report, report.singular_runs, "near-singular");
    }
    report.seconds = std::chrono::duration<double>(Clock::now() - arm_start).count();
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - run_start).count();

  if (!flags.out.empty()) {
    WriteJson(flags.out, flags, reports, started, load_average, seconds);
    std::fprintf(stderr, "ik_bench: wrote %s\n", flags.out.c_str());
  }

  std::printf("IK benchmark, %s, load average at start %s; %.0f s, 1 thread\n\n", started,
              load_average.c_str(), seconds);
  std::printf("IK targets (motiond default solver, uniform protocol, mid-range seed):\n\n");
  PrintTargets(reports);
  std::printf("\nUniform protocol, real arms (KDL on the first %d of the same targets):\n\n",
              flags.kdl_samples);
  PrintUniformTable(reports, false);
  if (flags.kdl) {
    std::printf("\nKDL LMA: what counts as success (uniform protocol):\n\n");
    PrintLmaTable(reports);
  }
  if (std::any_of(reports.begin(), reports.end(),
                  [](const ArmReport& a) { return a.arm->synthetic; })) {
    std::printf("\nUniform protocol, synthetic robots (informative only):\n\n");
    PrintUniformTable(reports, true);
  }
  if (std::any_of(reports.begin(), reports.end(),
                  [](const ArmReport& a) { return !a.singular_runs.empty(); })) {
    std::printf("\nNear-singular protocol (random seeds within limits):\n\n");
    PrintSingularTables(reports);
  }
  return 0;
}
