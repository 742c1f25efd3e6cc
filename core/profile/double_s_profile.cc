#include "core/profile/double_s_profile.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/profile/internal/profile_inputs.h"

namespace motion {
namespace {

// A speed change by dv >= 0 with zero acceleration at both ends.
struct SpeedChange {
  double duration = 0.0;    ///< T
  double jerk_time = 0.0;   ///< Tj, each of the two jerk phases
  double peak_accel = 0.0;  ///< a reached (= a_max when there is a constant phase)
  double d_duration = 0.0;  ///< dT / d(dv), for Newton steps
};

SpeedChange ChangeSpeed(double dv, double a, double j) {
  SpeedChange c;
  if (!(dv > 0)) {
    c.d_duration = std::numeric_limits<double>::infinity();
    return c;
  }
  if (dv * j >= a * a) {
    c.jerk_time = a / j;
    c.duration = c.jerk_time + dv / a;
    c.peak_accel = a;
    c.d_duration = 1.0 / a;
  } else {
    c.jerk_time = std::sqrt(dv / j);
    c.duration = 2.0 * c.jerk_time;
    c.peak_accel = j * c.jerk_time;
    c.d_duration = 1.0 / (j * c.jerk_time);
  }
  return c;
}

// Root of an increasing f on [lo, hi] with f(lo) <= 0 <= f(hi): Newton
// steps, falling back to bisection whenever a step leaves the bracket.
template <typename F>
double SolveIncreasing(F f_and_slope, double lo, double hi) {
  double x = hi;
  for (int i = 0; i < 200 && hi - lo > 1e-15 * std::max(1.0, std::abs(hi)); ++i) {
    double slope = 0.0;
    const double fx = f_and_slope(x, &slope);
    if (fx == 0.0) return x;
    if (fx < 0) {
      lo = x;
    } else {
      hi = x;
    }
    const double newton = x - fx / slope;
    x = std::isfinite(newton) && newton > lo && newton < hi ? newton : 0.5 * (lo + hi);
  }
  return x;
}

}  // namespace

absl::StatusOr<DoubleSProfile> DoubleSProfile::Plan(double length, double max_velocity,
                                                    double max_acceleration, double max_jerk,
                                                    double start_velocity, double end_velocity) {
  if (auto status =
          CheckProfileInputs(length, max_velocity, max_acceleration, start_velocity, end_velocity);
      !status.ok()) {
    return status;
  }
  if (!(max_jerk > 0) || !std::isfinite(max_jerk)) {
    return absl::InvalidArgumentError(
        absl::StrCat("max_jerk: must be finite and > 0, got ", max_jerk));
  }
  const double a = max_acceleration, j = max_jerk, v0 = start_velocity, v1 = end_velocity;
  const double L = length;
  // Path covered by the two speed changes through a peak speed vp.
  auto changes_distance = [&](double vp, double* slope) {
    const SpeedChange up = ChangeSpeed(vp - v0, a, j);
    const SpeedChange down = ChangeSpeed(vp - v1, a, j);
    if (slope != nullptr) {
      *slope = 0.5 * (up.duration + down.duration) +
               0.5 * (v0 + vp) * (up.duration > 0 ? up.d_duration : 0.0) +
               0.5 * (vp + v1) * (down.duration > 0 ? down.d_duration : 0.0);
    }
    return 0.5 * (v0 + vp) * up.duration + 0.5 * (vp + v1) * down.duration;
  };

  const double v_low = std::max(v0, v1);
  if (changes_distance(v_low, nullptr) > L * (1 + 1e-12) + 1e-300) {
    return absl::InvalidArgumentError(absl::StrCat("end_velocity: cannot go from ", v0, " to ", v1,
                                                   " within length ", L, " at acceleration ", a,
                                                   " and jerk ", j));
  }
  double vp = max_velocity;
  if (changes_distance(max_velocity, nullptr) > L) {
    const double tj = a / j;
    if (v0 == 0 && v1 == 0) {
      // Rest to rest: vp (vp / a + a / j) = L, or 2 vp sqrt(vp / j) = L.
      vp = 0.5 * a * (-tj + std::sqrt(tj * tj + 4.0 * L / a));
      if (vp * j < a * a) vp = std::cbrt(0.25 * L * L * j);
    } else {
      // Both changes reach a: vp^2 / a + tj vp + c = 0, a quadratic.
      const double c = 0.5 * tj * (v0 + v1) - 0.5 * (v0 * v0 + v1 * v1) / a - L;
      vp = 0.5 * a * (-tj + std::sqrt(tj * tj - 4.0 * c / a));
      if (!((vp - v_low) * j >= a * a) || vp > max_velocity) {
        vp =
            SolveIncreasing([&](double v, double* slope) { return changes_distance(v, slope) - L; },
                            v_low, max_velocity);
      }
    }
    vp = std::clamp(vp, v_low, max_velocity);
  }

  DoubleSProfile p;
  p.length_ = L;
  p.jerk_ = j;
  p.v0_ = v0;
  p.v1_ = v1;
  p.peak_velocity_ = vp;
  const SpeedChange up = ChangeSpeed(vp - v0, a, j);
  const SpeedChange down = ChangeSpeed(vp - v1, a, j);
  p.t_accel_ = up.duration;
  p.t_jerk_accel_ = up.jerk_time;
  p.peak_accel_ = up.peak_accel;
  p.t_decel_ = down.duration;
  p.t_jerk_decel_ = down.jerk_time;
  p.peak_decel_ = down.peak_accel;
  // Whatever the changes leave (or a root's last ulps) is cruise, so the
  // phases anchored at 0 and at L meet exactly.
  const double rest = L - changes_distance(vp, nullptr);
  p.t_cruise_ = vp > 0 && rest > 0 ? rest / vp : 0.0;
  return p;
}

absl::StatusOr<DoubleSProfile> DoubleSProfile::PlanWithDuration(double length, double duration,
                                                                double max_velocity,
                                                                double max_acceleration,
                                                                double max_jerk) {
  absl::StatusOr<DoubleSProfile> fastest = Plan(length, max_velocity, max_acceleration, max_jerk);
  if (!fastest.ok()) return fastest.status();
  if (!std::isfinite(duration) || duration < fastest->duration() * (1 - 1e-12)) {
    return absl::InvalidArgumentError(absl::StrCat("duration: ", duration,
                                                   " s is shorter than the fastest profile (",
                                                   fastest->duration(), " s)"));
  }
  if (duration <= fastest->duration() || length == 0) return fastest;
  const double a = max_acceleration, j = max_jerk, L = length;
  // Rest to rest at peak vp lasts T(vp) = Tchange(vp) + L / vp, decreasing
  // in vp up to the fastest profile's peak. With the constant-acceleration
  // phase: vp^2 / a - (T - a / j) vp + L = 0, the smaller root.
  const double tj = a / j;
  const double b = duration - tj;
  double vp = 0.5 * a * (b - std::sqrt(std::max(0.0, b * b - 4.0 * L / a)));
  if (!(vp * j >= a * a) || !(vp <= fastest->peak_velocity())) {
    // Without it: 2 sqrt(vp / j) + L / vp = T; in x = sqrt(vp) the cubic
    // 2 x^3 / sqrt(j) - T x^2 + L = 0 (decreasing in x where it applies).
    const double x_hi = std::sqrt(std::min(fastest->peak_velocity(), a * a / j));
    const double sj = std::sqrt(j);
    const double x = SolveIncreasing(
        [&](double x, double* slope) {
          *slope = -(6.0 * x * x / sj - 2.0 * duration * x);
          return -(2.0 * x * x * x / sj - duration * x * x + L);
        },
        0.0, x_hi);
    vp = x * x;
  }
  vp = std::clamp(vp, 0.0, fastest->peak_velocity());
  absl::StatusOr<DoubleSProfile> slower = Plan(L, vp, a, j);
  if (!slower.ok()) return slower.status();
  // The last ulps of the root go into cruise: the duration is exact.
  slower->t_cruise_ = std::max(0.0, duration - slower->t_accel_ - slower->t_decel_);
  return slower;
}

DoubleSProfile::State DoubleSProfile::At(double t) const {
  const double T = duration();
  t = std::clamp(t, 0.0, T);
  const double j = jerk_, v0 = v0_, v1 = v1_, vlim = peak_velocity_;
  const double Ta = t_accel_, Tj1 = t_jerk_accel_, Td = t_decel_, Tj2 = t_jerk_decel_;
  const double alim_a = peak_accel_, alim_d = -peak_decel_;
  State s;
  if (t >= T) {
    s.s = length_;
    s.sd = v1;
    return s;
  }
  if (t < Tj1) {  // jerk +j
    s.s = v0 * t + j * t * t * t / 6.0;
    s.sd = v0 + 0.5 * j * t * t;
    s.sdd = j * t;
    s.sddd = j;
  } else if (t < Ta - Tj1) {  // constant acceleration
    s.s = v0 * t + alim_a / 6.0 * (3.0 * t * t - 3.0 * Tj1 * t + Tj1 * Tj1);
    s.sd = v0 + alim_a * (t - 0.5 * Tj1);
    s.sdd = alim_a;
  } else if (t < Ta) {  // jerk -j
    const double r = Ta - t;
    s.s = 0.5 * (vlim + v0) * Ta - vlim * r + j * r * r * r / 6.0;
    s.sd = vlim - 0.5 * j * r * r;
    s.sdd = j * r;
    s.sddd = -j;
  } else if (t < Ta + t_cruise_) {  // cruise
    s.s = 0.5 * (vlim + v0) * Ta + vlim * (t - Ta);
    s.sd = vlim;
  } else {
    const double u = t - (T - Td);  // time into the deceleration
    const double start = length_ - 0.5 * (vlim + v1) * Td;
    if (u < Tj2) {  // jerk -j
      s.s = start + vlim * u - j * u * u * u / 6.0;
      s.sd = vlim - 0.5 * j * u * u;
      s.sdd = -j * u;
      s.sddd = -j;
    } else if (u < Td - Tj2) {  // constant deceleration
      s.s = start + vlim * u + alim_d / 6.0 * (3.0 * u * u - 3.0 * Tj2 * u + Tj2 * Tj2);
      s.sd = vlim + alim_d * (u - 0.5 * Tj2);
      s.sdd = alim_d;
    } else {  // jerk +j
      const double r = T - t;
      s.s = length_ - v1 * r - j * r * r * r / 6.0;
      s.sd = v1 + 0.5 * j * r * r;
      s.sdd = -j * r;
      s.sddd = j;
    }
  }
  return s;
}

}  // namespace motion
