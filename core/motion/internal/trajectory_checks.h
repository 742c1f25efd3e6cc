#pragma once

#include <vector>

#include "absl/strings/string_view.h"

#include <Eigen/Geometry>

#include "core/kinematics/chain_data.h"
#include "core/model/chain_model.h"
#include "core/motion/internal/rate_audit.h"
#include "core/motion/trajectory.h"

namespace motion {

/// \brief Checks samples [first, trajectory.size()) as stored (positions,
/// and the velocities and accelerations sent to the client) against
/// `limits` (per DOF) and fills the report: the largest |qd|/v_max and
/// |qdd|/a_max over every joint and sample, and one error diagnostic per
/// joint and kind at the first sample where it breaks a position, velocity or
/// acceleration limit (with the joint, value, limit, sample index and time).
void CheckTrajectoryLimits(const ChainModel& model, const std::vector<JointLimits>& limits,
                           const Trajectory& trajectory, std::size_t first, SegmentReport& report);

/// \brief Widens the report's velocity, acceleration and jerk ratios to
/// the audit's where those are larger.
void WidenRateRatios(const RateAudit& audit, SegmentReport& report);

/// \brief Samples are checked for singularity every kSingularityCheckInterval
/// samples: a smallest singular value of the Jacobian at the TCP below
/// kSingularityThreshold is one SINGULARITY warning per segment.
inline constexpr int kSingularityCheckInterval = 16;
inline constexpr double kSingularityThreshold = 1e-3;

/// \brief The SINGULARITY warning for `q` (sample `index`, path time
/// `time`) if it is near-singular; true when it added one.
bool WarnIfNearSingular(const ChainModel& model, ChainData& data, const Eigen::VectorXd& q,
                        const Eigen::Isometry3d& tool, std::int64_t index, double time,
                        SegmentReport& report);

/// \brief A failed IK of one of the segment's points (its target, a MoveC's
/// via) on the report: the IK's diagnostics, on the segment, their messages
/// led by `what` ("target", "via"); the segment is not ok.
void ReportFailedIk(const std::vector<Diagnostic>& ik_diagnostics, absl::string_view what,
                    SegmentReport& report);

/// \brief Adds a diagnostic tied to a sample of `trajectory` (index -1: none).
void AddSegmentDiagnostic(SegmentReport& report, Severity severity, DiagnosticCode code,
                          std::string message, std::int64_t point_index = -1, double time = 0.0);

}  // namespace motion
