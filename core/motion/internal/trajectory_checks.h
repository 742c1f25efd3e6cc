#pragma once

#include <vector>

#include "core/model/chain_model.h"
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

/// \brief Adds a diagnostic tied to a sample of `trajectory` (index -1: none).
void AddSegmentDiagnostic(SegmentReport& report, Severity severity, DiagnosticCode code,
                          std::string message, std::int64_t point_index = -1, double time = 0.0);

}  // namespace motion
