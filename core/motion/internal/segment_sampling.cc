#include "core/motion/internal/segment_sampling.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/dynamics/trajectory_torque.h"
#include "core/motion/internal/rate_audit.h"
#include "core/motion/internal/trajectory_checks.h"

namespace motion {
namespace {

// Polling a cancellation flag is a few ns; every 64 samples keeps the
// reaction time far below a millisecond.
constexpr std::size_t kCancelCheckInterval = 64;

// Uniform slow-downs tried for a junction that breaks a limit.
constexpr int kJunctionStretches = 4;

// Error diagnostics for the kinds the audit found beyond their limits.
void ReportAudit(const RateAudit& audit, const SegmentContext& context, std::int64_t first_index,
                 const std::vector<double>& times, SegmentReport& report) {
  static constexpr const char* kWhat[3] = {"velocity", "acceleration", "jerk"};
  static constexpr DiagnosticCode kCode[3] = {
      DiagnosticCode::kVelocityLimit, DiagnosticCode::kAccelLimit, DiagnosticCode::kJerkLimit};
  const bool with_jerk = context.profile == ProfileKind::kJerkLimited;
  for (int kind = 0; kind < 3; ++kind) {
    if (audit.ratio[kind] <= 1 + kAuditSlack || (kind == RateAudit::kJerk && !with_jerk)) continue;
    const int j = audit.joint[kind];
    const double limit = kind == 0   ? context.limits[j].max_velocity
                         : kind == 1 ? context.limits[j].max_acceleration
                                     : context.limits[j].max_jerk;
    const std::int64_t index = first_index + static_cast<std::int64_t>(audit.sample[kind]);
    const double time = context.start_time + times[audit.sample[kind]];
    AddSegmentDiagnostic(
        report, Severity::kError, kCode[kind],
        absl::StrCat(context.model.dof_names[j], " ", kWhat[kind], " ", audit.value[kind],
                     " (from the sampled positions) exceeds ", "its limit ", limit, " near sample ",
                     index, " (t = ", time, " s)"),
        index, time);
    report.diagnostics.back().joint_name = context.model.dof_names[j];
    report.diagnostics.back().value = audit.value[kind];
    report.diagnostics.back().limit = limit;
  }
}

}  // namespace

RateAudit AuditSegmentRates(const SegmentContext& context, const std::vector<double>& q) {
  if (context.Stores(0)) return AuditRates(q, context.out.dof, context.sample_time, context.limits);
  return AuditContinuing(context.out.positions, context.continuous_from, q, context.out.dof,
                         context.sample_time, context.limits);
}

absl::Status SampleSegment(SegmentContext& context, const PathProfile& profile_as_planned,
                           SegmentReport& report, const Sampler& sampler,
                           Eigen::VectorXd& end_joints, TorqueRefusal* refusal,
                           bool follows_profile) {
  const bool probe = refusal != nullptr && refusal->probe;
  if (refusal != nullptr) {
    *refusal = TorqueRefusal();
    refusal->probe = probe;
  }
  Trajectory& out = context.out;
  const int dof = out.dof;
  const bool with_jerk = context.profile == ProfileKind::kJerkLimited;
  const std::size_t known = report.diagnostics.size();
  PathProfile profile = profile_as_planned.OnGrid(context.sample_time);
  std::vector<double> times, q, qd, qdd;
  std::vector<Pose> tcp;
  SampledChecks checks;
  for (int stretch = 0;; ++stretch) {
    const long new_points = context.PointsFor(profile.duration());
    if (static_cast<long>(out.size()) + new_points > context.max_points) {
      return absl::InvalidArgumentError(
          absl::StrCat("segments[", report.segment_index, "] (", report.segment_id,
                       "): the path needs at least ", out.size() + new_points,
                       " samples (duration / sample_time) and the limit is ", context.max_points,
                       "; raise sample_time or split the program"));
    }
    times = SampleTimes(profile.duration(), context.sample_time);
    report.start_time = context.start_time;
    report.duration = profile.duration();

    // Local buffers: a failed segment leaves the trajectory untouched.
    q.assign(times.size() * dof, 0.0);
    qd.assign(times.size() * dof, 0.0);
    qdd.assign(times.size() * dof, 0.0);
    tcp.assign(times.size(), Pose());
    SampleOut sample;
    for (std::size_t k = 0; k < times.size(); ++k) {
      if (k % kCancelCheckInterval == 0 && context.Cancelled()) {
        return absl::CancelledError("planning cancelled by the client");
      }
      if (!sampler(times[k], profile.At(times[k]), sample)) {
        report.ok = false;
        return absl::OkStatus();
      }
      Eigen::Map<Eigen::VectorXd>(q.data() + k * dof, dof) = sample.q;
      Eigen::Map<Eigen::VectorXd>(qd.data() + k * dof, dof) = sample.qd;
      Eigen::Map<Eigen::VectorXd>(qdd.data() + k * dof, dof) = sample.qdd;
      tcp[k] = sample.tcp;
    }
    // With the samples before it: played uniformly slower until the
    // junction keeps the limits, unless the segment alone breaks them
    // (reported) or its sampler said something this pass (a watch that
    // reports once would not say it again).
    const bool continuing = !context.Stores(0);
    checks.audit = AuditSegmentRates(context, q);
    const double k = checks.audit.RequiredStretch(with_jerk);
    if (!continuing || !follows_profile || k <= 1 + kAuditSlack || stretch == kJunctionStretches ||
        report.diagnostics.size() != known ||
        AuditRates(q, dof, context.sample_time, context.limits).RequiredStretch(with_jerk) >
            1 + kAuditSlack) {
      break;
    }
    profile =
        profile_as_planned.StretchedTo(profile.duration() * k * 1.02).OnGrid(context.sample_time);
  }
  if (context.dynamics != nullptr) {
    checks.torque = SampledTorqueRatio(context.model, *context.dynamics, context.limits, q,
                                       context.sample_time, context.gravity, context.payload);
  }
  const bool refused = checks.torque.ratio > 1 + kAuditSlack;
  if (refusal != nullptr && (probe || refused)) {
    refusal->refused = refused;
    refusal->worst = checks.torque;
    if (const std::int64_t i = checks.torque.sample; i >= 0) {
      refusal->q = Eigen::Map<const Eigen::VectorXd>(q.data() + i * dof, dof);
      CentralDifferences(q, dof, context.sample_time, i, refusal->qd, refusal->qdd);
      refusal->time = times[static_cast<std::size_t>(i)];
    }
    return absl::OkStatus();
  }
  AppendSegmentSamples(context, report, times, q, qd, qdd, tcp, end_joints, &checks);
  return absl::OkStatus();
}

void AppendSegmentSamples(SegmentContext& context, SegmentReport& report,
                          const std::vector<double>& times, const std::vector<double>& q,
                          const std::vector<double>& qd, const std::vector<double>& qdd,
                          const std::vector<Pose>& tcp, Eigen::VectorXd& end_joints,
                          const SampledChecks* known) {
  Trajectory& out = context.out;
  const int dof = out.dof;
  const RateAudit audit =
      known != nullptr ? known->audit : AuditRates(q, dof, context.sample_time, context.limits);
  report.start_time = context.start_time;
  report.duration = times.back();
  const std::size_t first_local = context.Stores(0) ? 0 : 1;
  report.first_index = static_cast<std::int64_t>(out.size());
  for (std::size_t k = first_local; k < times.size(); ++k) {
    // On the grid k * dt from the path start, exactly as a fixed-cycle
    // controller counts (segments start and end on it).
    out.time.push_back(std::round((context.start_time + times[k]) / context.sample_time) *
                       context.sample_time);
    out.positions.insert(out.positions.end(), q.begin() + k * dof, q.begin() + (k + 1) * dof);
    out.velocities.insert(out.velocities.end(), qd.begin() + k * dof, qd.begin() + (k + 1) * dof);
    out.accelerations.insert(out.accelerations.end(), qdd.begin() + k * dof,
                             qdd.begin() + (k + 1) * dof);
    out.tcp.push_back(tcp[k]);
  }
  report.point_count = static_cast<std::int64_t>(out.size()) - report.first_index;
  CheckTrajectoryLimits(context.model, context.limits, out, report.first_index, report);
  WidenRateRatios(audit, report);
  ReportAudit(audit, context, report.first_index - static_cast<std::int64_t>(first_local), times,
              report);
  if (context.dynamics != nullptr) {
    // Torque from the sampled positions (central differences, at rest at
    // both ends) by inverse dynamics, against each DOF's max_torque.
    const TorqueRatio worst =
        known != nullptr
            ? known->torque
            : SampledTorqueRatio(context.model, *context.dynamics, context.limits, q,
                                 context.sample_time, context.gravity, context.payload);
    report.max_joint_torque_ratio = std::max(report.max_joint_torque_ratio, worst.ratio);
    if (std::optional<Diagnostic> error = TorqueLimitError(
            context.model, worst, report.first_index - static_cast<std::int64_t>(first_local),
            kAuditSlack)) {
      error->segment_id = report.segment_id;
      error->time = context.start_time + static_cast<double>(worst.sample) * context.sample_time;
      report.diagnostics.push_back(*error);
      report.ok = false;
    }
  }
  end_joints = Eigen::Map<const Eigen::VectorXd>(q.data() + (times.size() - 1) * dof, dof);
  context.completed = true;
}

}  // namespace motion
