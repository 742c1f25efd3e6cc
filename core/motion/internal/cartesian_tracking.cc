#include "core/motion/internal/cartesian_tracking.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/dynamics/path_dynamics.h"
#include "core/dynamics/trajectory_torque.h"
#include "core/ik/ik_solver.h"
#include "core/ik/internal/pose_error.h"
#include "core/kinematics/forward_kinematics.h"
#include "core/motion/internal/curve_timing.h"
#include "core/motion/internal/programmed_speed.h"
#include "core/motion/internal/rate_audit.h"
#include "core/motion/internal/segment_sampling.h"
#include "core/motion/internal/timing_repairs.h"
#include "core/motion/internal/trajectory_checks.h"
#include "core/motion/internal/windowed_timing.h"
#include "core/profile/path_timing.h"

namespace motion {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// A sample runs "slower than programmed" below this fraction of it.
constexpr double kReducedBelow = 0.99;
// Where the samples of the fastest timing break a limit, its speed is capped
// there (LowerCapsWhereBroken) at most this many times; then it is played
// uniformly slower, at most this many times.
constexpr int kRepairs = 6;
constexpr int kLastResortStretches = 8;

bool HasCode(const std::vector<Diagnostic>& diagnostics, DiagnosticCode code) {
  return std::any_of(diagnostics.begin(), diagnostics.end(),
                     [&](const Diagnostic& d) { return d.code == code; });
}

// Phase 1: is the end reachable at all? Say so once (diagnostics of the
// IK answer, on the segment) instead of failing mid-path.
absl::StatusOr<bool> EndIsReachable(const MotionSegment& segment, const CartesianPath& path,
                                    SegmentContext& context, SegmentReport& report) {
  const std::vector<double> seed(context.start.data(), context.start.data() + context.start.size());
  absl::StatusOr<IkResult> end =
      SolveIk(context.model, context.data, path(1.0), segment.tool, seed, IkOptions());
  if (!end.ok()) return end.status();
  if (end->ok) return true;
  ReportFailedIk(end->diagnostics, "target", report);
  return false;
}

// The sample index where sigma is first reached by the programmed timing
// played at speed_override (for diagnostics of a path that has no timing
// yet).
std::int64_t SampleNear(const ProgrammedSpeed& programmed, const SegmentContext& context,
                        double sigma) {
  return std::lround(programmed.TimeAt(sigma) / context.speed_override / context.sample_time);
}

// SPEED_REDUCED: the samples where the TCP runs below kReducedBelow of the
// programmed timing's speed at the same point of the path, the least
// fraction, and the joint closest to a limit there.
void ReportSpeedReduced(const SegmentContext& context, const std::vector<double>& sigma,
                        const std::vector<double>& speed_squared, const ProgrammedSpeed& programmed,
                        const std::vector<double>& qd, const std::vector<double>& qdd,
                        double override_factor, double own_duration, SegmentReport& report) {
  const int dof = context.model.dof();
  const std::size_t n = sigma.size();
  double peak = 0;
  for (std::size_t k = 0; k < n; ++k) peak = std::max(peak, programmed.SpeedSquaredAt(sigma[k]));
  // The stretch of slowed samples around the slowest one (where the binding
  // limit is), and how many samples are slowed elsewhere.
  std::vector<char> slowed(n, 0);
  std::int64_t worst_at = -1, count = 0;
  double worst = 1.0;
  for (std::size_t k = 0; k < n; ++k) {
    const double wanted = programmed.SpeedSquaredAt(sigma[k]);
    if (wanted < 1e-4 * peak) continue;  // starting and stopping: both at rest
    const double fraction = std::sqrt(std::max(0.0, speed_squared[k]) / wanted);
    if (fraction >= kReducedBelow) continue;
    slowed[k] = 1;
    ++count;
    if (fraction < worst) worst = fraction, worst_at = static_cast<std::int64_t>(k);
  }
  if (worst_at < 0) return;
  std::int64_t first = worst_at, last = worst_at;
  while (first > 0 && slowed[static_cast<std::size_t>(first - 1)]) --first;
  while (last + 1 < static_cast<std::int64_t>(n) && slowed[static_cast<std::size_t>(last + 1)]) {
    ++last;
  }
  const std::int64_t elsewhere = count - (last - first + 1);
  int joint = -1;
  double closest = -1;
  for (int j = 0; j < dof; ++j) {
    const std::size_t at = static_cast<std::size_t>(worst_at) * dof + j;
    const double ratio = std::max(std::abs(qd[at]) / context.limits[j].max_velocity,
                                  std::abs(qdd[at]) / context.limits[j].max_acceleration);
    if (ratio > closest) closest = ratio, joint = j;
  }
  const std::int64_t base = report.first_index - (context.Stores(0) ? 0 : 1);
  const double programmed_duration = programmed.duration() / override_factor;
  AddSegmentDiagnostic(
      report, Severity::kWarning, DiagnosticCode::kSpeedReduced,
      absl::StrCat(
          "slowed to ", worst, " of the programmed speed at most, over samples ", base + first,
          " to ", base + last,
          elsewhere > 0 ? absl::StrCat(" (and ", elsewhere, " samples elsewhere)") : std::string(),
          " (", own_duration, " s instead of ", programmed_duration,
          " s): ", joint >= 0 ? context.model.dof_names[joint] : std::string("a joint"),
          " cannot follow the programmed TCP speed there"),
      base + worst_at, context.start_time + static_cast<double>(worst_at) * context.sample_time);
  report.diagnostics.back().value = worst;
  report.diagnostics.back().limit = 1.0;
  if (joint >= 0) report.diagnostics.back().joint_name = context.model.dof_names[joint];
}

// The samples of one timing: path parameter, joints and their rates.
struct Sampled {
  std::vector<double> times, sigma, sd;
  std::vector<double> q, qd, qdd;
};

// Samples `curve` through `timing` (already stretched to end on the grid)
// at every dt; the first sample is the start exactly, the last the end.
absl::Status SampleTiming(const JointCurve& curve, const TimeLaw& timing, long samples,
                          const SegmentContext& context, Sampled& out) {
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

// The worst joint torque of the samples (none without dynamics).
TorqueRatio SampledTorque(const SegmentContext& context, const Sampled& sampled) {
  if (context.dynamics == nullptr) return TorqueRatio{};
  return SampledTorqueRatio(context.model, *context.dynamics, context.limits, sampled.q,
                            context.sample_time, context.gravity, context.payload);
}

// The samples a timing of `on_grid` seconds (a whole number of samples)
// takes, both ends included. INVALID_ARGUMENT when they would not fit in the
// path's point budget beside what is planned already, or when the duration
// is not finite (a timing that crawls to a stop it never leaves): compared
// as doubles, before any conversion to an integer could overflow.
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

// The samples of the segment, done: every sample's TCP checked against
// the programmed path by FK, near-singular samples warned of, the samples
// appended and audited (`checks`: the audit and torque of these samples,
// already made), and (with `programmed`, when the timing is the joints'
// own) SPEED_REDUCED where they run slower.
absl::Status FinishSegment(const MotionSegment& segment, const CartesianPath& path,
                           SegmentContext& context, SegmentReport& report, const Sampled& sampled,
                           long samples, std::int64_t index_base, const ProgrammedSpeed* programmed,
                           double on_grid, const SampledChecks& checks,
                           Eigen::VectorXd& end_joints) {
  const int dof = context.model.dof();
  const Eigen::Isometry3d tool = segment.tool.ToIsometry();
  // The TCP of every sample, checked against the programmed path.
  std::vector<Pose> tcp(samples);
  std::vector<double> speed_squared(samples);
  for (long k = 0; k < samples; ++k) {
    const Eigen::VectorXd qk = Eigen::Map<const Eigen::VectorXd>(sampled.q.data() + k * dof, dof);
    const Eigen::Isometry3d at =
        ForwardKinematics(context.model, context.data.kinematics, qk) * tool;
    tcp[k] = Pose::FromIsometry(at);
    const double unscaled = sampled.sd[k] / context.speed_override;
    speed_squared[k] = unscaled * unscaled;
    const PoseError error = ComputePoseError(at, path(sampled.sigma[k]).ToIsometry());
    report.max_cartesian_error = std::max(report.max_cartesian_error, error.position);
    const bool deviates =
        error.position > segment.PathTolerance() || error.rotation > segment.PathAngleTolerance();
    if (deviates && !HasCode(report.diagnostics, DiagnosticCode::kCartesianDeviation)) {
      AddSegmentDiagnostic(
          report, Severity::kError, DiagnosticCode::kCartesianDeviation,
          absl::StrCat("the TCP is ", error.position, " m and ", error.rotation,
                       " rad from the programmed path at sample ", index_base + k, " (tolerance ",
                       segment.PathTolerance(), " m, ", segment.PathAngleTolerance(), " rad)"),
          index_base + k, context.start_time + sampled.times[k]);
      report.diagnostics.back().value = error.position;
      report.diagnostics.back().limit = segment.PathTolerance();
    }
    if (k % kSingularityCheckInterval == 1 &&
        !HasCode(report.diagnostics, DiagnosticCode::kSingularity)) {
      WarnIfNearSingular(context.model, context.data.kinematics, qk, tool, index_base + k,
                         context.start_time + sampled.times[k], report);
    }
  }
  AppendSegmentSamples(context, report, sampled.times, sampled.q, sampled.qd, sampled.qdd, tcp,
                       end_joints, &checks);
  if (programmed != nullptr) {
    ReportSpeedReduced(context, sampled.sigma, speed_squared, *programmed, sampled.qd, sampled.qdd,
                       context.speed_override, on_grid, report);
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<PathProfile> CartesianProfile(const SpeedSpec& speed, ProfileKind kind,
                                             double length, double rotation) {
  double s_velocity = kInf, s_acceleration = kInf, s_jerk = kInf;
  if (length > 1e-12) {
    s_velocity = speed.linear_velocity / length;
    s_acceleration = speed.linear_acceleration / length;
    s_jerk = speed.linear_jerk / length;
  }
  if (rotation > 1e-12) {
    s_velocity = std::min(s_velocity, speed.angular_velocity / rotation);
    s_acceleration = std::min(s_acceleration, speed.angular_acceleration / rotation);
    s_jerk = std::min(s_jerk, speed.angular_jerk / rotation);
  }
  return PathProfile::Plan(kind, 1.0, s_velocity, s_acceleration, s_jerk);
}

absl::Status TrackCartesianPath(const MotionSegment& segment, const CartesianPath& path,
                                const CartesianExtent& extent, SegmentContext& context,
                                SegmentReport& report, Eigen::VectorXd& end_joints,
                                TrackingDetail* detail) {
  end_joints = context.start;
  absl::StatusOr<bool> reachable = EndIsReachable(segment, path, context, report);
  if (!reachable.ok()) return reachable.status();
  if (!*reachable) return absl::OkStatus();
  const int dof = context.model.dof();
  const double dt = context.sample_time;
  const Eigen::Isometry3d tool = segment.tool.ToIsometry();
  const std::int64_t index_base =
      static_cast<std::int64_t>(context.out.size()) - (context.Stores(0) ? 0 : 1);
  const bool moves = extent.length > 1e-12 || extent.rotation > 1e-12;
  const bool with_jerk = context.profile == ProfileKind::kJerkLimited;

  // The programmed timing: the TCP's own limits alone (the exact double-S
  // or trapezoid), the fastest there is when no joint limit binds.
  absl::StatusOr<PathProfile> exact =
      CartesianProfile(segment.speed, context.profile, extent.length, extent.rotation);
  if (!exact.ok()) return exact.status();
  std::optional<ProgrammedSpeed> programmed;  // tabulated when needed
  auto programmed_speed = [&]() -> const ProgrammedSpeed& {
    if (!programmed) programmed.emplace(*exact);
    return *programmed;
  };

  // The path: a joint curve from the start.
  JointCurve curve(
      JointCurve::Knot{0.0, context.start, Eigen::VectorXd::Zero(dof), Eigen::VectorXd::Zero(dof)});
  JointCurveTolerances tolerances;
  tolerances.position = segment.PathTolerance();
  tolerances.rotation = segment.PathAngleTolerance();
  JointCurveFailure failure;
  if (moves &&
      !BuildCartesianJointCurve(context.model, context.data, path, tool, context.start, tolerances,
                                extent.length, extent.rotation, curve, failure)) {
    using Kind = JointCurveFailure::Kind;
    const DiagnosticCode code = failure.kind == Kind::kSingular ? DiagnosticCode::kSingularity
                                : failure.kind == Kind::kFlip   ? DiagnosticCode::kConfigurationFlip
                                : failure.kind == Kind::kJointLimit ? DiagnosticCode::kJointLimit
                                                                    : DiagnosticCode::kIkFailed;
    const std::int64_t index = index_base + SampleNear(programmed_speed(), context, failure.sigma);
    AddSegmentDiagnostic(report, Severity::kError, code,
                         absl::StrCat(failure.detail, " at s = ", failure.sigma,
                                      " of the path (near sample ", index, ")"),
                         index, context.start_time + (index - index_base) * dt);
    if (failure.joint >= 0) {
      report.diagnostics.back().joint_name = context.model.dof_names[failure.joint];
    }
    return absl::OkStatus();
  }

  // The time. First the programmed timing itself, kept when the joints
  // follow it within every limit.
  Sampled sampled;
  SampledChecks checks;
  long samples = 1;
  double on_grid = 0.0;
  auto check = [&]() {
    checks.audit = AuditSegmentRates(context, sampled.q);
    IncludeStatedRates(sampled.qd, sampled.qdd, dof, context.limits, checks.audit);
    checks.torque = SampledTorque(context, sampled);
    return checks.audit.RequiredStretch(with_jerk) <= 1 + kAuditSlack &&
           checks.torque.ratio <= 1 + kAuditSlack;
  };
  auto fill_detail = [&](PathTimingProblem problem, std::vector<double> solved) {
    if (detail == nullptr) return;
    detail->sigma = sampled.sigma;
    detail->stop_cost = StopCosts(std::move(problem), std::move(solved), detail->stops);
    for (double& c : detail->stop_cost) c /= context.speed_override;
  };
  // A timing that is (mostly) the programmed one: stops priced on the TCP's
  // own timing.
  auto price_on_tcp = [&]() {
    const std::vector<double> grid =
        UniformGrid(static_cast<int>(std::max<long>(kMinTimingNodes, samples)));
    fill_detail(CurveTimingProblem(curve, context, segment.speed, extent, grid, true), {});
  };
  if (moves) {
    const PathProfile played =
        exact->StretchedTo(exact->duration() / context.speed_override).OnGrid(dt);
    // A blended run's TCP moves on its own rates (TcpRates): the programmed
    // timing is kept only where it keeps them within the TCP's limits too.
    std::vector<double> trouble;
    const bool tcp =
        !extent.rates || KeepsTcpLimits(played, extent, segment.speed, dt, with_jerk, &trouble);
    on_grid = played.duration();
    if (absl::Status s = GridSamples(context, report, on_grid, samples); !s.ok()) return s;
    const TimeLaw law = [&](double t) {
      const PathProfile::State st = played.At(t);
      return PathTiming::State{st.s, st.sd, st.sdd};
    };
    if (absl::Status s = SampleTiming(curve, law, samples, context, sampled); !s.ok()) return s;
    if (check() && tcp) {
      if (detail != nullptr) detail->programmed = true;
      price_on_tcp();
      return FinishSegment(segment, path, context, report, sampled, samples, index_base, nullptr,
                           on_grid, checks, end_joints);
    }
    // Where it breaks a limit (a joint's or the TCP's), the fastest timing
    // in windows around there, the programmed one elsewhere
    // (windowed_timing.h).
    const std::vector<double> joints =
        BrokenAt(checks.audit, checks.torque, sampled.sigma, with_jerk);
    trouble.insert(trouble.end(), joints.begin(), joints.end());
    if (const std::optional<WindowedTiming> windowed =
            TimeInWindows(curve, context, segment.speed, extent, *exact, trouble)) {
      on_grid = std::ceil(windowed->duration / context.speed_override / dt - 1e-9) * dt;
      const double k = windowed->duration / on_grid;  // own time per second
      const TimeLaw law = [&](double t) {
        PathTiming::State st = windowed->law(t * k);
        return PathTiming::State{st.s, st.sd * k, st.sdd * k * k};
      };
      if (absl::Status s = GridSamples(context, report, on_grid, samples); !s.ok()) return s;
      if (absl::Status s = SampleTiming(curve, law, samples, context, sampled); !s.ok()) return s;
      if (check()) {
        price_on_tcp();
        return FinishSegment(segment, path, context, report, sampled, samples, index_base,
                             &programmed_speed(), on_grid, checks, end_joints);
      }
    }
  }

  // Otherwise the fastest timing along the curve, the override as a time
  // scaling, the grid; then the samples' own audit, and where it finds a
  // rate beyond its limit (the timing is exact at its nodes, the samples
  // see between them), the speed capped there and the timing solved again.
  CurveTiming timings;
  std::vector<double> caps;
  PathTiming timing(std::vector<double>(2, 0.0));
  bool within = !moves;
  for (int pass = 0; moves; ++pass) {
    timings = SolveCurveTiming(curve, context, segment.speed, extent, exact->duration(), caps,
                               timings.grid);
    for (std::size_t i = 1; i + 1 < timings.solution.x.size(); ++i) {
      if (timings.solution.x[i] > 0) continue;
      const double sigma = timings.grid[i];
      const std::int64_t index = index_base + SampleNear(programmed_speed(), context, sigma);
      Diagnostic stall = TimingStall(curve, context, sigma);
      stall.segment_id = report.segment_id;
      stall.point_index = index;
      stall.time = context.start_time + (index - index_base) * dt;
      report.diagnostics.push_back(std::move(stall));
      report.ok = false;
      return absl::OkStatus();
    }
    timing = PathTiming(timings.solution.x, timings.grid);
    on_grid = std::ceil(timing.duration() / context.speed_override / dt - 1e-9) * dt;
    timing.StretchTo(on_grid);
    if (absl::Status s = GridSamples(context, report, on_grid, samples); !s.ok()) return s;
    const TimeLaw law = [&](double t) { return timing.At(t); };
    if (absl::Status s = SampleTiming(curve, law, samples, context, sampled); !s.ok()) return s;
    if ((within = check()) || pass == kRepairs) break;
    if (caps.size() != timings.grid.size()) caps.assign(timings.grid.size(), kInf);
    // Caps are in the timing's own speed; the override slows all of it.
    if (!LowerCapsWhereBroken(checks.audit, checks.torque, sampled.sigma, timing, with_jerk, dt,
                              caps)) {
      break;
    }
    for (std::size_t i = 0; i < caps.size(); ++i) {
      caps[i] = std::min(caps[i], timings.solution.x[i]);
    }
  }
  // Last resort, when the local caps have not settled a sample within
  // kRepairs passes (0 of the 1 000 random programs on x86-64; seen once
  // under aarch64's rounding): the whole timing played uniformly slower by
  // what the audit asks, so that what is returned stays within its limits.
  for (int stretch = 0; !within && stretch < kLastResortStretches; ++stretch) {
    const double k =
        std::max(checks.audit.RequiredStretch(with_jerk),
                 checks.torque.ratio > 1 + kAuditSlack ? std::sqrt(checks.torque.ratio) : 1.0);
    on_grid = std::ceil(on_grid * k * 1.02 / dt - 1e-9) * dt;
    timing.StretchTo(on_grid);
    if (absl::Status s = GridSamples(context, report, on_grid, samples); !s.ok()) return s;
    const TimeLaw law = [&](double t) { return timing.At(t); };
    if (absl::Status s = SampleTiming(curve, law, samples, context, sampled); !s.ok()) return s;
    within = check();
  }
  if (moves && within) fill_detail(timings.problem, timings.solution.x);
  if (!moves) {  // a single sample: the start
    const TimeLaw law = [&](double t) { return timing.At(t); };
    if (absl::Status s = SampleTiming(curve, law, samples, context, sampled); !s.ok()) return s;
    check();
  }
  return FinishSegment(segment, path, context, report, sampled, samples, index_base,
                       moves ? &programmed_speed() : nullptr, on_grid, checks, end_joints);
}

}  // namespace motion
