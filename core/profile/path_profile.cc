#include "core/profile/path_profile.h"

#include <algorithm>
#include <cmath>

namespace motion {

double PathProfile::OwnDuration() const {
  return std::visit([](const auto& p) { return p.duration(); }, profile_);
}

double PathProfile::duration() const {
  const double own = OwnDuration();
  return time_scale_ == 1.0 ? own : own / time_scale_;
}

PathProfile::State PathProfile::At(double t) const {
  const double local = std::min(t * time_scale_, OwnDuration());
  const double k = time_scale_;
  State out;
  if (const auto* trapezoid = std::get_if<TrapezoidProfile>(&profile_)) {
    const TrapezoidProfile::State s = trapezoid->At(local);
    out = {s.s, s.sd, s.sdd, 0.0};
  } else {
    const DoubleSProfile::State s = std::get<DoubleSProfile>(profile_).At(local);
    out = {s.s, s.sd, s.sdd, s.sddd};
  }
  out.sd *= k;
  out.sdd *= k * k;
  out.sddd *= k * k * k;
  return out;
}

PathProfile PathProfile::StretchedTo(double duration) const {
  PathProfile out = *this;
  const double own = OwnDuration();
  if (own > 0 && duration > own) out.time_scale_ = own / duration;
  return out;
}

absl::StatusOr<PathProfile> PathProfile::Plan(ProfileKind kind, double length, double max_velocity,
                                              double max_acceleration, double max_jerk) {
  if (!(length > 0) || !std::isfinite(max_velocity)) {
    absl::StatusOr<TrapezoidProfile> none = TrapezoidProfile::Plan(0.0, 1.0, 1.0);
    return PathProfile(*std::move(none));
  }
  if (kind == ProfileKind::kTrapezoid) {
    absl::StatusOr<TrapezoidProfile> p =
        TrapezoidProfile::Plan(length, max_velocity, max_acceleration);
    if (!p.ok()) return p.status();
    return PathProfile(*std::move(p));
  }
  absl::StatusOr<DoubleSProfile> p =
      DoubleSProfile::Plan(length, max_velocity, max_acceleration, max_jerk);
  if (!p.ok()) return p.status();
  return PathProfile(*std::move(p));
}

PathProfile PathProfile::OnGrid(double step) const {
  const double now = duration();
  if (!(now > 0) || !(step > 0)) return *this;
  // A duration already a whole number of steps (to rounding) stays.
  const double steps = std::ceil(now / step - 1e-9);
  return StretchedTo(std::max(1.0, steps) * step);
}

}  // namespace motion
