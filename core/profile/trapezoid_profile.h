#pragma once

#include <vector>

#include "absl/status/statusor.h"

namespace motion {

/// \brief Trapezoidal velocity profile over a distance, in closed form.
///
/// Moves s from 0 to `length` (m, rad or a normalised unit, chosen by the
/// caller) starting at speed v0 and ending at v1, with |sd| <= v_max and
/// |sdd| <= a_max:
///
///   accelerate  t in [0, Ta]:          sdd = +a,  Ta = (vp - v0) / a
///   cruise      t in [Ta, Ta+Tc]:      sdd = 0,   Tc = (L - Da - Dd) / vp
///   decelerate  t in [Ta+Tc, T]:       sdd = -a,  Td = (vp - v1) / a
///
/// with Da = (vp^2 - v0^2) / 2a and Dd = (vp^2 - v1^2) / 2a. When
/// Da + Dd > L at vp = v_max there is no cruise phase: the triangle profile
/// peaks at vp = sqrt((2 a L + v0^2 + v1^2) / 2) < v_max.
class TrapezoidProfile {
 public:
  /// \brief Plans the profile. InvalidArgument (naming the parameter) for
  /// non-finite or negative length, v_max or a_max <= 0, v0/v1 outside
  /// [0, v_max], or v0 -> v1 impossible within `length` at a_max.
  static absl::StatusOr<TrapezoidProfile> Plan(double length, double max_velocity,
                                               double max_acceleration, double start_velocity = 0,
                                               double end_velocity = 0);

  struct State {
    double s = 0.0;    ///< position along the path, 0 .. length
    double sd = 0.0;   ///< velocity
    double sdd = 0.0;  ///< acceleration
  };

  /// \brief State at time t (clamped to [0, duration]). Exact at both ends:
  /// At(0).s == 0 and At(duration()).s == length().
  State At(double t) const;

  double length() const { return length_; }
  double duration() const { return t_accel_ + t_cruise_ + t_decel_; }
  double accel_time() const { return t_accel_; }
  double cruise_time() const { return t_cruise_; }
  double decel_time() const { return t_decel_; }
  double peak_velocity() const { return peak_velocity_; }
  double acceleration() const { return acceleration_; }  ///< a_max, both ramps
  bool is_triangle() const { return t_cruise_ == 0.0; }

 private:
  double length_ = 0.0, acceleration_ = 0.0, v0_ = 0.0, v1_ = 0.0;
  double t_accel_ = 0.0, t_cruise_ = 0.0, t_decel_ = 0.0, peak_velocity_ = 0.0;
};

/// \brief Sample times 0, dt, 2 dt, ... and exactly `duration` last: the
/// last interval may be shorter than dt, never skipped, and a last interval
/// under 1e-9 dt is merged (t = duration replaces the sample it would
/// duplicate). duration 0 gives the single sample {0}.
std::vector<double> SampleTimes(double duration, double sample_time);

/// \brief How many samples SampleTimes would return, without building them
/// (to refuse oversized requests before doing any work).
double SampleCount(double duration, double sample_time);

}  // namespace motion
