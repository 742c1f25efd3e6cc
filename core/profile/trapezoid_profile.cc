#include "core/profile/trapezoid_profile.h"

#include <algorithm>
#include <cmath>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/profile/internal/profile_inputs.h"

namespace motion {
absl::StatusOr<TrapezoidProfile> TrapezoidProfile::Plan(double length, double max_velocity,
                                                        double max_acceleration,
                                                        double start_velocity,
                                                        double end_velocity) {
  if (auto status =
          CheckProfileInputs(length, max_velocity, max_acceleration, start_velocity, end_velocity);
      !status.ok()) {
    return status;
  }
  TrapezoidProfile p;
  p.length_ = length;
  p.acceleration_ = max_acceleration;
  p.v0_ = start_velocity;
  p.v1_ = end_velocity;
  const double a = max_acceleration;
  // Changing speed from v0 to v1 alone takes |v1^2 - v0^2| / 2a of path.
  if (std::abs(end_velocity * end_velocity - start_velocity * start_velocity) / (2 * a) >
      length * (1 + 1e-12)) {
    return absl::InvalidArgumentError(absl::StrCat("end_velocity: cannot go from ", start_velocity,
                                                   " to ", end_velocity, " within length ", length,
                                                   " at acceleration ", a));
  }
  const double v0s = start_velocity * start_velocity;
  const double v1s = end_velocity * end_velocity;
  double vp = max_velocity;
  double ramps = (2 * vp * vp - v0s - v1s) / (2 * a);  // Da + Dd at v_max
  if (ramps > length) {
    vp = std::sqrt((2 * a * length + v0s + v1s) / 2);
    vp = std::max({vp, start_velocity, end_velocity});
    ramps = length;
  }
  p.peak_velocity_ = vp;
  p.t_accel_ = (vp - start_velocity) / a;
  p.t_decel_ = (vp - end_velocity) / a;
  p.t_cruise_ = vp > 0 ? std::max(0.0, (length - ramps) / vp) : 0.0;
  if (length == 0) p.t_accel_ = p.t_decel_ = p.t_cruise_ = 0.0;
  return p;
}

TrapezoidProfile::State TrapezoidProfile::At(double t) const {
  const double a = acceleration_;
  const double total = duration();
  State st;
  if (t <= 0) {
    st.sd = v0_;
    st.sdd = t_accel_ > 0 ? a : 0.0;
    return st;
  }
  if (t >= total) {
    st.s = length_;
    st.sd = v1_;
    st.sdd = t_decel_ > 0 ? -a : 0.0;
    return st;
  }
  if (t < t_accel_) {
    st.s = v0_ * t + 0.5 * a * t * t;
    st.sd = v0_ + a * t;
    st.sdd = a;
  } else if (t < t_accel_ + t_cruise_) {
    const double da = v0_ * t_accel_ + 0.5 * a * t_accel_ * t_accel_;
    st.s = da + peak_velocity_ * (t - t_accel_);
    st.sd = peak_velocity_;
  } else {
    // Measured back from the end, so s reaches `length` exactly.
    const double r = total - t;
    st.s = length_ - (v1_ * r + 0.5 * a * r * r);
    st.sd = v1_ + a * r;
    st.sdd = -a;
  }
  st.s = std::clamp(st.s, 0.0, length_);
  return st;
}

std::vector<double> SampleTimes(double duration, double sample_time) {
  std::vector<double> times;
  const double intervals = duration / sample_time;
  const auto full = static_cast<std::size_t>(std::floor(intervals * (1 + 1e-12)));
  times.reserve(full + 2);
  for (std::size_t k = 0; k <= full; ++k) times.push_back(k * sample_time);
  if (duration - times.back() > 1e-9 * sample_time) {
    times.push_back(duration);
  } else {
    times.back() = duration;
  }
  return times;
}

double SampleCount(double duration, double sample_time) {
  return std::floor(duration / sample_time) + 2;
}

}  // namespace motion
