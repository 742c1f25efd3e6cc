#pragma once

#include <functional>
#include <vector>

#include <Eigen/Core>

#include "absl/status/status.h"
#include "core/dynamics/trajectory_torque.h"
#include "core/motion/internal/rate_audit.h"
#include "core/motion/internal/segment_context.h"
#include "core/profile/path_profile.h"

namespace motion {

/// \brief One sample as a segment planner computes it.
struct SampleOut {
  Eigen::VectorXd q, qd, qdd;
  Pose tcp;
};

/// \brief Computes the sample at local time t from the profile state; false
/// stops the segment (the sampler has put a diagnostic on the report).
using Sampler = std::function<bool(double t, const PathProfile::State& state, SampleOut& out)>;

/// \brief What SampleSegment found the sampled motion to need beyond the
/// joints' torque limits, when asked to refuse such a motion instead of
/// appending it (the caller then times it again, slower where it must be).
struct TorqueRefusal {
  /// In: a probe appends nothing whatever the torque (it only measures).
  bool probe = false;
  bool refused = false;
  TorqueRatio worst;  ///< the worst |tau| / max_torque, its DOF and sample
  /// The joints at that sample, and their rates as SampledTorqueRatio takes
  /// them (CentralDifferences).
  Eigen::VectorXd q, qd, qdd;
  double time = 0.0;  ///< its local time
};

/// \brief The checks of sampled positions a caller has already made, so
/// that AppendSegmentSamples does not make them again.
struct SampledChecks {
  RateAudit audit;     ///< AuditRates of the positions
  TorqueRatio torque;  ///< SampledTorqueRatio (unused without dynamics)
};

/// \brief The audit of a segment's sampled positions `q`: at rest after
/// its end, and before its start at rest (its first sample is stored: the
/// trajectory is empty or resumes elsewhere) or the trajectory's samples
/// before it (AuditContinuing, from context.continuous_from).
RateAudit AuditSegmentRates(const SegmentContext& context, const std::vector<double>& q);

/// \brief Runs `sampler` on the uniform grid k * dt of the profile stretched
/// to end on it (PathProfile::OnGrid: at most one sample time longer, every
/// limit kept), and appends the samples to context.out (sample 0 only when
/// the trajectory is empty or discontinuous, see SegmentContext::Stores).
///
/// Every segment is audited from its sampled positions (AuditRates:
/// divided differences, at rest after its end; where it continues the
/// trajectory, with the samples before it, AuditContinuing): the report's velocity,
/// acceleration and jerk ratios are the worst of the audit and of the
/// rates sent, and an error diagnostic names any joint beyond a limit (jerk
/// only for a jerk-limited profile); with context.dynamics its torques too
/// (SampledTorqueRatio, a TORQUE_LIMIT error beyond a max_torque). With
/// `refusal`, a segment whose sampled torque breaks a limit is not appended:
/// *refusal says where and by how much, for the caller to time it again (a
/// probe appends nothing and says the worst torque either way).
/// Fills start_time, duration, first_index, point_count and the limit checks
/// of the report; on a sampler failure the segment's samples are dropped and
/// report.ok is false. Returns InvalidArgument over the point budget
/// (checked before the first sample) and Cancelled when context.cancelled
/// fires. When only the junction with the samples before breaks a limit
/// (the segment keeps them from rest; after a segment of a few samples),
/// the profile is played uniformly slower until it does not, at most a few
/// times, unless `follows_profile` is false (a sampler that keeps its own
/// timing and reads only the time would not slow down).
absl::Status SampleSegment(SegmentContext& context, const PathProfile& profile,
                           SegmentReport& report, const Sampler& sampler,
                           Eigen::VectorXd& end_joints, TorqueRefusal* refusal = nullptr,
                           bool follows_profile = true);

/// \brief Appends samples already computed at local `times` (0, dt, ...)
/// to context.out as SampleSegment does after sampling (sample 0 only when
/// context.Stores(0)), audits them (AuditRates, divided differences of `q`)
/// and checks them as stored (CheckTrajectoryLimits), with the report's
/// start time, duration, indices, ratios and limit errors; end_joints is
/// the last row of `q`. Sets context.completed. `known`: the audit and
/// torque of `q` when the caller has them already.
void AppendSegmentSamples(SegmentContext& context, SegmentReport& report,
                          const std::vector<double>& times, const std::vector<double>& q,
                          const std::vector<double>& qd, const std::vector<double>& qdd,
                          const std::vector<Pose>& tcp, Eigen::VectorXd& end_joints,
                          const SampledChecks* known = nullptr);

}  // namespace motion
