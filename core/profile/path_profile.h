#pragma once

#include <variant>

#include "absl/status/statusor.h"

#include <memory>

#include "core/profile/double_s_profile.h"
#include "core/profile/time_warp.h"
#include "core/profile/trapezoid_profile.h"

namespace motion {

/// \brief How a segment's path parameter is timed.
enum class ProfileKind {
  kJerkLimited,  ///< double-S: velocity, acceleration and jerk limited (default)
  kTrapezoid,    ///< velocity and acceleration only: jerk unbounded at phase switches
};

/// \brief How a segment's path parameter s moves from 0 to its length: a
/// jerk-limited (double-S) or a trapezoid profile, possibly slowed in time.
///
/// StretchedTo(T') plays the same profile slower, s'(t) = s(k t) with
/// k = T / T' <= 1: velocity scales by k, acceleration by k^2, jerk by k^3,
/// so every limit that held still holds. Planners use it to end each segment
/// on the sample grid (T' = a whole number of sample times) and to slow a
/// Cartesian motion that a joint cannot follow.
class PathProfile {
 public:
  struct State {
    double s = 0.0;
    double sd = 0.0;
    double sdd = 0.0;
    double sddd = 0.0;  ///< 0 between a trapezoid's phases (infinite at its switches)
  };

  explicit PathProfile(TrapezoidProfile profile) : profile_(std::move(profile)) {}
  explicit PathProfile(DoubleSProfile profile) : profile_(std::move(profile)) {}

  double duration() const;
  State At(double t) const;
  /// \brief The same motion lasting `duration` (>= duration(); a shorter
  /// value is taken as duration()).
  PathProfile StretchedTo(double duration) const;
  /// \brief The shortest stretch that ends on a whole number of `step`s.
  PathProfile OnGrid(double step) const;

  /// \brief The fastest profile of `kind` over `length` within the bounds
  /// (jerk ignored by kTrapezoid); length 0 or unbounded v: no motion.
  static absl::StatusOr<PathProfile> Plan(ProfileKind kind, double length, double max_velocity,
                                          double max_acceleration, double max_jerk);
  /// \brief duration() / the profile's own duration (1 when neither
  /// stretched nor warped).
  double stretch() const { return duration() / OwnDuration(); }

  /// \brief The same profile slowed locally by `warp` (replacing any warp
  /// and uniform stretch before it). At() then gives s exactly and its
  /// rates to first order in the warp's variation (dk/dtau ignored): callers
  /// that need exact rates take differences of what they sample.
  PathProfile Warped(std::shared_ptr<const TimeWarp> warp) const;
  /// \brief How many times slower than its own timing the profile runs at
  /// path time t: the warp's k there times the uniform stretch (>= 1).
  double SlowdownAt(double t) const;
  /// \brief The profile's own time at path time t (through stretch and warp).
  double ProfileTime(double t) const;
  /// \brief The profile's own duration (before stretch and warp).
  double OwnDuration() const;

 private:
  double WarpedDuration() const;

  std::variant<TrapezoidProfile, DoubleSProfile> profile_;
  std::shared_ptr<const TimeWarp> warp_;  ///< local slowdown, applied first
  double time_scale_ = 1.0;               ///< uniform: warped time per path time
};

}  // namespace motion
