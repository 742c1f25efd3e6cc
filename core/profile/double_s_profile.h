#pragma once

#include "absl/status/statusor.h"

namespace motion {

/// \brief Jerk-limited ("double S", seven-phase) motion over a distance.
///
/// Moves s from 0 to `length` (m, rad or a normalised unit, chosen by the
/// caller) from speed v0 to speed v1, both with zero acceleration, keeping
/// |s'| <= v_max, |s''| <= a_max and |s'''| <= j_max, in the shortest time.
/// The notation is Biagiotti & Melchiorri, "Trajectory Planning for
/// Automatic Machines and Robots" (2008), section 3.4:
///
///   [0, Tj1]          jerk +j       acceleration rises to alim_a
///   [Tj1, Ta - Tj1]   jerk 0        acceleration alim_a (absent if Ta = 2 Tj1)
///   [Ta - Tj1, Ta]    jerk -j       acceleration back to 0 at speed vlim
///   [Ta, Ta + Tv]     jerk 0        cruise at vlim (absent if Tv = 0)
///   then the mirror image down to v1 over Td, with Tj2 and alim_d.
///
/// A speed change from va to vb with zero acceleration at both ends takes
/// T = |vb - va| / a + a / j when it reaches a (|vb - va| >= a^2 / j), else
/// T = 2 sqrt(|vb - va| / j) at peak acceleration sqrt(|vb - va| j); its
/// velocity is symmetric, so it covers (va + vb) / 2 * T. The time-optimal
/// profile has the highest peak speed vlim in [max(v0, v1), v_max] whose
/// two changes fit in `length`; what is left is cruise. Rest to rest
/// (v0 = v1 = 0) vlim is explicit (a quadratic, or a cube root when the
/// acceleration limit is never reached); with boundary speeds it is the root
/// of a strictly increasing distance function, found by bracketed Newton
/// steps to 1e-15 relative. Positions are the closed-form polynomials of
/// each phase; At(0).s == 0 and At(duration()).s == length() exactly.
class DoubleSProfile {
 public:
  /// \brief Plans the profile. InvalidArgument naming the parameter for
  /// non-finite or negative length, limits that are not finite and > 0,
  /// v0/v1 outside [0, v_max], or v0 -> v1 impossible within `length`.
  static absl::StatusOr<DoubleSProfile> Plan(double length, double max_velocity,
                                             double max_acceleration, double max_jerk,
                                             double start_velocity = 0, double end_velocity = 0);

  /// \brief The same rest-to-rest motion stretched to last exactly
  /// `duration` (>= the time-optimal one) by a lower peak speed, with the
  /// same acceleration and jerk limits: the profile of a joint that must
  /// arrive together with a slower one. InvalidArgument when `duration` is
  /// shorter than the time-optimal profile.
  static absl::StatusOr<DoubleSProfile> PlanWithDuration(double length, double duration,
                                                         double max_velocity,
                                                         double max_acceleration, double max_jerk);

  struct State {
    double s = 0.0;     ///< position along the path, 0 .. length
    double sd = 0.0;    ///< velocity
    double sdd = 0.0;   ///< acceleration
    double sddd = 0.0;  ///< jerk (piecewise constant: +-j_max or 0)
  };

  /// \brief State at time t (clamped to [0, duration]).
  State At(double t) const;

  double length() const { return length_; }
  double duration() const { return t_accel_ + t_cruise_ + t_decel_; }
  double accel_time() const { return t_accel_; }            ///< Ta
  double accel_jerk_time() const { return t_jerk_accel_; }  ///< Tj1
  double cruise_time() const { return t_cruise_; }          ///< Tv
  double decel_time() const { return t_decel_; }            ///< Td
  double decel_jerk_time() const { return t_jerk_decel_; }  ///< Tj2
  double peak_velocity() const { return peak_velocity_; }   ///< vlim
  double peak_accel() const { return peak_accel_; }         ///< alim_a >= 0
  double peak_decel() const { return peak_decel_; }         ///< |alim_d| >= 0
  double max_jerk() const { return jerk_; }
  double start_velocity() const { return v0_; }
  double end_velocity() const { return v1_; }

 private:
  double length_ = 0.0, jerk_ = 0.0, v0_ = 0.0, v1_ = 0.0;
  double t_accel_ = 0.0, t_jerk_accel_ = 0.0, t_cruise_ = 0.0, t_decel_ = 0.0, t_jerk_decel_ = 0.0;
  double peak_velocity_ = 0.0, peak_accel_ = 0.0, peak_decel_ = 0.0;
};

}  // namespace motion
