#pragma once

#include <variant>

#include "absl/status/statusor.h"
#include "core/profile/double_s_profile.h"
#include "core/profile/trapezoid_profile.h"

namespace motion {

/// \brief How a segment's path parameter is timed.
enum class ProfileKind {
  kJerkLimited,  ///< double-S: velocity, acceleration and jerk limited (default)
  kTrapezoid,    ///< velocity and acceleration only: jerk unbounded at phase switches
};

/// \brief How a segment's path parameter s moves from 0 to its length: a
/// jerk-limited (double-S) or a trapezoid profile, possibly played slower.
///
/// StretchedTo(T') plays the same profile slower, s'(t) = s(k t) with
/// k = T / T' <= 1: velocity scales by k, acceleration by k^2, jerk by k^3,
/// so every limit that held still holds. Planners use it to end each segment
/// on the sample grid (T' = a whole number of sample times).
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
  /// \brief duration() / the profile's own duration (1 when not stretched).
  double stretch() const { return duration() / OwnDuration(); }
  /// \brief The profile's own duration (before any stretch).
  double OwnDuration() const;

 private:
  std::variant<TrapezoidProfile, DoubleSProfile> profile_;
  double time_scale_ = 1.0;  ///< own time per path time (<= 1)
};

}  // namespace motion
