#pragma once

#include <functional>

#include <Eigen/Core>

#include "absl/status/status.h"
#include "core/motion/internal/segment_context.h"
#include "core/motion/motion_request.h"
#include "core/profile/path_profile.h"

namespace motion {

/// \brief TCP pose (base frame) at path parameter sigma in [0, 1].
using CartesianPath = std::function<Pose(double sigma)>;

/// \brief Tolerances of the IK at every sample of a Cartesian path: tighter
/// than the default IK's so the executed TCP stays on the commanded path to
/// well under 1e-5 m / 1e-4 rad.
struct TrackingTolerances {
  static constexpr double kPosition = 1e-7;     ///< m
  static constexpr double kOrientation = 1e-6;  ///< rad
};

/// \brief The Cartesian speed limits of a segment (defaults already
/// resolved: ResolveProgramDefaults) scaled by the override, as a profile of
/// `kind` over sigma in [0, 1] for a path of `length` (m) that turns the
/// tool by `rotation` (rad): sigma'_max = min(v / length, w / rotation),
/// and likewise for acceleration and jerk.
absl::StatusOr<PathProfile> CartesianProfile(const SpeedSpec& speed, ProfileKind kind,
                                             double speed_override, double length, double rotation);

/// \brief Samples a MoveL/MoveC: solves IK at every sample seeded with the
/// previous one (a local descent first; restarts only if that fails), and
/// reports on the segment: the end target unreachable (checked first, no
/// sampling), IK failures (with the sample index), configuration flips (a
/// joint jumping more than max(0.5 rad or 0.05 m, 10 v_max dt) between
/// samples), near-singular samples (sigma_min below 1e-3, checked every 16th
/// sample), joint limits, joint velocities and accelerations (finite
/// differences), and the largest Cartesian error of the executed TCP.
///
/// When the joints cannot follow `profile` (their sampled positions break a
/// velocity, acceleration or jerk limit), the segment is played uniformly
/// slower, as much as the audit of its joints asks, and says SPEED_REDUCED
/// (warning) with the fraction of the programmed speed; a path that still
/// breaks a limit after that keeps its errors.
absl::Status TrackCartesianPath(const MotionSegment& segment, const CartesianPath& path,
                                const PathProfile& profile, SegmentContext& context,
                                SegmentReport& report, Eigen::VectorXd& end_joints);

}  // namespace motion
