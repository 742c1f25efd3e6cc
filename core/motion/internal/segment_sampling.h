#pragma once

#include <functional>
#include <vector>

#include <Eigen/Core>

#include "absl/status/status.h"
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

/// \brief Runs `sampler` on the uniform grid k * dt of the profile stretched
/// to end on it (PathProfile::OnGrid: at most one sample time longer, every
/// limit kept), and appends the samples to context.out (sample 0 only when
/// the trajectory is empty or discontinuous, see SegmentContext::Stores).
///
/// Every segment is audited from its sampled positions alone (AuditRates:
/// divided differences, at rest at both ends): the report's velocity,
/// acceleration and jerk ratios are the worst of the audit and of the
/// rates sent, and an error diagnostic names any joint beyond a limit (jerk
/// only for a jerk-limited profile). With `failed_audit`, a segment whose
/// audit breaks a limit is not appended: the audit goes to *failed_audit
/// (its RequiredStretch() > 1, per-sample needs in ratio_at) for the caller
/// to re-time with; when the segment was appended its RequiredStretch() is 1.
///
/// With `rates_from_differences`, qd and qdd are not taken from the sampler
/// but computed after the fact by second-order finite differences on the
/// (possibly non-uniform) sample times, with zero velocity at both ends
/// (every segment starts and stops at rest). Fills start_time, duration,
/// first_index, point_count and the limit checks of the report; on a
/// sampler failure the segment's samples are dropped and report.ok is false.
/// Returns InvalidArgument over the point budget (checked before the first
/// sample) and Cancelled when context.cancelled fires.
absl::Status SampleSegment(SegmentContext& context, const PathProfile& profile,
                           SegmentReport& report, const Sampler& sampler,
                           Eigen::VectorXd& end_joints, bool rates_from_differences = false,
                           RateAudit* failed_audit = nullptr);

/// \brief Appends samples already computed at local `times` (0, dt, ...)
/// to context.out as SampleSegment does after sampling (sample 0 only when
/// context.Stores(0)), audits them (AuditRates, divided differences of `q`)
/// and checks them as stored (CheckTrajectoryLimits), with the report's
/// start time, duration, indices, ratios and limit errors; end_joints is
/// the last row of `q`. Sets context.completed.
void AppendSegmentSamples(SegmentContext& context, SegmentReport& report,
                          const std::vector<double>& times, const std::vector<double>& q,
                          const std::vector<double>& qd, const std::vector<double>& qdd,
                          const std::vector<Pose>& tcp, Eigen::VectorXd& end_joints);

}  // namespace motion
