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
#include "core/motion/internal/curve_sampling.h"
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

// The samples of the segment, done: every sample's TCP checked against
// the programmed path by FK, near-singular samples warned of, the samples
// appended and audited (`checks`: the audit and torque of these samples,
// already made), and (with `programmed`, when the timing is the joints'
// own) SPEED_REDUCED where they run slower.
absl::Status FinishSegment(const MotionSegment& segment, const CartesianPath& path,
                           SegmentContext& context, SegmentReport& report,
                           const CurveSamples& sampled, long samples, std::int64_t index_base,
                           const ProgrammedSpeed* programmed, double on_grid,
                           const SampledChecks& checks, Eigen::VectorXd& end_joints) {
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
  CurveSamples sampled;
  SampledChecks checks;
  long samples = 1;
  double on_grid = 0.0;
  auto check = [&]() { return CheckCurveSamples(context, sampled, checks); };
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
    if (absl::Status s = SampleCurve(curve, law, samples, context, sampled); !s.ok()) return s;
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
      if (absl::Status s = SampleCurve(curve, law, samples, context, sampled); !s.ok()) return s;
      if (check()) {
        price_on_tcp();
        return FinishSegment(segment, path, context, report, sampled, samples, index_base,
                             &programmed_speed(), on_grid, checks, end_joints);
      }
    }
  }

  // Otherwise the fastest timing along the curve, the override as a time
  // scaling, the grid (SampleFastestTiming: capped where its samples break a
  // limit, and solved again).
  if (!moves) {  // a single sample: the start
    const TimeLaw law = [](double) { return PathTiming::State{}; };
    if (absl::Status s = SampleCurve(curve, law, samples, context, sampled); !s.ok()) return s;
    check();
    return FinishSegment(segment, path, context, report, sampled, samples, index_base, nullptr,
                         on_grid, checks, end_joints);
  }
  FastestSampling fastest;
  if (absl::Status s = SampleFastestTiming(curve, context, segment.speed, extent, exact->duration(),
                                           report, fastest);
      !s.ok()) {
    return s;
  }
  if (fastest.stall >= 0) {
    const std::int64_t index = index_base + SampleNear(programmed_speed(), context, fastest.stall);
    Diagnostic stall = TimingStall(curve, context, fastest.stall);
    stall.segment_id = report.segment_id;
    stall.point_index = index;
    stall.time = context.start_time + (index - index_base) * dt;
    report.diagnostics.push_back(std::move(stall));
    report.ok = false;
    return absl::OkStatus();
  }
  sampled = std::move(fastest.sampled);
  checks = std::move(fastest.checks);
  samples = fastest.samples;
  on_grid = fastest.on_grid;
  if (fastest.within) fill_detail(fastest.timings.problem, fastest.timings.solution.x);
  return FinishSegment(segment, path, context, report, sampled, samples, index_base,
                       &programmed_speed(), on_grid, checks, end_joints);
}

}  // namespace motion
