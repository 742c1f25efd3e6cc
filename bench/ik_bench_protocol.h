#pragma once

// The IK benchmark's protocol and results (see ik_bench.cc for what it
// measures), shared by its files: ik_bench_flags.cc (command line),
// ik_bench_problems.cc (robots and problem sets), ik_bench_solvers.cc (timed
// runs), ik_bench_report.cc (markdown), ik_bench_json.cc (JSON), ik_bench.cc
// (main).

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
#include "core/cache/chain_data_cache.h"
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

namespace ik_bench {

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

constexpr double kPreemptedMicroseconds = 100.0;  // wall - CPU above this: preempted

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

// ik_bench_flags.cc: command line.
void Usage();
bool ParseFlags(int argc, char** argv, Flags& f);

// ik_bench_problems.cc: robots and problem sets (uniform, near-singular), seeded per robot.
[[noreturn]] void Die(const std::string& message);
std::uint64_t NameHash(const std::string& name);
std::uint64_t StreamSeed(const std::string& robot, std::uint64_t stream);
Problem MakeProblem(const motion::ChainModel& chain, motion::ChainData& data,
                    const Eigen::VectorXd& q, Category category);
double Median(std::vector<double> v);
double SigmaMin(const motion::ChainModel& chain, motion::ChainData& data, const Eigen::VectorXd& q,
                motion::Jacobian& jacobian);
std::vector<Problem> UniformProblems(const Arm& arm, int count);
void SingularProblems(const Arm& arm, const Flags& flags, ArmReport& report);
bool LoadArm(const std::filesystem::path& file, Arm& arm);

// ik_bench_solvers.cc: the timed solver runs: motiond's SolveIk and KDL's baselines.
double MicrosecondsBetween(Clock::time_point a, Clock::time_point b);
double ThreadCpuMicroseconds();
void Breathe();
SolverRun RunSolveIk(const Arm& arm, motion::IkData& ws, StrictIkCheck& check,
                     const std::vector<Problem>& problems, std::size_t count,
                     motion::IkSolverKind solver, const std::string& key, const std::string& label,
                     double timeout_ms);
KDL::Frame ToKdlFrame(const Eigen::Isometry3d& pose);
void SetSeed(const Problem& p, const Eigen::VectorXd& mid, KDL::JntArray& q_init);
std::string KdlReturnName(int rc);
SolverRun RunKdlLoop(const Arm& arm, motion::IkData& ws, StrictIkCheck& check,
                     const std::vector<Problem>& problems, std::size_t count, double timeout_ms);
SolverRun RunKdlLmaUnitWeights(const Arm& arm, StrictIkCheck& check,
                               const std::vector<Problem>& problems, std::size_t count);
std::vector<SolverRun> RunSolvers(const Arm& arm, motion::IkData& ws, StrictIkCheck& check,
                                  const std::vector<Problem>& problems, std::size_t lm_count,
                                  std::size_t kdl_count, const Flags& flags, const char* protocol);

// ik_bench_report.cc: markdown tables and failure cases.
std::string FormatQ(const Eigen::VectorXd& q);
std::string Printf(const char* format, double value);
std::string Percent(std::size_t part, std::size_t whole);
std::string Micro(double us);
std::string Outcomes(const SolverRun& r);
std::string Disagreements(const SolverRun& r);
std::string Row(const SolverRun& r);
void PrintUniformTable(const std::vector<ArmReport>& reports, bool synthetic);
void PrintTargets(const std::vector<ArmReport>& reports);
const SolverRun* FindRun(const std::vector<SolverRun>& runs, const std::string& key);
void PrintLmaTable(const std::vector<ArmReport>& reports);
void PrintSingularTables(const std::vector<ArmReport>& reports);
void PrintCases(const ArmReport& a, const std::vector<SolverRun>& runs, const char* protocol);

// ik_bench_json.cc: the JSON results file.
void WriteCase(JsonWriter& j, const Case& c);
void WriteLatency(JsonWriter& j, const std::vector<double>& times);
void WriteRun(JsonWriter& j, const SolverRun& r);
std::string FirstLineWith(const char* path, const std::string& prefix);
void WriteJson(const std::string& path, const Flags& flags, const std::vector<ArmReport>& reports,
               const std::string& started, const std::string& load_average, double seconds);

}  // namespace ik_bench
