#pragma once

#include <vector>

#include <Eigen/Core>

#include "absl/status/status.h"
#include "core/motion/internal/cartesian_joint_curve.h"
#include "core/motion/internal/curve_timing.h"
#include "core/motion/internal/segment_context.h"
#include "core/motion/motion_request.h"
#include "core/profile/path_profile.h"

namespace motion {

/// \brief The TCP's own timing of a Cartesian path of `length` (m) that
/// turns the tool by `rotation` (rad): a profile of `kind` over sigma in
/// [0, 1], sigma'_max = min(v / length, w / rotation), and likewise for
/// acceleration and jerk (the fastest under the segment's TCP limits).
absl::StatusOr<PathProfile> CartesianProfile(const SpeedSpec& speed, ProfileKind kind,
                                             double length, double rotation);

/// \brief Plans a MoveL/MoveC in two steps, the path, then the time:
///
/// 1. The path becomes a joint curve q(sigma) (BuildCartesianJointCurve:
///    continuation with error-controlled knots, quintic Hermite pieces,
///    the TCP within the segment's path tolerances between knots).
/// 2. The programmed timing (CartesianProfile) when the joints follow it
///    within every limit, else the fastest timing sigma(t) along the curve
///    (SolvePathTiming) within every
///    joint's velocity, acceleration and (jerk-limited profile) jerk limit
///    and the segment's TCP linear and angular velocity, acceleration and
///    jerk, at rest at both ends; speed_override then plays it uniformly
///    slower in time (velocity x f, acceleration x f^2, jerk x f^3), and it
///    is stretched to end on the sample grid.
///
/// Sampled on the grid, every sample's TCP is checked by FK against the
/// programmed path (CARTESIAN_DEVIATION beyond the tolerances) and every
/// joint audited by divided differences (SampleSegment's audit). Where the
/// joints hold the TCP below what the segment's own limits allow, a
/// SPEED_REDUCED warning says over which samples, by how much at most and
/// which joint binds; elsewhere the TCP runs at the programmed speed.
///
/// Reports, on the segment: the target unreachable (before anything is
/// built), a path the arm cannot follow (IK_FAILED, CONFIGURATION_FLIP or
/// SINGULARITY as errors naming where), near-singular samples (warning).
///
/// With extent.rates (a blended run) the timing is always the fastest along
/// the curve: the programmed one is uniform in sigma and only the reference.
/// `detail`, when given, asks for more of the result (see TrackingDetail).
struct TrackingDetail {
  std::vector<double> stops;      ///< in: sigma where a stop is priced (StopCosts)
  std::vector<double> sigma;      ///< out: sigma of every sample, sample 0 first
  std::vector<double> stop_cost;  ///< out: per stop, s (path time) a stop there would cost
  bool programmed = false;        ///< out: the programmed timing was kept, unchanged
};
absl::Status TrackCartesianPath(const MotionSegment& segment, const CartesianPath& path,
                                const CartesianExtent& extent, SegmentContext& context,
                                SegmentReport& report, Eigen::VectorXd& end_joints,
                                TrackingDetail* detail = nullptr);

}  // namespace motion
