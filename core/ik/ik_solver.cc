#include "core/ik/ik_solver.h"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <optional>

#include <Eigen/Eigenvalues>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/ik/internal/closed_form_path.h"
#include "core/ik/internal/levenberg_marquardt_ik.h"
#include "core/ik/internal/reach_bound.h"
#include "core/ik/joint_space.h"
#include "core/ik/robot_configuration.h"
#include "core/kinematics/forward_kinematics.h"
#include "core/kinematics/joint_vector_check.h"

namespace motion {
namespace {

// The time budget counts the solving thread's CPU time, not wall time: on
// a loaded machine a preempted solve would otherwise fail for no reason of
// its own (TRAC-IK's wall-clock timeout collapses under load). A call's
// wall-clock bound is its gRPC deadline.
double ThreadCpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// A descent that has not converged in this many FK evaluations rarely
// will: a fresh start is cheaper (converging descents take 5-30).
constexpr int kIterationsPerAttempt = 60;
// Some targets need one long descent (under-actuated chains crawling along
// a limit): after the first few short starts, a start may run this long as
// long as it keeps halving its error (see stall_window).
constexpr int kShortAttempts = 4;
constexpr int kLongAttemptIterations = 1000;
// Residuals above these after the whole budget mean "not in the workspace".
constexpr double kUnreachablePosition = 1e-3;
constexpr double kUnreachableRotation = 1e-2;
// Restart seed of the deterministic generator.
constexpr std::uint64_t kRandomSeed = 0x6d6f74696f6e64ull;  // "motiond"

absl::Status ValidateOptions(const IkOptions& o) {
  if (!(o.position_tolerance > 0) || !std::isfinite(o.position_tolerance)) {
    return absl::InvalidArgumentError(
        absl::StrCat("options.position_tolerance: must be a positive number of metres, got ",
                     o.position_tolerance));
  }
  if (!(o.orientation_tolerance > 0) || !std::isfinite(o.orientation_tolerance)) {
    return absl::InvalidArgumentError(
        absl::StrCat("options.orientation_tolerance: must be a positive number of radians, got ",
                     o.orientation_tolerance));
  }
  if (o.max_iterations <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("options.max_iterations: must be positive, got ", o.max_iterations));
  }
  if (!(o.timeout > 0) || !std::isfinite(o.timeout)) {
    return absl::InvalidArgumentError(
        absl::StrCat("options.timeout: must be a positive number of seconds, got ", o.timeout));
  }
  if (o.max_solutions <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("options.max_solutions: must be positive, got ", o.max_solutions));
  }
  if (o.mode != IkMode::kFirst && o.mode != IkMode::kClosest && o.mode != IkMode::kAll) {
    return absl::InvalidArgumentError(
        absl::StrCat("options.mode: unknown mode ", static_cast<int>(o.mode)));
  }
  if (o.solver != IkSolverKind::kLevenbergMarquardt && o.solver != IkSolverKind::kKdlNrJl &&
      o.solver != IkSolverKind::kKdlLma) {
    return absl::InvalidArgumentError(
        absl::StrCat("options.solver: unknown solver kind ", static_cast<int>(o.solver)));
  }
  return absl::OkStatus();
}

double SeedDistance(const Eigen::VectorXd& q, const Eigen::VectorXd& seed) {
  return (q - seed).norm();
}

double MinSingularValue(const ChainModel& model, ChainData& data, const Eigen::VectorXd& q,
                        const Eigen::Isometry3d& tool) {
  Jacobian j;
  ComputeJacobian(model, data, q, tool, j);
  // The smallest eigenvalue of the smaller Gram matrix (J J^T for 6+ DOF):
  // several times cheaper than a JacobiSVD, and its error (~1e-8 at
  // sigma = 0) is far below any singularity threshold.
  double lambda = 0.0;
  if (j.cols() >= 6) {
    const Eigen::Matrix<double, 6, 6> gram = j * j.transpose();
    lambda =
        Eigen::SelfAdjointEigenSolver<Eigen::Matrix<double, 6, 6>>(gram, Eigen::EigenvaluesOnly)
            .eigenvalues()[0];
  } else {
    const Eigen::MatrixXd gram = j.transpose() * j;
    lambda = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(gram, Eigen::EigenvaluesOnly)
                 .eigenvalues()[0];
  }
  return std::sqrt(std::max(0.0, lambda));
}

void AddDiagnostic(IkResult& result, Severity severity, DiagnosticCode code, std::string message) {
  Diagnostic d;
  d.severity = severity;
  d.code = code;
  d.message = std::move(message);
  result.diagnostics.push_back(std::move(d));
}

// The KDL baselines: one call, as a KDL user would make it, judged by the
// same strict check as the default solver.
IkResult SolveWithKdl(const ChainModel& model, IkData& data, const Eigen::Isometry3d& target,
                      const Eigen::Isometry3d& tool, const Eigen::VectorXd& seed,
                      const IkOptions& options) {
  KdlIkSolvers& kdl = data.Kdl(model);
  // KDL solves for the flange: move the target back through the tool.
  const Eigen::Isometry3d flange = target * tool.inverse();
  KDL::Frame goal;
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) goal.M(r, c) = flange.linear()(r, c);
    goal.p(r) = flange.translation()(r);
  }
  KDL::JntArray q_init(model.dof()), q_out(model.dof());
  q_init.data = seed;
  if (options.solver == IkSolverKind::kKdlNrJl) {
    kdl.nr_jl.CartToJnt(q_init, goal, q_out);
  } else {
    kdl.lma.CartToJnt(q_init, goal, q_out);
  }
  IkResult result;
  result.joints = q_out.data;
  result.attempts = 1;
  result.iterations = options.solver == IkSolverKind::kKdlLma ? kdl.lma.lastNrOfIter
                                                              : KdlIkSolvers::kNrJlMaxIterations;
  const PoseError e =
      ComputePoseError(ForwardKinematics(model, data.kinematics, result.joints) * tool, target);
  result.position_error = e.position;
  result.orientation_error = e.rotation;
  const bool within = FirstJointOutsideLimits(model, result.joints) < 0;
  result.ok = within && e.position <= options.position_tolerance &&
              e.rotation <= options.orientation_tolerance;
  result.outcome =
      result.ok ? IkOutcome::kOk
      : (e.position <= options.position_tolerance && e.rotation <= options.orientation_tolerance)
          ? IkOutcome::kJointLimit
          : IkOutcome::kMaxIterations;
  return result;
}

// Phase 1: a target farther from the first joint than the arm reaches is
// refused before any iteration; nullopt when it may be reachable.
std::optional<IkResult> RefuseBeyondReach(const ChainModel& model, IkData& data,
                                          const Eigen::Isometry3d& target,
                                          const Eigen::Isometry3d& tool,
                                          const Eigen::VectorXd& seed, const IkOptions& options) {
  const ReachBound reach = ComputeReachBound(model, tool);
  const double distance = (target.translation() - reach.center).norm();
  if (distance <= reach.radius + options.position_tolerance) return std::nullopt;
  IkResult result;
  result.joints = seed;
  result.outcome = IkOutcome::kUnreachable;
  EnforceLimits(model, result.joints);  // seeds are not limit-checked; answers are
  const PoseError at_seed =
      ComputePoseError(ForwardKinematics(model, data.kinematics, result.joints) * tool, target);
  result.position_error = at_seed.position;
  result.orientation_error = at_seed.rotation;
  AddDiagnostic(
      result, Severity::kError, DiagnosticCode::kTargetUnreachable,
      absl::StrCat("target is ", distance, " m from the first joint; the arm reaches at most ",
                   reach.radius, " m"));
  return result;
}

// Phase 2: descents from the seed, then from deterministic random starts,
// until a strict solution (FIRST) or enough distinct ones, or the iteration
// or CPU-time budget is spent. Solutions go to result.solutions; otherwise
// result.joints and the residuals are the best descent's. Returns whether
// the time budget ran out.
// With options.configuration, a converged descent in another configuration
// (or whose requested turns fall outside the limits) is not a solution.
bool InWantedConfiguration(const ChainModel& model, const ArmGeometry& geometry,
                           const IkOptions& options, Eigen::VectorXd& q) {
  if (!options.configuration) return true;
  const RobotConfiguration& wanted = *options.configuration;
  if (!FlagsMatch(wanted, ComputeConfiguration(model, geometry, q))) return false;
  if (wanted.turns.empty()) return true;
  for (int i = 0; i < model.dof(); ++i) {
    if (model.dof_types[i] == JointType::kPrismatic) continue;
    q[i] += 2.0 * M_PI * (wanted.turns[i] - WholeTurns(q[i]));
  }
  return FirstJointOutsideLimits(model, q) < 0;
}

bool SearchWithRestarts(const ChainModel& model, IkData& data, const ArmGeometry& geometry,
                        const Eigen::Isometry3d& target, const Eigen::Isometry3d& tool,
                        const Eigen::VectorXd& seed, const IkOptions& options,
                        LevenbergMarquardtSettings& settings, SplitMix64& rng, IkResult& result) {
  const double deadline = ThreadCpuSeconds() + options.timeout;
  double best_cost = std::numeric_limits<double>::infinity();
  while (result.iterations < options.max_iterations) {
    if (result.attempts == 0) {
      data.q = seed;
    } else {
      if (ThreadCpuSeconds() > deadline || (options.stop && options.stop())) return true;
      RandomConfiguration(model, seed, rng, data.q);
    }
    ++result.attempts;
    settings.max_iterations =
        std::min(result.attempts <= kShortAttempts ? kIterationsPerAttempt : kLongAttemptIterations,
                 options.max_iterations - result.iterations);
    const LevenbergMarquardtAttempt attempt =
        RunLevenbergMarquardt(model, data, target, tool, settings);
    result.iterations += attempt.iterations;

    if (attempt.converged) {
      Eigen::VectorXd q = data.q;
      NearestEquivalent(model, seed, q);
      const PoseError e =
          ComputePoseError(ForwardKinematics(model, data.kinematics, q) * tool, target);
      // Whole turns change sin/cos in the last bits only; keep the wrapped
      // values if they still pass, else the ones that were checked.
      if (e.position > options.position_tolerance || e.rotation > options.orientation_tolerance) {
        q = data.q;
      }
      if (!InWantedConfiguration(model, geometry, options, q)) continue;
      if (options.configuration && !options.configuration->turns.empty()) {
        const PoseError turned =
            ComputePoseError(ForwardKinematics(model, data.kinematics, q) * tool, target);
        if (turned.position > options.position_tolerance ||
            turned.rotation > options.orientation_tolerance) {
          continue;
        }
      }
      const bool distinct = std::none_of(
          result.solutions.begin(), result.solutions.end(),
          [&](const Eigen::VectorXd& s) { return (s - q).cwiseAbs().maxCoeff() < 1e-3; });
      if (distinct) result.solutions.push_back(q);
      if (options.mode == IkMode::kFirst ||
          static_cast<int>(result.solutions.size()) >= options.max_solutions) {
        return false;
      }
      continue;
    }
    const double cost = attempt.error.position + attempt.error.rotation;
    if (cost < best_cost) {
      best_cost = cost;
      result.joints = data.q;
      result.position_error = attempt.error.position;
      result.orientation_error = attempt.error.rotation;
    }
  }
  return result.iterations < options.max_iterations && result.solutions.empty() &&
         ThreadCpuSeconds() > deadline;
}

// Phase 3 (success): the solution nearest the seed, its exact residuals,
// and a warning when it is near a singularity.
void FinishWithSolutions(const ChainModel& model, IkData& data, const ArmGeometry& geometry,
                         const Eigen::Isometry3d& target, const Eigen::Isometry3d& tool,
                         const Eigen::VectorXd& seed, const IkOptions& options, IkResult& result) {
  if (result.method == IkMethod::kNumeric) {  // the closed form orders its own answers
    std::sort(result.solutions.begin(), result.solutions.end(), [&](const auto& a, const auto& b) {
      return SeedDistance(a, seed) < SeedDistance(b, seed);
    });
    result.solution_configurations.clear();
    for (const Eigen::VectorXd& q : result.solutions) {
      result.solution_configurations.push_back(ComputeConfiguration(model, geometry, q));
    }
  }
  result.ok = true;
  result.outcome = IkOutcome::kOk;
  result.joints = result.solutions.front();
  const PoseError e =
      ComputePoseError(ForwardKinematics(model, data.kinematics, result.joints) * tool, target);
  result.position_error = e.position;
  result.orientation_error = e.rotation;
  result.configuration = result.solution_configurations.front();
  if (options.mode != IkMode::kAll) {
    result.solutions.clear();
    result.solution_configurations.clear();
  }
  result.min_singular_value = MinSingularValue(model, data.kinematics, result.joints, tool);
  if (result.min_singular_value < options.singularity_threshold) {
    AddDiagnostic(result, Severity::kWarning, DiagnosticCode::kSingularity,
                  absl::StrCat("solution is near a singularity: smallest singular value of the "
                               "Jacobian is ",
                               result.min_singular_value));
  }
}

// Phase 3 (failure): why. Is it the limits? Search without them from the
// seed and a few random starts (a small extra budget, paid only on
// failure). A solution outside the limits proves little when the
// constrained search came close (the budget ran out); it is the likely
// reason only when every constrained descent stayed far from the target.
void ExplainFailure(const ChainModel& model, IkData& data, const Eigen::Isometry3d& target,
                    const Eigen::Isometry3d& tool, const Eigen::VectorXd& seed,
                    const LevenbergMarquardtSettings& settings, SplitMix64& rng, bool timed_out,
                    IkResult& result) {
  const bool far = result.position_error > kUnreachablePosition ||
                   result.orientation_error > kUnreachableRotation;
  LevenbergMarquardtSettings relaxed = settings;
  relaxed.enforce_limits = false;
  relaxed.max_iterations = kIterationsPerAttempt;
  bool solvable_without_limits = false;
  for (int i = 0; i < 8 && !solvable_without_limits; ++i) {
    if (i == 0) {
      data.q = seed;
    } else {
      RandomConfiguration(model, seed, rng, data.q);
    }
    if (!RunLevenbergMarquardt(model, data, target, tool, relaxed).converged) continue;
    solvable_without_limits = true;
    Eigen::VectorXd q = data.q;
    NearestEquivalent(model, seed, q);
    const int joint = FirstJointOutsideLimits(model, q);
    if (joint < 0 || !far) break;  // the budget ran out, the limits are not why
    result.outcome = IkOutcome::kJointLimit;
    Diagnostic d;
    d.severity = Severity::kError;
    d.code = DiagnosticCode::kJointLimit;
    const JointLimits& l = model.dof_limits[joint];
    d.joint_name = model.dof_names[joint];
    d.value = q[joint];
    d.limit = q[joint] < l.lower ? l.lower : l.upper;
    d.message = absl::StrCat("target is reachable with ", d.joint_name, " at ", q[joint],
                             ", outside its limits [", l.lower, ", ", l.upper,
                             "]; no solution within the limits was found");
    result.diagnostics.push_back(std::move(d));
    return;
  }
  if (!solvable_without_limits && far) {
    result.outcome = IkOutcome::kUnreachable;
    AddDiagnostic(result, Severity::kError, DiagnosticCode::kTargetUnreachable,
                  absl::StrCat("no configuration reaches the target: best residual ",
                               result.position_error, " m, ", result.orientation_error, " rad"));
  } else {
    result.outcome = timed_out ? IkOutcome::kTimeout : IkOutcome::kMaxIterations;
    AddDiagnostic(
        result, Severity::kError, DiagnosticCode::kIkFailed,
        absl::StrCat("IK did not converge within the ",
                     timed_out ? "time budget" : "iteration budget", " (", result.iterations,
                     " iterations, ", result.attempts, " starts): best residual ",
                     result.position_error, " m, ", result.orientation_error, " rad"));
  }
}

}  // namespace

absl::StatusOr<IkResult> SolveIk(const ChainModel& model, IkData& data, const Pose& target_pose,
                                 const Pose& tool_pose, const std::vector<double>& seed_values,
                                 const IkOptions& options) {
  if (auto status = ValidateOptions(options); !status.ok()) return status;
  Eigen::VectorXd seed = MidRangeConfiguration(model);
  if (!seed_values.empty()) {
    if (auto status = CheckJointVector(model, seed_values, "seed"); !status.ok()) return status;
    seed = Eigen::Map<const Eigen::VectorXd>(seed_values.data(), seed_values.size());
  }
  const Eigen::Isometry3d target = target_pose.ToIsometry();
  const Eigen::Isometry3d tool = tool_pose.ToIsometry();

  const ArmGeometry& geometry = data.Geometry(model);
  if (options.configuration) {
    if (options.solver != IkSolverKind::kLevenbergMarquardt) {
      return absl::InvalidArgumentError(
          absl::StrCat("options.configuration: the ", IkSolverName(options.solver),
                       " baseline cannot be asked for a configuration; use the default solver"));
    }
    if (auto status =
            ValidateConfiguration(*options.configuration, model, geometry, "options.configuration");
        !status.ok()) {
      return status;
    }
  }

  if (options.solver != IkSolverKind::kLevenbergMarquardt) {
    if (!model.mimics.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("options.solver: ", IkSolverName(options.solver),
                       " cannot solve a chain with mimic joints; use the default solver"));
    }
    IkResult result = SolveWithKdl(model, data, target, tool, seed, options);
    result.method = IkMethod::kKdl;
    result.configuration = ComputeConfiguration(model, geometry, result.joints);
    return result;
  }
  if (std::optional<IkResult> refused =
          RefuseBeyondReach(model, data, target, tool, seed, options)) {
    refused->configuration = ComputeConfiguration(model, geometry, refused->joints);
    return *std::move(refused);
  }

  IkResult result;
  result.joints = seed;
  result.position_error = std::numeric_limits<double>::infinity();
  result.orientation_error = std::numeric_limits<double>::infinity();
  // Phase 2a: the closed form of the chain's family, when it has one and the
  // budget covers its FK checks.
  if (options.closed_form && geometry.has_closed_form() &&
      options.max_iterations >= kClosedFormMinIterations) {
    switch (SolveWithClosedForm(model, data, geometry, target, tool, seed, options, result)) {
      case ClosedFormVerdict::kSolved:
        FinishWithSolutions(model, data, geometry, target, tool, seed, options, result);
        return result;
      case ClosedFormVerdict::kFailed:
        result.configuration = ComputeConfiguration(model, geometry, result.joints);
        return result;
      case ClosedFormVerdict::kFallBack:
        result.method = IkMethod::kNumeric;
        break;
    }
  }
  LevenbergMarquardtSettings settings;
  settings.position_tolerance = options.position_tolerance;
  settings.orientation_tolerance = options.orientation_tolerance;
  SplitMix64 rng(kRandomSeed);
  const bool timed_out =
      SearchWithRestarts(model, data, geometry, target, tool, seed, options, settings, rng, result);
  if (!result.solutions.empty()) {
    FinishWithSolutions(model, data, geometry, target, tool, seed, options, result);
  } else {
    ExplainFailure(model, data, target, tool, seed, settings, rng, timed_out, result);
    if (options.configuration) {
      AddDiagnostic(result, Severity::kError, DiagnosticCode::kTargetUnreachable,
                    absl::StrCat("no solution in configuration ",
                                 FormatConfiguration(*options.configuration), " was found"));
    }
    result.configuration = ComputeConfiguration(model, geometry, result.joints);
  }
  return result;
}

}  // namespace motion
