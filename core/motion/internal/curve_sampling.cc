#include "core/motion/internal/curve_sampling.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "absl/strings/str_cat.h"
#include "core/dynamics/trajectory_torque.h"
#include "core/kinematics/forward_kinematics.h"
#include "core/motion/internal/rate_audit.h"
#include "core/motion/internal/timing_repairs.h"

namespace motion {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// Where the samples of the fastest timing break a limit, its speed is capped
// there (LowerCapsWhereBroken) at most this many times; then it is played
// uniformly slower, at most this many times.
constexpr int kRepairs = 6;
constexpr int kLastResortStretches = 8;

}  // namespace

absl::Status SampleCurve(const JointCurve& curve, const TimeLaw& timing, long samples,
                         const SegmentContext& context, CurveSamples& out) {
  const int dof = curve.dof();
  out.times.resize(samples);
  out.sigma.resize(samples);
  out.sd.resize(samples);
  out.q.resize(samples * dof);
  out.qd.resize(samples * dof);
  out.qdd.resize(samples * dof);
  Eigen::VectorXd q, d1, d2;
  for (long k = 0; k < samples; ++k) {
    if (k % 64 == 0 && context.Cancelled()) {
      return absl::CancelledError("planning cancelled by the client");
    }
    out.times[k] = static_cast<double>(k) * context.sample_time;
    PathTiming::State st = timing(out.times[k]);
    if (k == 0) st = PathTiming::State{};
    if (k == samples - 1) st = PathTiming::State{1.0, 0.0, 0.0};
    out.sigma[k] = st.s;
    out.sd[k] = st.sd;
    curve.Evaluate(st.s, q, &d1, &d2);
    if (k == 0) q = context.start;
    if (k == samples - 1) q = curve.last().q;
    Eigen::Map<Eigen::VectorXd>(out.q.data() + k * dof, dof) = q;
    Eigen::Map<Eigen::VectorXd>(out.qd.data() + k * dof, dof) = d1 * st.sd;
    Eigen::Map<Eigen::VectorXd>(out.qdd.data() + k * dof, dof) = d1 * st.sdd + d2 * (st.sd * st.sd);
  }
  return absl::OkStatus();
}

std::vector<Pose> SampleTcps(const SegmentContext& context, const CurveSamples& sampled,
                             const Eigen::Isometry3d& tool) {
  const int dof = context.model.dof();
  std::vector<Pose> tcp(sampled.times.size());
  for (std::size_t k = 0; k < tcp.size(); ++k) {
    const Eigen::VectorXd qk = Eigen::Map<const Eigen::VectorXd>(sampled.q.data() + k * dof, dof);
    tcp[k] =
        Pose::FromIsometry(ForwardKinematics(context.model, context.data.kinematics, qk) * tool);
  }
  return tcp;
}

absl::Status GridSamples(const SegmentContext& context, const SegmentReport& report, double on_grid,
                         long& samples_out) {
  const double samples = on_grid / context.sample_time + 1;
  const double room = static_cast<double>(context.max_points) -
                      static_cast<double>(context.out.size()) + (context.Stores(0) ? 0 : 1);
  if (samples >= 1 && samples <= room + 0.5) {  // NaN fails both
    samples_out = std::lround(samples);
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "segments[", report.segment_index, "] (", report.segment_id, "): the path needs at least ",
      std::isfinite(samples) ? absl::StrCat(static_cast<double>(context.out.size()) + samples)
                             : std::string("unboundedly many"),
      " samples (duration / sample_time) and the limit is ", context.max_points,
      "; raise sample_time or split the program"));
}

bool CheckCurveSamples(const SegmentContext& context, const CurveSamples& sampled,
                       SampledChecks& checks) {
  const int dof = context.model.dof();
  checks.audit = AuditSegmentRates(context, sampled.q);
  IncludeStatedRates(sampled.qd, sampled.qdd, dof, context.limits, checks.audit);
  checks.torque =
      context.dynamics == nullptr
          ? TorqueRatio{}
          : SampledTorqueRatio(context.model, *context.dynamics, context.limits, sampled.q,
                               context.sample_time, context.gravity, context.payload);
  const bool with_jerk = context.profile == ProfileKind::kJerkLimited;
  return checks.audit.RequiredStretch(with_jerk) <= 1 + kAuditSlack &&
         checks.torque.ratio <= 1 + kAuditSlack;
}

absl::Status SampleFastestTiming(const JointCurve& curve, const SegmentContext& context,
                                 const SpeedSpec& speed, const CartesianExtent& extent,
                                 double duration_hint, const SegmentReport& report,
                                 FastestSampling& out) {
  const double dt = context.sample_time;
  const bool with_jerk = context.profile == ProfileKind::kJerkLimited;
  std::vector<double> caps;
  PathTiming timing(std::vector<double>(2, 0.0));
  for (int pass = 0;; ++pass) {
    out.timings =
        SolveCurveTiming(curve, context, speed, extent, duration_hint, caps, out.timings.grid);
    const std::vector<double>& x = out.timings.solution.x;
    for (std::size_t i = 1; i + 1 < x.size(); ++i) {
      if (x[i] > 0) continue;
      out.stall = out.timings.grid[i];
      return absl::OkStatus();
    }
    timing = PathTiming(x, out.timings.grid);
    out.on_grid = std::ceil(timing.duration() / context.speed_override / dt - 1e-9) * dt;
    timing.StretchTo(out.on_grid);
    if (absl::Status s = GridSamples(context, report, out.on_grid, out.samples); !s.ok()) return s;
    const TimeLaw law = [&](double t) { return timing.At(t); };
    if (absl::Status s = SampleCurve(curve, law, out.samples, context, out.sampled); !s.ok()) {
      return s;
    }
    if ((out.within = CheckCurveSamples(context, out.sampled, out.checks)) || pass == kRepairs) {
      break;
    }
    if (caps.size() != out.timings.grid.size()) caps.assign(out.timings.grid.size(), kInf);
    // Caps are in the timing's own speed; the override slows all of it.
    if (!LowerCapsWhereBroken(out.checks.audit, out.checks.torque, out.sampled.sigma, timing,
                              with_jerk, dt, caps)) {
      break;
    }
    for (std::size_t i = 0; i < caps.size(); ++i) caps[i] = std::min(caps[i], x[i]);
  }
  // Last resort, when the local caps have not settled a sample within
  // kRepairs passes (0 of the 1 000 random programs on x86-64; seen once
  // under aarch64's rounding): the whole timing played uniformly slower by
  // what the audit asks, so that what is returned stays within its limits.
  for (int stretch = 0; !out.within && stretch < kLastResortStretches; ++stretch) {
    const double k = std::max(
        out.checks.audit.RequiredStretch(with_jerk),
        out.checks.torque.ratio > 1 + kAuditSlack ? std::sqrt(out.checks.torque.ratio) : 1.0);
    out.on_grid = std::ceil(out.on_grid * k * 1.02 / dt - 1e-9) * dt;
    timing.StretchTo(out.on_grid);
    if (absl::Status s = GridSamples(context, report, out.on_grid, out.samples); !s.ok()) return s;
    const TimeLaw law = [&](double t) { return timing.At(t); };
    if (absl::Status s = SampleCurve(curve, law, out.samples, context, out.sampled); !s.ok()) {
      return s;
    }
    out.within = CheckCurveSamples(context, out.sampled, out.checks);
  }
  return absl::OkStatus();
}

}  // namespace motion
