#include "core/motion/trajectory_audit.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "core/motion/internal/rate_audit.h"
#include "core/motion/joint_samples.h"

namespace motion {
namespace {

// As the planner's own checks: sampled profiles are exact to rounding,
// divided differences to a few ulps of the sample spacing.
constexpr double kRatioSlack = 1e-6;
// How far a time may be from its grid point, in spacings.
constexpr double kGridTolerance = 1e-6;

Diagnostic LimitError(DiagnosticCode code, const std::string& joint, const char* what, double value,
                      double limit, std::size_t k, double time) {
  Diagnostic d;
  d.severity = Severity::kError;
  d.code = code;
  d.point_index = static_cast<std::int64_t>(k);
  d.time = time;
  d.joint_name = joint;
  d.value = value;
  d.limit = limit;
  d.message = absl::StrCat(joint, " ", what, " ", value, " exceeds its limit ", limit, " at point ",
                           k, " (t = ", time, " s)");
  return d;
}

}  // namespace

absl::StatusOr<TrajectoryAudit> AuditJointTrajectory(const ChainModel& model,
                                                     const std::vector<JointLimits>& limits,
                                                     const std::vector<double>& time,
                                                     const std::vector<double>& positions) {
  const int dof = model.dof();
  if (auto status = CheckJointSamples(dof, time, positions); !status.ok()) return status;
  const std::size_t n = time.size();
  TrajectoryAudit audit;
  audit.cycle_time = time.back() - time.front();
  if (n > 1) {
    const double dt = audit.cycle_time / static_cast<double>(n - 1);
    for (std::size_t k = 1; k + 1 < n; ++k) {
      const double grid = time.front() + static_cast<double>(k) * dt;
      if (std::abs(time[k] - grid) > kGridTolerance * dt) {
        return absl::InvalidArgumentError(
            absl::StrCat("time[", k, "]: ", time[k], " s is off the uniform grid of ", n,
                         " samples from ", time.front(), " to ", time.back(), " s (", grid,
                         " s expected); ResampleTrajectory puts a trajectory on one"));
      }
    }
    audit.sample_time = dt;
  }

  std::vector<double> column(n);
  for (int j = 0; j < dof; ++j) {
    const JointLimits& l = limits[j];
    const std::string& name = model.dof_names[j];
    for (std::size_t k = 0; k < n; ++k) column[k] = positions[k * dof + j];
    for (std::size_t k = 0; k < n; ++k) {
      const double q = column[k];
      if (l.bounded && (q < l.lower - 1e-9 || q > l.upper + 1e-9)) {
        Diagnostic d = LimitError(DiagnosticCode::kJointLimit, name, "position", q,
                                  q < l.lower ? l.lower : l.upper, k, time[k]);
        d.message = absl::StrCat(name, " position ", q, " is outside its limits [", l.lower, ", ",
                                 l.upper, "] at point ", k, " (t = ", time[k], " s)");
        audit.diagnostics.push_back(std::move(d));
        break;  // the first sample outside is where to look
      }
    }
    if (n < 2) continue;
    // The planner's audit on this joint alone: its worst rate of each kind.
    const RateAudit rates = AuditRates(column, 1, audit.sample_time, {l}, AuditBoundary::kAtRest);
    audit.max_joint_velocity_ratio =
        std::max(audit.max_joint_velocity_ratio, rates.ratio[RateAudit::kVelocity]);
    audit.max_joint_acceleration_ratio =
        std::max(audit.max_joint_acceleration_ratio, rates.ratio[RateAudit::kAcceleration]);
    audit.max_joint_jerk_ratio =
        std::max(audit.max_joint_jerk_ratio, rates.ratio[RateAudit::kJerk]);
    struct Kind {
      int index;
      DiagnosticCode code;
      const char* what;
      double limit;
    };
    for (const Kind& kind :
         {Kind{RateAudit::kVelocity, DiagnosticCode::kVelocityLimit, "velocity", l.max_velocity},
          Kind{RateAudit::kAcceleration, DiagnosticCode::kAccelLimit, "acceleration",
               l.max_acceleration},
          Kind{RateAudit::kJerk, DiagnosticCode::kJerkLimit, "jerk", l.max_jerk}}) {
      if (rates.ratio[kind.index] > 1 + kRatioSlack) {
        const std::size_t k = rates.sample[kind.index];
        audit.diagnostics.push_back(LimitError(kind.code, name, kind.what, rates.value[kind.index],
                                               kind.limit, k, time[k]));
      }
    }
  }
  audit.ok = audit.diagnostics.empty();
  return audit;
}

}  // namespace motion
