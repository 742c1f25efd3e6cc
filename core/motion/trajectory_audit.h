#pragma once

#include <cstddef>
#include <vector>

#include "absl/status/statusor.h"
#include "core/diagnostics/diagnostic.h"
#include "core/model/chain_model.h"
#include "core/model/joint_limits.h"

namespace motion {

/// \brief What AuditJointTrajectory found.
struct TrajectoryAudit {
  bool ok = true;  ///< no error diagnostic
  /// One JOINT_LIMIT error per joint at its first sample outside
  /// [lower, upper]; one VELOCITY_LIMIT, ACCEL_LIMIT or JERK_LIMIT error per
  /// joint and kind at the sample where that joint's rate is worst. Each
  /// names the joint, the point index and time, the value and the limit.
  std::vector<Diagnostic> diagnostics;
  double max_joint_velocity_ratio = 0.0;      ///< worst |qd| / limit, every joint and sample
  double max_joint_acceleration_ratio = 0.0;  ///< worst |qdd| / limit
  double max_joint_jerk_ratio = 0.0;          ///< worst |qddd| / limit
  double cycle_time = 0.0;                    ///< last time - first time, s
  double sample_time = 0.0;                   ///< the grid's spacing, s (0 for one sample)
};

/// \brief Audits a joint trajectory from any source as motiond audits its
/// own: positions against the joint limits, and velocity, acceleration and
/// jerk as first, second and third divided differences of the positions on
/// the uniform grid against `limits` (per DOF of `model`), the arm at rest
/// before the first and after the last sample (the robot holds them).
///
/// `time` (n samples, s) must be finite and on a uniform grid (each time
/// within 1e-6 of a spacing of its grid point; ResampleTrajectory puts a
/// trajectory on one), `positions` n x dof row-major and finite, n >= 1.
/// InvalidArgument names `time[k]` or `positions[k]` otherwise.
absl::StatusOr<TrajectoryAudit> AuditJointTrajectory(const ChainModel& model,
                                                     const std::vector<JointLimits>& limits,
                                                     const std::vector<double>& time,
                                                     const std::vector<double>& positions);

}  // namespace motion
