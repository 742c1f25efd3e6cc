#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/profile/path_profile.h"

namespace motion {

/// \brief What a client asks of one path-parameter profile: the inputs the
/// planner gives its own profiles.
struct ProfileQuery {
  ProfileKind kind = ProfileKind::kJerkLimited;
  double length = 0.0;  ///< >= 0 (m, rad or any unit the limits share)
  double max_velocity = 0.0;
  double max_acceleration = 0.0;
  double max_jerk = 0.0;  ///< kJerkLimited only
  double start_velocity = 0.0;
  double end_velocity = 0.0;
  /// > 0: rest to rest lasting exactly this long, as a MoveJ plays every
  /// joint but the slowest (a lower peak speed at the same acceleration and
  /// jerk for the double-S; the same profile played slower for the
  /// trapezoid). 0: the time-optimal profile.
  double duration = 0.0;
  /// > 0: sample the profile every sample_time (and at its end).
  double sample_time = 0.0;
  /// With sample_time: stretched to end on a whole number of sample times,
  /// as the planner ends every segment on its grid.
  bool on_grid = false;
};

/// \brief One phase of constant jerk (double-S) or constant acceleration
/// (trapezoid), in the profile's own order; phases of zero length kept, so
/// a kind always has the same phases (seven, or three).
struct ProfilePhase {
  std::string name;  ///< e.g. "accel_jerk_up", "cruise", "decelerate"
  double start_time = 0.0;
  double duration = 0.0;
  double start_position = 0.0;
  double start_velocity = 0.0;
  double acceleration = 0.0;  ///< at the start (constant in trapezoid phases)
  double jerk = 0.0;          ///< constant in the phase (0 for the trapezoid)
};

struct ProfileDescription {
  double duration = 0.0;
  /// The played duration over the profile's own (>= 1; 1 unless stretched
  /// to a duration or a grid).
  double stretch = 1.0;
  double peak_velocity = 0.0;
  double peak_acceleration = 0.0;  ///< >= 0, while speeding up
  double peak_deceleration = 0.0;  ///< >= 0, while slowing down
  double peak_jerk = 0.0;          ///< 0 for the trapezoid (infinite at its switches)
  std::vector<ProfilePhase> phases;
  /// With sample_time: the grid (0, dt, ..., duration) and the state there.
  std::vector<double> time, s, sd, sdd, sddd;
};

/// \brief The profile the planner would play for `query`, with its phases,
/// peaks and (optionally) samples. InvalidArgument naming the ProfileQuery
/// field (length, max_velocity, ..., duration, sample_time) for what no
/// profile can satisfy; more than `max_samples` samples is refused before
/// any is made.
absl::StatusOr<ProfileDescription> DescribeProfile(const ProfileQuery& query, double max_samples);

}  // namespace motion
