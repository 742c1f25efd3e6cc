#include "core/ik/internal/closed_form_path.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/ik/internal/closed_form_ik.h"
#include "core/ik/internal/levenberg_marquardt_ik.h"
#include "core/ik/internal/pose_error.h"
#include "core/ik/internal/subproblems.h"
#include "core/ik/joint_space.h"
#include "core/kinematics/forward_kinematics.h"

namespace motion {
namespace {

constexpr double kTwoPi = 2.0 * M_PI;
// A branch this far off (m / rad) is not a solution (a clamped boundary
// branch of an unreachable target); closer ones are polished.
constexpr double kPolishStart = 1e-2;
constexpr int kPolishIterations = 8;
// Whole-turn variants enumerated per branch at most (UR: 2^5 = 32).
constexpr int kMaxVariantsPerBranch = 729;

struct Candidate {
  Eigen::VectorXd q;
  RobotConfiguration configuration;
  double distance = 0.0;
};

class FkChecker {
 public:
  FkChecker(const ChainModel& model, IkData& data, const Eigen::Isometry3d& target,
            const Eigen::Isometry3d& tool, const IkOptions& options)
      : model_(model), data_(data), target_(target), tool_(tool), options_(options) {}

  /// Leaves the frames of q in data.kinematics and the tip pose in tip().
  PoseError Error(const Eigen::VectorXd& q) {
    ++evaluations;
    tip_ = ForwardKinematics(model_, data_.kinematics, q);
    return ComputePoseError(tip_ * tool_, target_);
  }
  const Eigen::Isometry3d& tip() const { return tip_; }
  bool Strict(const PoseError& e) const {
    return e.position <= options_.position_tolerance &&
           e.rotation <= options_.orientation_tolerance;
  }
  bool Passes(const Eigen::VectorXd& q) { return Strict(Error(q)); }
  bool HasBudget() const { return evaluations < options_.max_iterations; }

  int evaluations = 0;

 private:
  const ChainModel& model_;
  IkData& data_;
  const Eigen::Isometry3d& target_;
  const Eigen::Isometry3d& tool_;
  const IkOptions& options_;
  Eigen::Isometry3d tip_ = Eigen::Isometry3d::Identity();
};

struct Branch {
  Eigen::VectorXd q;
  RobotConfiguration flags;  ///< and the turns of q
};

bool Rotary(const ChainModel& model, int i) { return model.dof_types[i] != JointType::kPrismatic; }

// The closed-form branches that pass the strict FK check (polished when
// close), joint angles in (-pi, pi], exact duplicates dropped, with their
// flags read off the frames of that check.
std::vector<Branch> VerifiedBranches(const ChainModel& model, IkData& data, const ArmGeometry& g,
                                     const Eigen::Isometry3d& target, const Eigen::Isometry3d& tool,
                                     const Eigen::VectorXd& seed, const IkOptions& options,
                                     FkChecker& fk, IkResult& result, bool* free_angle) {
  Vector6d raw[kMaxClosedFormBranches];
  const Eigen::Isometry3d tip = target * tool.inverse();
  const int n = g.family == ArmFamily::kSphericalWrist
                    ? SolveSphericalWrist(g, tip, seed, raw, free_angle)
                    : SolveUrFamily(g, tip, seed, raw, free_angle);
  LevenbergMarquardtSettings polish;
  polish.position_tolerance = options.position_tolerance;
  polish.orientation_tolerance = options.orientation_tolerance;
  polish.enforce_limits = false;  // limits are applied after the whole turns
  std::vector<Branch> branches;
  branches.reserve(n);
  for (int i = 0; i < n; ++i) {
    if (!raw[i].allFinite() || !fk.HasBudget()) continue;
    Eigen::VectorXd q = raw[i];
    const PoseError e = fk.Error(q);
    if (!fk.Strict(e)) {
      if (e.position > kPolishStart || e.rotation > kPolishStart || !fk.HasBudget()) continue;
      data.q = q;
      polish.max_iterations = std::min(kPolishIterations, options.max_iterations - fk.evaluations);
      const LevenbergMarquardtAttempt attempt =
          RunLevenbergMarquardt(model, data, target, tool, polish);
      fk.evaluations += attempt.iterations;
      ++result.attempts;
      if (!attempt.converged) continue;
      q = data.q;
      for (int j = 0; j < q.size(); ++j) q[j] = WrapAngle(q[j]);
      if (!fk.Strict(fk.Error(q))) continue;
    }
    const bool duplicate = std::any_of(branches.begin(), branches.end(), [&](const Branch& b) {
      for (int j = 0; j < q.size(); ++j) {
        if (std::abs(WrapAngle(b.q[j] - q[j])) > 1e-9) return false;
      }
      return true;
    });
    if (duplicate) continue;
    RobotConfiguration flags =
        ComputeConfigurationFromFrames(model, g, data.kinematics, fk.tip(), q);
    branches.push_back({std::move(q), std::move(flags)});
  }
  return branches;
}

// Within kLimitRescue of a limit, a branch is clamped onto it and polished
// with the limits enforced; true (q moved there) when that meets the
// tolerances.
constexpr double kLimitRescue = 1e-2;

bool AtTheLimit(const ChainModel& model, IkData& data, const Eigen::Isometry3d& target,
                const Eigen::Isometry3d& tool, const IkOptions& options, FkChecker& fk,
                IkResult& result, Eigen::VectorXd& q) {
  if (FirstJointOutsideLimits(model, q, kLimitRescue) >= 0 || !fk.HasBudget()) return false;
  LevenbergMarquardtSettings polish;
  polish.position_tolerance = options.position_tolerance;
  polish.orientation_tolerance = options.orientation_tolerance;
  polish.max_iterations = std::min(kPolishIterations, options.max_iterations - fk.evaluations);
  data.q = q;
  EnforceLimits(model, data.q);
  const LevenbergMarquardtAttempt attempt =
      RunLevenbergMarquardt(model, data, target, tool, polish);
  fk.evaluations += attempt.iterations;
  ++result.attempts;
  if (!attempt.converged || FirstJointOutsideLimits(model, data.q) >= 0) return false;
  q = data.q;
  return true;
}

// Every whole-turn variant of `q` within limits except q itself (bounded
// rotary joints; continuous joints keep their value).
std::vector<Eigen::VectorXd> TurnVariants(const ChainModel& model, const Eigen::VectorXd& q) {
  std::vector<std::vector<double>> values(model.dof());
  long total = 1;
  for (int i = 0; i < model.dof(); ++i) {
    const JointLimits& l = model.dof_limits[i];
    if (!Rotary(model, i) || !l.bounded) {
      values[i] = {q[i]};
      continue;
    }
    const double first = q[i] + kTwoPi * std::ceil((l.lower - q[i]) / kTwoPi);
    for (double v = first; v <= l.upper; v += kTwoPi) values[i].push_back(v);
    if (values[i].empty()) return {};
    total *= static_cast<long>(values[i].size());
  }
  std::vector<Eigen::VectorXd> out;
  if (total > kMaxVariantsPerBranch) return out;
  std::vector<std::size_t> index(model.dof(), 0);
  for (long k = 0; k < total; ++k) {
    Eigen::VectorXd v(model.dof());
    for (int i = 0; i < model.dof(); ++i) v[i] = values[i][index[i]];
    if ((v - q).cwiseAbs().maxCoeff() > 1e-9) out.push_back(std::move(v));
    for (int i = 0; i < model.dof(); ++i) {
      if (++index[i] < values[i].size()) break;
      index[i] = 0;
    }
  }
  return out;
}

void AddDiagnostic(IkResult& result, DiagnosticCode code, std::string message) {
  Diagnostic d;
  d.severity = Severity::kError;
  d.code = code;
  d.message = std::move(message);
  result.diagnostics.push_back(std::move(d));
}

// A definitive failure: the closest branch (moved inside the limits) is
// returned with its residuals and the reason.
void Fail(const ChainModel& model, const Eigen::VectorXd& best, FkChecker& fk, IkResult& result) {
  result.ok = false;
  result.joints = best;
  EnforceLimits(model, result.joints);
  const PoseError e = fk.Error(result.joints);
  result.position_error = e.position;
  result.orientation_error = e.rotation;
}

}  // namespace

ClosedFormVerdict SolveWithClosedForm(const ChainModel& model, IkData& data, const ArmGeometry& g,
                                      const Eigen::Isometry3d& target,
                                      const Eigen::Isometry3d& tool, const Eigen::VectorXd& seed,
                                      const IkOptions& options, IkResult& result) {
  result.method = IkMethod::kClosedForm;
  FkChecker fk(model, data, target, tool, options);
  bool free_angle = false;
  const std::vector<Branch> branches =
      VerifiedBranches(model, data, g, target, tool, seed, options, fk, result, &free_angle);
  result.iterations = fk.evaluations;
  if (branches.empty()) return ClosedFormVerdict::kFallBack;

  const RobotConfiguration* wanted = options.configuration ? &*options.configuration : nullptr;
  const bool turns_given = wanted != nullptr && !wanted->turns.empty();
  std::vector<Candidate> primaries;
  const Eigen::VectorXd* nearest_branch = nullptr;
  Eigen::VectorXd outside;  // the matching branch nearest the seed, outside the limits
  double outside_distance = std::numeric_limits<double>::infinity();
  double nearest_distance = std::numeric_limits<double>::infinity();
  for (const Branch& branch : branches) {
    const Eigen::VectorXd& q = branch.q;
    const RobotConfiguration& flags = branch.flags;
    Eigen::VectorXd mapped = q;
    NearestEquivalent(model, seed, mapped);
    const double d = (mapped - seed).norm();
    if (d < nearest_distance) nearest_distance = d, nearest_branch = &q;
    if (wanted != nullptr && !FlagsMatch(*wanted, flags)) continue;
    if (turns_given) {
      for (int i = 0; i < model.dof(); ++i) {
        if (Rotary(model, i)) mapped[i] = q[i] + kTwoPi * wanted->turns[i];
      }
    }
    double distance = (mapped - seed).norm();
    bool rescued = false;
    if (FirstJointOutsideLimits(model, mapped) >= 0) {
      // Just past a limit, the pose tolerance may still allow a solution on
      // the limit: a few limited descent steps from the clamped branch.
      if (!AtTheLimit(model, data, target, tool, options, fk, result, mapped)) {
        if (distance < outside_distance) outside_distance = distance, outside = mapped;
        continue;
      }
      distance = (mapped - seed).norm();
      rescued = true;
    }
    // Whole turns change sin / cos in the last bits: check what is returned.
    if (!rescued && (mapped - q).cwiseAbs().maxCoeff() > 0.0 && fk.HasBudget() &&
        !fk.Passes(mapped)) {
      continue;
    }
    RobotConfiguration configuration = flags;
    if (rescued) {  // moved onto a limit: its flags anew
      const RobotConfiguration moved = ComputeConfiguration(model, g, mapped);
      configuration.shoulder = moved.shoulder;
      configuration.elbow = moved.elbow;
      configuration.wrist = moved.wrist;
      if (wanted != nullptr && !FlagsMatch(*wanted, configuration)) continue;
    }
    for (int i = 0; i < model.dof(); ++i) {
      configuration.turns[i] = Rotary(model, i) ? WholeTurns(mapped[i]) : 0;
    }
    primaries.push_back({mapped, std::move(configuration), distance});
  }

  if (primaries.empty()) {
    // At a singular pose a free angle came from the seed: another choice
    // may be within limits, which the numeric search can find.
    // Without a configuration asked, no candidate means a failed re-check:
    // let the numeric search decide too.
    if (free_angle || (wanted == nullptr && outside.size() == 0)) {
      result.iterations = fk.evaluations;
      return ClosedFormVerdict::kFallBack;
    }
    if (outside.size() == 0) {
      Fail(model, *nearest_branch, fk, result);
      result.outcome = IkOutcome::kUnreachable;
      std::vector<std::string> reachable;  // the flag sets that do reach the target
      for (const Branch& b : branches) {
        reachable.push_back(
            FormatConfiguration({b.flags.shoulder, b.flags.elbow, b.flags.wrist, {}}));
      }
      AddDiagnostic(result, DiagnosticCode::kTargetUnreachable,
                    absl::StrCat("no solution in configuration ", FormatConfiguration(*wanted),
                                 "; the target is reachable in ", absl::StrJoin(reachable, ", ")));
    } else {
      const int j = FirstJointOutsideLimits(model, outside);
      Fail(model, outside, fk, result);
      result.outcome = IkOutcome::kJointLimit;
      Diagnostic d;
      d.severity = Severity::kError;
      d.code = DiagnosticCode::kJointLimit;
      const JointLimits& l = model.dof_limits[j];
      d.joint_name = model.dof_names[j];
      d.value = outside[j];
      d.limit = outside[j] < l.lower ? l.lower : l.upper;
      d.message = absl::StrCat(
          "target is reachable with ", d.joint_name, " at ", outside[j], ", outside its limits [",
          l.lower, ", ", l.upper, "]",
          wanted != nullptr ? absl::StrCat(" in configuration ", FormatConfiguration(*wanted))
                            : std::string(),
          "; no solution within the limits exists");
      result.diagnostics.push_back(std::move(d));
    }
    result.iterations = fk.evaluations;
    return ClosedFormVerdict::kFailed;
  }

  // Stable: equal distances keep the closed form's branch order (deterministic).
  std::stable_sort(primaries.begin(), primaries.end(),
                   [](const Candidate& a, const Candidate& b) { return a.distance < b.distance; });
  const std::size_t limit = options.mode == IkMode::kAll
                                ? static_cast<std::size_t>(options.max_solutions)
                                : std::size_t{1};
  if (primaries.size() > limit) primaries.resize(limit);
  std::vector<Candidate> variants;
  if (options.mode == IkMode::kAll && !turns_given && primaries.size() < limit) {
    for (const Candidate& p : primaries) {
      for (Eigen::VectorXd& v : TurnVariants(model, p.q)) {
        const double distance = (v - seed).norm();
        variants.push_back({std::move(v), p.configuration, distance});
      }
    }
    std::stable_sort(variants.begin(), variants.end(), [](const Candidate& a, const Candidate& b) {
      return a.distance < b.distance;
    });
  }
  for (const Candidate& c : primaries) {
    result.solutions.push_back(c.q);
    result.solution_configurations.push_back(c.configuration);
  }
  for (Candidate& c : variants) {
    if (result.solutions.size() >= limit || !fk.HasBudget()) break;
    if (!fk.Passes(c.q)) continue;
    for (int i = 0; i < model.dof(); ++i) {
      c.configuration.turns[i] = Rotary(model, i) ? WholeTurns(c.q[i]) : 0;
    }
    result.solutions.push_back(std::move(c.q));
    result.solution_configurations.push_back(std::move(c.configuration));
  }
  result.iterations = fk.evaluations;
  return ClosedFormVerdict::kSolved;
}

}  // namespace motion
