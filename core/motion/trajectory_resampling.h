#pragma once

#include <cstddef>
#include <vector>

#include "absl/status/statusor.h"
#include "core/motion/trajectory.h"

namespace motion {

/// \brief A joint trajectory from any source (`time` strictly increasing,
/// any spacing; `positions` n x dof row-major) on a uniform grid of
/// `sample_time` from its first time: positions, velocities and
/// accelerations of one interpolant, so the three agree with each other.
///
/// The interpolant is, per joint, the not-a-knot cubic spline through the
/// samples (exact for cubic polynomials; C2, no assumption about the ends):
/// 4 or more samples; 3 give the parabola, 2 the line, 1 a constant. The grid
/// runs t0 + k dt, k = 0..N with N = ceil(T / dt) (T the duration): when T
/// is not a multiple of dt the last grid time lies past the last sample,
/// which then holds the last position at rest (velocity and acceleration 0).
/// tcp is left empty.
///
/// InvalidArgument names `time[k]`, `positions[k]` (CheckJointSamples),
/// `sample_time` (finite, > 0), or the number of samples above `max_points`.
absl::StatusOr<Trajectory> ResampleJointTrajectory(int dof, const std::vector<double>& time,
                                                   const std::vector<double>& positions,
                                                   double sample_time, std::size_t max_points);

}  // namespace motion
