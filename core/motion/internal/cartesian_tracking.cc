#include "core/motion/internal/cartesian_tracking.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <memory>
#include <vector>

#include <Eigen/SVD>

#include "absl/strings/str_cat.h"
#include "core/ik/ik_solver.h"
#include "core/ik/internal/levenberg_marquardt_ik.h"
#include "core/kinematics/forward_kinematics.h"
#include "core/motion/internal/segment_sampling.h"
#include "core/motion/internal/trajectory_checks.h"

namespace motion {
namespace {

// Where the local descent per sample stops (see CartesianTracker).
constexpr double kPolishedPosition = 1e-11;     // m
constexpr double kPolishedOrientation = 1e-10;  // rad
// Re-timings of a Cartesian segment before the audit's verdict stands:
// local slowdowns first, then uniform ones.
constexpr int kLocalRetimingPasses = 8;
constexpr int kUniformRetimingPasses = 3;
// A local slowdown is spread over this much time on each side of where it
// is needed, so it varies slowly (its own rate of change adds acceleration
// and jerk): 50 ms, the order of the jerk phases.
constexpr double kSlowdownSpread = 0.05;  // s

}  // namespace

absl::StatusOr<PathProfile> CartesianProfile(const SpeedSpec& speed, ProfileKind kind,
                                             double speed_override, double length,
                                             double rotation) {
  const double f = speed_override;
  double s_velocity = std::numeric_limits<double>::infinity();
  double s_acceleration = std::numeric_limits<double>::infinity();
  double s_jerk = std::numeric_limits<double>::infinity();
  if (length > 1e-12) {
    s_velocity = f * speed.linear_velocity / length;
    s_acceleration = f * speed.linear_acceleration / length;
    s_jerk = f * speed.linear_jerk / length;
  }
  if (rotation > 1e-12) {
    s_velocity = std::min(s_velocity, f * speed.angular_velocity / rotation);
    s_acceleration = std::min(s_acceleration, f * speed.angular_acceleration / rotation);
    s_jerk = std::min(s_jerk, f * speed.angular_jerk / rotation);
  }
  return PathProfile::Plan(kind, 1.0, s_velocity, s_acceleration, s_jerk);
}

namespace {

// Phase 1: is the end reachable at all? Say so once (diagnostics of the
// IK answer, on the segment) instead of failing mid-path.
absl::StatusOr<bool> EndIsReachable(const MotionSegment& segment, const CartesianPath& path,
                                    SegmentContext& context, const IkOptions& ik_options,
                                    SegmentReport& report) {
  const std::vector<double> seed(context.start.data(), context.start.data() + context.start.size());
  absl::StatusOr<IkResult> end =
      SolveIk(context.model, context.data, path(1.0), segment.tool, seed, ik_options);
  if (!end.ok()) return end.status();
  if (end->ok) return true;
  ReportFailedIk(end->diagnostics, "target", report);
  return false;
}

// Phase 2: one IK per sample, seeded by the previous samples, with the
// checks a tracked path needs (configuration flips, singularities).
class CartesianTracker {
 public:
  CartesianTracker(const MotionSegment& segment, const CartesianPath& path, SegmentContext& context,
                   const IkOptions& ik_options, SegmentReport& report)
      : segment_(segment),
        path_(path),
        context_(context),
        model_(context.model),
        data_(context.data),
        tool_(segment.tool.ToIsometry()),
        ik_options_(ik_options),
        report_(report),
        previous_(context.start),
        before_previous_(context.start),
        flip_threshold_(model_.dof()),
        index_base_(static_cast<std::int64_t>(context.out.size()) - (context.Stores(0) ? 0 : 1)) {
    // A joint moving more than 10 samples' worth of its top speed (and at
    // least 0.5 rad / 0.05 m) between two samples has changed branch.
    for (int j = 0; j < model_.dof(); ++j) {
      const double floor = model_.dof_types[j] == JointType::kPrismatic ? 0.05 : 0.5;
      flip_threshold_[j] =
          std::max(floor, 10.0 * context.limits[j].max_velocity * context.sample_time);
    }
    // The local descent goes to near machine precision (one more Gauss-Newton
    // step than the tracking tolerance needs, quadratic convergence): IK
    // noise of 1e-7 rad would read as ~10 rad/s^3 of jerk in third
    // differences at 4 ms, an error of 1e-10 as ~0.01.
    local_.position_tolerance = kPolishedPosition;
    local_.orientation_tolerance = kPolishedOrientation;
    local_.max_iterations = 50;
  }

  // The sampler SampleSegment calls: false stops the segment (IK failed).
  bool Sample(double t, const PathProfile::State& state, SampleOut& out) {
    const std::int64_t index = index_base_ + sample_index_++;
    if (!Solve(t, state, index, out)) return false;
    CheckFlip(t, index, out.q);
    if (!singularity_reported_ && sample_index_ % kSingularityCheckInterval == 1) {
      CheckSingularity(t, index, out.q);
    }
    before_previous_ = previous_;
    previous_ = out.q;
    return true;
  }

 private:
  bool Solve(double t, const PathProfile::State& state, std::int64_t index, SampleOut& out) {
    const Pose commanded = path_(state.s);
    const Eigen::Isometry3d target = commanded.ToIsometry();
    // A local descent from the previous sample follows the same branch. On
    // a non-redundant chain (dof <= 6) the linear extrapolation of the last
    // two samples is a better start (it saves most of an iteration); on a
    // redundant arm it would carry the last step's null-space motion forward
    // undamped, so the joints keep drifting after the TCP stops
    // (acceleration spikes at the segment's end).
    if (model_.dof() <= 6) {
      data_.q = 2.0 * previous_ - before_previous_;
    } else {
      data_.q = previous_;
    }
    LevenbergMarquardtAttempt attempt = RunLevenbergMarquardt(model_, data_, target, tool_, local_);
    out.q = data_.q;
    out.tcp = Pose::FromIsometry(attempt.tcp);
    PoseError error = attempt.error;
    const bool tracked = attempt.converged || (error.position <= TrackingTolerances::kPosition &&
                                               error.rotation <= TrackingTolerances::kOrientation);
    if (!tracked) {  // the full solver, seeded with the previous sample
      const std::vector<double> seed(previous_.data(), previous_.data() + previous_.size());
      absl::StatusOr<IkResult> ik =
          SolveIk(model_, data_, commanded, segment_.tool, seed, ik_options_);
      if (!ik.ok() || !ik->ok) {
        AddSegmentDiagnostic(
            report_, Severity::kError, DiagnosticCode::kIkFailed,
            absl::StrCat("no IK solution at sample ", index, " (t = ", context_.start_time + t,
                         " s, at s = ", state.s, " of the path)",
                         ik.ok() ? absl::StrCat(": ", IkOutcomeName(ik->outcome)) : ""),
            index, context_.start_time + t);
        return false;
      }
      out.q = ik->joints;
      out.tcp = Pose::FromIsometry(ForwardKinematics(model_, data_.kinematics, out.q) * tool_);
      error.position = ik->position_error;
      error.rotation = ik->orientation_error;
      // Polish the full solver's answer as the local descent would have.
      data_.q = ik->joints;
      const LevenbergMarquardtAttempt polished =
          RunLevenbergMarquardt(model_, data_, target, tool_, local_);
      if (polished.error.position <= error.position && polished.error.rotation <= error.rotation) {
        out.q = data_.q;
        out.tcp = Pose::FromIsometry(polished.tcp);
        error = polished.error;
      }
    }
    report_.max_cartesian_error = std::max(report_.max_cartesian_error, error.position);
    if (!deviation_reported_ && (error.position > segment_.path_tolerance ||
                                 error.rotation > segment_.path_angle_tolerance)) {
      deviation_reported_ = true;
      AddSegmentDiagnostic(
          report_, Severity::kError, DiagnosticCode::kCartesianDeviation,
          absl::StrCat("the TCP is ", error.position, " m and ", error.rotation,
                       " rad from the programmed path at sample ", index, " (tolerance ",
                       segment_.path_tolerance, " m, ", segment_.path_angle_tolerance, " rad)"),
          index, context_.start_time + t);
      report_.diagnostics.back().value = error.position;
      report_.diagnostics.back().limit = segment_.path_tolerance;
    }
    return true;
  }

  void CheckFlip(double t, std::int64_t index, const Eigen::VectorXd& q) {
    for (int j = 0; j < model_.dof() && !flip_reported_; ++j) {
      const double jump = std::abs(q[j] - previous_[j]);
      if (jump <= flip_threshold_[j]) continue;
      flip_reported_ = true;
      AddSegmentDiagnostic(
          report_, Severity::kError, DiagnosticCode::kConfigurationFlip,
          absl::StrCat(model_.dof_names[j], " jumps by ", jump, " between samples ", index - 1,
                       " and ", index, ": the arm changes configuration"),
          index, context_.start_time + t);
      report_.diagnostics.back().joint_name = model_.dof_names[j];
      report_.diagnostics.back().value = jump;
      report_.diagnostics.back().limit = flip_threshold_[j];
    }
  }

  void CheckSingularity(double t, std::int64_t index, const Eigen::VectorXd& q) {
    singularity_reported_ = WarnIfNearSingular(model_, data_.kinematics, q, tool_, index,
                                               context_.start_time + t, report_);
  }

  const MotionSegment& segment_;
  const CartesianPath& path_;
  SegmentContext& context_;
  const ChainModel& model_;
  IkData& data_;
  const Eigen::Isometry3d tool_;
  const IkOptions& ik_options_;
  SegmentReport& report_;
  LevenbergMarquardtSettings local_;
  Eigen::VectorXd previous_, before_previous_;
  Eigen::VectorXd flip_threshold_;
  const std::int64_t index_base_;
  std::int64_t sample_index_ = 0;
  bool flip_reported_ = false, singularity_reported_ = false, deviation_reported_ = false;
};

// The next local slowdown of the programmed profile: where the audit of
// the samples of `timed` asks for a factor r > 1, the slowdown there is
// multiplied by r (and a 2 % margin, since re-timed samples fall elsewhere),
// then spread (a running maximum, then a running mean, over
// kSlowdownSpread on each side: never below what was asked, and smooth).
// `slowdown` holds k per dt of profile time and is updated.
std::shared_ptr<const TimeWarp> LocalSlowdown(const PathProfile& timed, const RateAudit& audit,
                                              bool with_jerk, double dt,
                                              std::vector<double>& slowdown) {
  const std::size_t nodes = static_cast<std::size_t>(std::ceil(timed.OwnDuration() / dt)) + 1;
  if (slowdown.size() != nodes) slowdown.assign(nodes, 1.0);
  const PathProfile on_grid = timed.OnGrid(dt);
  std::vector<double> need(nodes, 1.0);
  for (std::size_t k = 0; k < audit.ratio_at[0].size(); ++k) {
    const double r = audit.RequiredStretchAt(k, with_jerk);
    if (r <= 1.0) continue;
    const double tau = on_grid.ProfileTime(static_cast<double>(k) * dt);
    const std::size_t i = std::min(nodes - 1, static_cast<std::size_t>(std::lround(tau / dt)));
    need[i] = std::max(need[i], r * 1.02);
  }
  std::vector<double> raised(nodes);
  for (std::size_t i = 0; i < nodes; ++i) raised[i] = slowdown[i] * need[i];
  const long w = std::max(3L, std::lround(kSlowdownSpread / dt));
  const long n = static_cast<long>(nodes);
  // Running maximum over [i - w, i + w] with a deque of indices whose
  // values decrease: O(n) whatever w (at 0.1 ms samples w is 500).
  std::vector<double> widest(nodes);
  std::deque<long> window;
  for (long j = 0, i = -w; i < n; ++j, ++i) {
    if (j < n) {
      while (!window.empty() && raised[window.back()] <= raised[j]) window.pop_back();
      window.push_back(j);
    }
    if (i < 0) continue;
    while (window.front() < i - w) window.pop_front();
    widest[i] = std::max(1.0, raised[window.front()]);
  }
  // Running mean over the same window (ends held), by prefix sums.
  std::vector<double> prefix(nodes + 2 * w + 1, 0.0);
  for (long j = -w; j <= n - 1 + w; ++j) {
    prefix[j + w + 1] = prefix[j + w] + widest[std::clamp(j, 0L, n - 1)];
  }
  for (long i = 0; i < n; ++i) {
    const double mean = (prefix[i + 2 * w + 1] - prefix[i]) / static_cast<double>(2 * w + 1);
    slowdown[i] = std::max(slowdown[i], mean);
  }
  return std::make_shared<const TimeWarp>(slowdown, dt);
}

// SPEED_REDUCED: where the segment runs slower than programmed, by how
// much at most, and which joint asked for it first.
void ReportSpeedReduced(const ChainModel& model, double dt, const PathProfile& programmed,
                        const PathProfile& timed, const RateAudit& first_failure,
                        SegmentReport& report) {
  // Samples where the motion runs more than 0.1 % slower than programmed.
  std::int64_t first = -1, last = -1;
  double worst = 1.0;
  for (std::int64_t k = 0; k < report.point_count; ++k) {
    const double slow = timed.SlowdownAt(static_cast<double>(k) * dt);
    worst = std::max(worst, slow);
    if (slow > 1.001) {
      if (first < 0) first = k;
      last = k;
    }
  }
  if (first < 0) first = 0, last = report.point_count - 1;
  // The joint of the limit the programmed timing broke most.
  int kind = RateAudit::kVelocity;
  for (int k : {RateAudit::kAcceleration, RateAudit::kJerk}) {
    if (first_failure.ratio[k] > first_failure.ratio[kind]) kind = k;
  }
  const int joint = first_failure.joint[kind];
  AddSegmentDiagnostic(
      report, Severity::kWarning, DiagnosticCode::kSpeedReduced,
      absl::StrCat("slowed to ", 1.0 / worst, " of the programmed speed at most, over samples ",
                   report.first_index + first, " to ", report.first_index + last, " (",
                   timed.duration(), " s instead of ", programmed.duration(),
                   " s): ", joint >= 0 ? model.dof_names[joint] : std::string("a joint"),
                   " cannot follow the programmed TCP speed there"),
      report.first_index + first);
  report.diagnostics.back().value = 1.0 / worst;
  report.diagnostics.back().limit = 1.0;
  if (joint >= 0) report.diagnostics.back().joint_name = model.dof_names[joint];
}

}  // namespace

absl::Status TrackCartesianPath(const MotionSegment& segment, const CartesianPath& path,
                                const PathProfile& profile, SegmentContext& context,
                                SegmentReport& report, Eigen::VectorXd& end_joints) {
  end_joints = context.start;
  IkOptions ik_options;
  ik_options.position_tolerance = TrackingTolerances::kPosition;
  ik_options.orientation_tolerance = TrackingTolerances::kOrientation;
  absl::StatusOr<bool> reachable = EndIsReachable(segment, path, context, ik_options, report);
  if (!reachable.ok()) return reachable.status();
  if (!*reachable) return absl::OkStatus();

  // Timed at the programmed speed first. Where a joint cannot follow, the
  // path is re-timed: first locally (a smooth slowdown k(tau) >= 1 over the
  // programmed profile's time, raised where the audit of the sampled joints
  // asks and nowhere else), then, if that has not converged, uniformly. IK
  // along the path does not depend on the timing, only where samples fall.
  const bool with_jerk = context.profile == ProfileKind::kJerkLimited;
  const double dt = context.sample_time;
  PathProfile timed = profile;
  std::vector<double> slowdown;  // k per dt of the programmed profile's time
  RateAudit first_failure;
  for (int pass = 0;; ++pass) {
    SegmentReport attempt = report;
    CartesianTracker tracker(segment, path, context, ik_options, attempt);
    RateAudit failed;
    const bool last_pass = pass == kLocalRetimingPasses + kUniformRetimingPasses;
    absl::Status status = SampleSegment(
        context, timed, attempt,
        [&](double t, const PathProfile::State& state, SampleOut& out) {
          return tracker.Sample(t, state, out);
        },
        end_joints, /*rates_from_differences=*/true, last_pass ? nullptr : &failed);
    if (!status.ok()) return status;
    const double stretch = failed.RequiredStretch(with_jerk);
    if (stretch <= 1.0 || !attempt.ok) {
      report = std::move(attempt);
      if (timed.stretch() > 1.0 + 1e-9) {
        ReportSpeedReduced(context.model, dt, profile, timed, first_failure, report);
      }
      return absl::OkStatus();
    }
    if (pass == 0) first_failure = failed;
    if (pass < kLocalRetimingPasses) {
      timed = profile.Warped(LocalSlowdown(timed, failed, with_jerk, dt, slowdown));
    } else {
      // A little past the factor: the next samples fall elsewhere on the path.
      timed = timed.StretchedTo(timed.duration() * stretch * 1.02);
    }
  }
}

}  // namespace motion
