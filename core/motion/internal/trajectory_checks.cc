#include "core/motion/internal/trajectory_checks.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include <Eigen/Eigenvalues>

#include "absl/strings/str_cat.h"
#include "core/kinematics/jacobian.h"

namespace motion {
namespace {

// Tolerance on "within the limit": sampled profiles are exact to rounding,
// finite differences to a few ulps of the sample spacing.
constexpr double kRatioSlack = 1e-6;

// The smallest singular value of J, as the square root of the smallest
// eigenvalue of its Gram matrix (J J^T, 6 x 6, for 6 or more joints; J^T J
// otherwise): a fixed-size symmetric eigenproblem costs a fraction of a
// dynamic SVD, and the root loses nothing near the 1e-3 threshold (its
// error is about 1e-8 for singular values of order 1).
double SmallestSingularValue(const Jacobian& j) {
  if (j.cols() >= 6) {
    const Eigen::Matrix<double, 6, 6> gram = j * j.transpose();
    const Eigen::SelfAdjointEigenSolver<Eigen::Matrix<double, 6, 6>> eigen(gram,
                                                                           Eigen::EigenvaluesOnly);
    return std::sqrt(std::max(0.0, eigen.eigenvalues()[0]));
  }
  const Eigen::MatrixXd gram = j.transpose() * j;
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(gram, Eigen::EigenvaluesOnly);
  return std::sqrt(std::max(0.0, eigen.eigenvalues()[0]));
}

}  // namespace

bool WarnIfNearSingular(const ChainModel& model, ChainData& data, const Eigen::VectorXd& q,
                        const Eigen::Isometry3d& tool, std::int64_t index, double time,
                        SegmentReport& report) {
  Jacobian jacobian;
  ComputeJacobian(model, data, q, tool, jacobian);
  const double sigma_min = SmallestSingularValue(jacobian);
  if (sigma_min >= kSingularityThreshold) return false;
  AddSegmentDiagnostic(
      report, Severity::kWarning, DiagnosticCode::kSingularity,
      absl::StrCat("near a singularity at sample ", index, ": smallest singular value ", sigma_min),
      index, time);
  return true;
}

void ReportFailedIk(const std::vector<Diagnostic>& ik_diagnostics, absl::string_view what,
                    SegmentReport& report) {
  for (Diagnostic d : ik_diagnostics) {
    d.segment_id = report.segment_id;
    d.message = absl::StrCat(what, ": ", d.message);
    report.diagnostics.push_back(std::move(d));
  }
  report.ok = false;
}

void WidenRateRatios(const RateAudit& audit, SegmentReport& report) {
  report.max_joint_velocity_ratio =
      std::max(report.max_joint_velocity_ratio, audit.ratio[RateAudit::kVelocity]);
  report.max_joint_acceleration_ratio =
      std::max(report.max_joint_acceleration_ratio, audit.ratio[RateAudit::kAcceleration]);
  report.max_joint_jerk_ratio =
      std::max(report.max_joint_jerk_ratio, audit.ratio[RateAudit::kJerk]);
}

void AddSegmentDiagnostic(SegmentReport& report, Severity severity, DiagnosticCode code,
                          std::string message, std::int64_t point_index, double time) {
  Diagnostic d;
  d.severity = severity;
  d.code = code;
  d.message = std::move(message);
  d.segment_id = report.segment_id;
  d.point_index = point_index;
  d.time = time;
  report.diagnostics.push_back(std::move(d));
  if (severity == Severity::kError) report.ok = false;
}

void CheckTrajectoryLimits(const ChainModel& model, const std::vector<JointLimits>& limits,
                           const Trajectory& t, std::size_t first, SegmentReport& report) {
  const int dof = model.dof();
  std::vector<bool> position_reported(dof), velocity_reported(dof), acceleration_reported(dof);
  for (std::size_t k = first; k < t.size(); ++k) {
    for (int j = 0; j < dof; ++j) {
      const JointLimits& l = limits[j];
      const double q = t.positions[k * dof + j];
      const double qd = t.velocities[k * dof + j];
      const double qdd = t.accelerations[k * dof + j];
      const double v_ratio = std::abs(qd) / l.max_velocity;
      const double a_ratio = std::abs(qdd) / l.max_acceleration;
      report.max_joint_velocity_ratio = std::max(report.max_joint_velocity_ratio, v_ratio);
      report.max_joint_acceleration_ratio = std::max(report.max_joint_acceleration_ratio, a_ratio);
      auto add = [&](DiagnosticCode code, const char* what, double value, double limit) {
        Diagnostic d;
        d.severity = Severity::kError;
        d.code = code;
        d.segment_id = report.segment_id;
        d.point_index = static_cast<std::int64_t>(k);
        d.time = t.time[k];
        d.joint_name = model.dof_names[j];
        d.value = value;
        d.limit = limit;
        d.message = absl::StrCat(model.dof_names[j], " ", what, " ", value, " exceeds its limit ",
                                 limit, " at sample ", k, " (t = ", t.time[k], " s)");
        report.diagnostics.push_back(std::move(d));
        report.ok = false;
      };
      if (l.bounded && !position_reported[j] && (q < l.lower - 1e-9 || q > l.upper + 1e-9)) {
        position_reported[j] = true;
        add(DiagnosticCode::kJointLimit, "position", q, q < l.lower ? l.lower : l.upper);
      }
      if (!velocity_reported[j] && v_ratio > 1 + kRatioSlack) {
        velocity_reported[j] = true;
        add(DiagnosticCode::kVelocityLimit, "velocity", qd, l.max_velocity);
      }
      if (!acceleration_reported[j] && a_ratio > 1 + kRatioSlack) {
        acceleration_reported[j] = true;
        add(DiagnosticCode::kAccelLimit, "acceleration", qdd, l.max_acceleration);
      }
    }
  }
}

}  // namespace motion
