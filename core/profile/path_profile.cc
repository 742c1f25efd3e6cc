#include "core/profile/path_profile.h"

#include <cmath>

namespace motion {

double PathProfile::OwnDuration() const {
  return std::visit([](const auto& p) { return p.duration(); }, profile_);
}

double PathProfile::WarpedDuration() const {
  return warp_ ? warp_->PathTime(OwnDuration()) : OwnDuration();
}

double PathProfile::duration() const {
  const double warped = WarpedDuration();
  return time_scale_ == 1.0 ? warped : warped / time_scale_;
}

double PathProfile::ProfileTime(double t) const {
  const double warped = std::min(t * time_scale_, WarpedDuration());
  return std::min(warp_ ? warp_->ProfileTime(warped) : warped, OwnDuration());
}

double PathProfile::SlowdownAt(double t) const {
  const double local = warp_ ? warp_->SlowdownAt(ProfileTime(t)) : 1.0;
  return local / time_scale_;
}

PathProfile PathProfile::Warped(std::shared_ptr<const TimeWarp> warp) const {
  PathProfile out = *this;
  out.warp_ = std::move(warp);
  out.time_scale_ = 1.0;
  return out;
}

PathProfile::State PathProfile::At(double t) const {
  const double local = ProfileTime(t);
  const double k = 1.0 / SlowdownAt(t);
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
  const double warped = WarpedDuration();
  if (warped > 0 && duration > warped) out.time_scale_ = warped / duration;
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
