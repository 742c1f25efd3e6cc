#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <Eigen/Core>

#include "core/diagnostics/diagnostic.h"
#include "core/dynamics/dynamics_data.h"
#include "core/dynamics/payload.h"
#include "core/model/chain_model.h"
#include "core/model/joint_limits.h"

namespace motion {

/// \brief The worst |tau| / max_torque of a sampled motion, and where.
struct TorqueRatio {
  double ratio = 0.0;        ///< max over samples and DOF with a known max_torque; 0 if none
  int dof = -1;              ///< index in ChainModel::dof_names, -1 if no DOF has a limit
  std::int64_t sample = -1;  ///< index in the positions given
  double torque = 0.0;       ///< N*m or N, signed, at (sample, dof)
  double limit = 0.0;        ///< that DOF's max_torque
};

/// \brief The joint torques of a trajectory sampled on a uniform grid, from its positions alone
/// (the same footing as the divided-difference audit of velocity, acceleration and jerk).
///
/// Samples i = 0 .. n-1 of `positions` (row-major n x dof, rad / m) are dt apart. Velocity and
/// acceleration are central differences, qd_i = (q_{i+1} - q_{i-1}) / 2dt and
/// qdd_i = (q_{i+1} - 2 q_i + q_{i-1}) / dt^2, with the motion at rest before the first sample
/// and after the last (q_{-1} = q_0, q_n = q_{n-1}). Only samples [first, first + count) are
/// evaluated (count < 0: to the end), so a segment of a path can be judged with its neighbours'
/// samples as context and its own payload. DOF whose max_torque is 0 (unknown) are skipped.
///
/// \param[in] limits     per DOF (ChainModel::dof_limits with overrides applied)
/// \param[out] torques   if not null, row-major count x dof torques of the evaluated samples
/// Preconditions: positions.size() is a multiple of model.dof(); dt > 0; limits.size() == dof.
TorqueRatio SampledTorqueRatio(const ChainModel& model, DynamicsData& data,
                               const std::vector<JointLimits>& limits,
                               const std::vector<double>& positions, double dt,
                               const Eigen::Vector3d& gravity, const Payload& payload,
                               std::int64_t first = 0, std::int64_t count = -1,
                               std::vector<double>* torques = nullptr);

/// \brief The rates SampledTorqueRatio judges sample i of `positions` (row-major n x dof, dt
/// apart) by: central differences, the motion at rest before the first sample and after the
/// last. Allocation-free when qd and qdd already have dof entries.
void CentralDifferences(const std::vector<double>& positions, int dof, double dt, std::int64_t i,
                        Eigen::VectorXd& qd, Eigen::VectorXd& qdd);

/// \brief The TORQUE_LIMIT error for `worst` when its ratio exceeds 1 + `tolerance`, else nothing:
/// joint_name, value = |torque|, limit, point_index = first_index + worst.sample (the sample's
/// index in the whole trajectory when `positions` was a slice starting there) and a message with
/// the numbers. The caller adds segment_id, time and source.
std::optional<Diagnostic> TorqueLimitError(const ChainModel& model, const TorqueRatio& worst,
                                           std::int64_t first_index = 0, double tolerance = 0.0);

}  // namespace motion
