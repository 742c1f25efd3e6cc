#include "core/motion/internal/cartesian_tracking.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <Eigen/SVD>

#include "absl/strings/str_cat.h"
#include "core/ik/ik_solver.h"
#include "core/ik/internal/levenberg_marquardt_ik.h"
#include "core/kinematics/forward_kinematics.h"
#include "core/motion/internal/segment_sampling.h"
#include "core/motion/internal/trajectory_checks.h"

namespace motion {
namespace {

constexpr int kSingularityCheckInterval = 16;
// Where the local descent per sample stops (see CartesianTracker).
constexpr double kPolishedPosition = 1e-11;     // m
constexpr double kPolishedOrientation = 1e-10;  // rad
// Re-timings of a Cartesian segment before the audit's verdict stands.
constexpr int kMaxRetimingPasses = 4;
constexpr double kSingularityThreshold = 1e-3;

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
  for (Diagnostic d : end->diagnostics) {
    d.segment_id = report.segment_id;
    d.message = absl::StrCat("target: ", d.message);
    report.diagnostics.push_back(std::move(d));
  }
  report.ok = false;
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
    const bool tracked = attempt.converged ||
                         (error.position <= TrackingTolerances::kPosition &&
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
    }
    report_.max_cartesian_error = std::max(report_.max_cartesian_error, error.position);
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
    Jacobian jacobian;
    ComputeJacobian(model_, data_.kinematics, q, tool_, jacobian);
    const double sigma_min =
        Eigen::JacobiSVD<Eigen::MatrixXd>(jacobian).singularValues().tail<1>()[0];
    if (sigma_min >= kSingularityThreshold) return;
    singularity_reported_ = true;
    AddSegmentDiagnostic(report_, Severity::kWarning, DiagnosticCode::kSingularity,
                         absl::StrCat("near a singularity at sample ", index,
                                      ": smallest singular value ", sigma_min),
                         index, context_.start_time + t);
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
  bool flip_reported_ = false, singularity_reported_ = false;
};

// SPEED_REDUCED: the segment runs slower than programmed, by how much.
void ReportSpeedReduced(const PathProfile& programmed, const PathProfile& timed,
                        SegmentReport& report) {
  const double fraction = programmed.duration() / timed.duration();
  AddSegmentDiagnostic(
      report, Severity::kWarning, DiagnosticCode::kSpeedReduced,
      absl::StrCat("slowed to ", fraction, " of the programmed speed over the whole segment (",
                   timed.duration(), " s instead of ", programmed.duration(),
                   " s): the joints cannot follow the programmed TCP speed; samples ",
                   report.first_index, " to ", report.first_index + report.point_count - 1),
      report.first_index);
  report.diagnostics.back().value = fraction;
  report.diagnostics.back().limit = 1.0;
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

  // Timed at the programmed speed first. If a joint cannot follow, the same
  // path is played slower (uniformly in time: every joint rate scales by a
  // power of the stretch), by the factor the audit of the sampled joints
  // asks for, until it fits; IK along the path differs only in where the
  // samples fall, so one or two passes do.
  PathProfile timed = profile;
  for (int pass = 0;; ++pass) {
    SegmentReport attempt = report;
    CartesianTracker tracker(segment, path, context, ik_options, attempt);
    double stretch = 1.0;
    const bool last_pass = pass == kMaxRetimingPasses;
    absl::Status status = SampleSegment(
        context, timed, attempt,
        [&](double t, const PathProfile::State& state, SampleOut& out) {
          return tracker.Sample(t, state, out);
        },
        end_joints, /*rates_from_differences=*/true, last_pass ? nullptr : &stretch);
    if (!status.ok()) return status;
    if (stretch <= 1.0 || !attempt.ok) {
      report = std::move(attempt);
      if (timed.stretch() > 1.0 + 1e-9) ReportSpeedReduced(profile, timed, report);
      return absl::OkStatus();
    }
    // A little past the factor: the next samples fall elsewhere on the path.
    timed = timed.StretchedTo(timed.duration() * stretch * 1.02);
  }
}

}  // namespace motion
