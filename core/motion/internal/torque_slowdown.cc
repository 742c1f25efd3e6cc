#include "core/motion/internal/torque_slowdown.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "core/diagnostics/untrusted_text.h"
#include "core/dynamics/inverse_dynamics.h"
#include "core/motion/internal/trajectory_checks.h"

namespace motion {
namespace {

// Each attempt aims this far below the limit: the worst sample moves when
// the profile changes, and the sampled torque is a divided-difference
// estimate.
constexpr double kTorqueMargin = 0.98;
constexpr int kTorqueAttempts = 12;
// A slowed motion is kept once its worst torque is at least this fraction
// of the limit (or the attempts are spent): close to the fastest that fits.
constexpr double kTorqueTarget = 0.99;
// Above this share of the dynamic torque the inertial part alone is
// lowered (the velocity bound kept).
constexpr double kInertialShare = 0.5;

}  // namespace

bool LowerRateScaleForTorque(const SegmentContext& context, const TorqueRefusal& refusal,
                             RateScale& scale) {
  if (context.dynamics == nullptr || refusal.worst.dof < 0) return false;
  const int j = refusal.worst.dof;
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(refusal.q.size());
  Eigen::VectorXd g, with_acceleration, with_velocity;
  InverseDynamics(context.model, *context.dynamics, refusal.q, zero, zero, context.gravity,
                  context.payload, g);
  InverseDynamics(context.model, *context.dynamics, refusal.q, zero, refusal.qdd, context.gravity,
                  context.payload, with_acceleration);
  InverseDynamics(context.model, *context.dynamics, refusal.q, refusal.qd, zero, context.gravity,
                  context.payload, with_velocity);
  const double limit = kTorqueMargin * refusal.worst.limit;
  const double tau = refusal.worst.torque;
  const double gravity = g[j];
  if (std::abs(gravity) >= limit) return false;
  const double inertial = with_acceleration[j] - gravity;
  const double velocity = with_velocity[j] - gravity;
  const double target = tau > 0 ? limit : -limit;
  // tau - g = A + V (to the rounding of the differences), beyond the
  // target: the fraction of it that fits.
  const double dynamic = tau - gravity;
  if (!(std::abs(dynamic) > 0)) return false;
  double fraction = std::clamp((target - gravity) / dynamic, 0.01, 0.99);
  if (std::abs(inertial) >= kInertialShare * std::abs(dynamic) && std::abs(inertial) > 0) {
    // Most of it is acceleration: lower that alone, by what fits beside V.
    const double wanted = (target - gravity - velocity) / inertial;
    if (wanted > 0) {
      scale.acceleration *= std::clamp(wanted, 0.01, 0.99);
      return true;
    }
  }
  scale.velocity *= std::sqrt(fraction);
  scale.acceleration *= fraction;
  return true;
}

namespace {

// scale_a^(1 - w) scale_b^w, component by component.
RateScale Between(const RateScale& a, const RateScale& b, double w) {
  return {std::pow(a.velocity, 1 - w) * std::pow(b.velocity, w),
          std::pow(a.acceleration, 1 - w) * std::pow(b.acceleration, w)};
}

}  // namespace

absl::Status SampleWithinTorque(SegmentContext& context, SegmentReport& report,
                                const ScaledAttempt& attempt) {
  // As programmed, appended unless its torque breaks a limit.
  TorqueRefusal programmed;
  const std::size_t known = report.diagnostics.size();
  if (absl::Status s = attempt(RateScale(), context.dynamics ? &programmed : nullptr); !s.ok()) {
    return s;
  }
  if (!programmed.refused) return absl::OkStatus();
  const double programmed_duration = report.duration;
  // Probes (nothing appended): down by LowerRateScaleForTorque until one
  // fits, then regula falsi between the last that did not and the first
  // that did, on log scale, towards a worst torque just below the limit.
  RateScale over, within, scale;
  double over_ratio = programmed.worst.ratio, within_ratio = 0.0;
  bool found = false, possible = true;
  TorqueRefusal worst = programmed;
  for (int n = 0; n < kTorqueAttempts; ++n) {
    if (!found) {
      if (!LowerRateScaleForTorque(context, worst, scale)) {
        possible = false;  // gravity alone breaks the limit
        break;
      }
    } else {
      if (within_ratio >= kTorqueTarget) break;
      // Where the line through (0, over_ratio) and (1, within_ratio)
      // crosses the target, kept off both ends.
      const double w =
          std::clamp((over_ratio - kTorqueTarget) / (over_ratio - within_ratio), 0.2, 0.8);
      scale = Between(over, within, w);
    }
    TorqueRefusal probe;
    probe.probe = true;
    report.diagnostics.resize(known);
    if (absl::Status s = attempt(scale, &probe); !s.ok()) return s;
    if (probe.refused) {
      over = scale, over_ratio = probe.worst.ratio, worst = probe;
    } else {
      within = scale, within_ratio = probe.worst.ratio, found = true;
    }
  }
  report.diagnostics.resize(known);
  // The one kept: the fastest that fits, or (none) as programmed with its
  // TORQUE_LIMIT error.
  const RateScale kept = found && possible ? within : RateScale();
  if (absl::Status s = attempt(kept, nullptr); !s.ok()) return s;
  if (kept.acceleration >= 1.0 || !context.completed) return absl::OkStatus();
  const std::string joint = context.model.dof_names[programmed.worst.dof];
  AddSegmentDiagnostic(
      report, Severity::kWarning, DiagnosticCode::kSpeedReduced,
      absl::StrCat("slowed for torque: ", QuoteUntrusted(joint), " needed ",
                   std::abs(programmed.worst.torque), " (", programmed.worst.ratio,
                   " x its max_torque) as programmed; acceleration bounds at ", kept.acceleration,
                   " and velocity bounds at ", kept.velocity, " of the programmed, ",
                   report.duration, " s instead of ", programmed_duration, " s"),
      report.first_index, context.start_time);
  Diagnostic& d = report.diagnostics.back();
  d.joint_name = joint;
  d.value = kept.acceleration;
  d.limit = 1.0;
  return absl::OkStatus();
}

}  // namespace motion
