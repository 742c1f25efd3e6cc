#include "core/motion/cartesian_tracking.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <Eigen/SVD>

#include "absl/strings/str_cat.h"
#include "core/ik/ik_solver.h"
#include "core/ik/levenberg_marquardt_ik.h"
#include "core/kinematics/forward_kinematics.h"
#include "core/motion/segment_sampling.h"
#include "core/motion/trajectory_checks.h"

namespace motion {
namespace {

constexpr int kSingularityCheckInterval = 16;
constexpr double kSingularityThreshold = 1e-3;

}  // namespace

absl::StatusOr<TrapezoidProfile> CartesianProfile(const SpeedSpec& speed, double speed_override,
                                                  double length, double rotation) {
  const double v = speed.linear_velocity * speed_override;
  const double a = speed.linear_acceleration * speed_override;
  const double w = speed.angular_velocity * speed_override;
  const double alpha = speed.angular_acceleration * speed_override;
  double s_velocity = std::numeric_limits<double>::infinity();
  double s_acceleration = std::numeric_limits<double>::infinity();
  if (length > 1e-12) {
    s_velocity = v / length;
    s_acceleration = a / length;
  }
  if (rotation > 1e-12) {
    s_velocity = std::min(s_velocity, w / rotation);
    s_acceleration = std::min(s_acceleration, alpha / rotation);
  }
  if (!std::isfinite(s_velocity)) return TrapezoidProfile::Plan(0.0, 1.0, 1.0);
  return TrapezoidProfile::Plan(1.0, s_velocity, s_acceleration);
}

absl::Status TrackCartesianPath(const MotionSegment& segment, const CartesianPath& path,
                                const TrapezoidProfile& profile, SegmentContext& context,
                                SegmentReport& report, Eigen::VectorXd& end_joints) {
  const ChainModel& model = context.model;
  IkData& data = context.data;
  const Eigen::Isometry3d tool = segment.tool.ToIsometry();
  end_joints = context.start;

  IkOptions ik_options;
  ik_options.position_tolerance = TrackingTolerances::kPosition;
  ik_options.orientation_tolerance = TrackingTolerances::kOrientation;

  // Is the end reachable at all? Say so once instead of failing mid-path.
  {
    const std::vector<double> seed(context.start.data(),
                                   context.start.data() + context.start.size());
    absl::StatusOr<IkResult> end = SolveIk(model, data, path(1.0), segment.tool, seed, ik_options);
    if (!end.ok()) return end.status();
    if (!end->ok) {
      for (Diagnostic d : end->diagnostics) {
        d.segment_id = report.segment_id;
        d.message = absl::StrCat("target: ", d.message);
        report.diagnostics.push_back(std::move(d));
      }
      report.ok = false;
      return absl::OkStatus();
    }
  }

  Eigen::VectorXd flip_threshold(model.dof());
  for (int j = 0; j < model.dof(); ++j) {
    const double floor = model.dof_types[j] == JointType::kPrismatic ? 0.05 : 0.5;
    flip_threshold[j] =
        std::max(floor, 10.0 * model.dof_limits[j].max_velocity * context.sample_time);
  }
  LevenbergMarquardtSettings local;
  local.position_tolerance = TrackingTolerances::kPosition;
  local.orientation_tolerance = TrackingTolerances::kOrientation;
  local.max_iterations = 50;

  Eigen::VectorXd previous = context.start;
  Eigen::VectorXd before_previous = context.start;
  bool flip_reported = false, singularity_reported = false;
  std::int64_t sample_index = 0;
  const std::int64_t index_base =
      static_cast<std::int64_t>(context.out.size()) - (context.Stores(0) ? 0 : 1);
  auto sampler = [&](double t, const TrapezoidProfile::State& state, SampleOut& out) {
    const std::int64_t index = index_base + sample_index++;
    const Pose commanded = path(state.s);
    const Eigen::Isometry3d target = commanded.ToIsometry();
    // A local descent from the previous sample follows the same branch. On
    // a non-redundant chain (dof <= 6) the linear extrapolation of the last
    // two samples is a better start (it saves most of an iteration); on a
    // redundant arm it would carry the last step's null-space motion forward
    // undamped, so the joints keep drifting after the TCP stops
    // (acceleration spikes at the segment's end).
    if (model.dof() <= 6) {
      data.q = 2.0 * previous - before_previous;
    } else {
      data.q = previous;
    }
    LevenbergMarquardtAttempt attempt = RunLevenbergMarquardt(model, data, target, tool, local);
    out.q = data.q;
    out.tcp = Pose::FromIsometry(attempt.tcp);
    PoseError error = attempt.error;
    if (!attempt.converged) {
      const std::vector<double> seed(previous.data(), previous.data() + previous.size());
      absl::StatusOr<IkResult> ik = SolveIk(model, data, commanded, segment.tool, seed, ik_options);
      if (!ik.ok() || !ik->ok) {
        AddSegmentDiagnostic(
            report, Severity::kError, DiagnosticCode::kIkFailed,
            absl::StrCat("no IK solution at sample ", index, " (t = ", context.start_time + t,
                         " s, at s = ", state.s, " of the path)",
                         ik.ok() ? absl::StrCat(": ", IkOutcomeName(ik->outcome)) : ""),
            index, context.start_time + t);
        return false;
      }
      out.q = ik->joints;
      out.tcp = Pose::FromIsometry(ForwardKinematics(model, data.kinematics, out.q) * tool);
      error.position = ik->position_error;
      error.rotation = ik->orientation_error;
    }
    report.max_cartesian_error = std::max(report.max_cartesian_error, error.position);

    for (int j = 0; j < model.dof() && !flip_reported; ++j) {
      const double jump = std::abs(out.q[j] - previous[j]);
      if (jump > flip_threshold[j]) {
        flip_reported = true;
        AddSegmentDiagnostic(
            report, Severity::kError, DiagnosticCode::kConfigurationFlip,
            absl::StrCat(model.dof_names[j], " jumps by ", jump, " between samples ", index - 1,
                         " and ", index, ": the arm changes configuration"),
            index, context.start_time + t);
        report.diagnostics.back().joint_name = model.dof_names[j];
        report.diagnostics.back().value = jump;
        report.diagnostics.back().limit = flip_threshold[j];
      }
    }
    if (!singularity_reported && sample_index % kSingularityCheckInterval == 1) {
      Jacobian jacobian;
      ComputeJacobian(model, data.kinematics, out.q, tool, jacobian);
      const double sigma_min =
          Eigen::JacobiSVD<Eigen::MatrixXd>(jacobian).singularValues().tail<1>()[0];
      if (sigma_min < kSingularityThreshold) {
        singularity_reported = true;
        AddSegmentDiagnostic(report, Severity::kWarning, DiagnosticCode::kSingularity,
                             absl::StrCat("near a singularity at sample ", index,
                                          ": smallest singular value ", sigma_min),
                             index, context.start_time + t);
      }
    }
    before_previous = previous;
    previous = out.q;
    return true;
  };
  return SampleSegment(context, profile, report, sampler, end_joints,
                       /*rates_from_differences=*/true);
}

}  // namespace motion
