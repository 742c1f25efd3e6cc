#include "core/profile/profile_description.h"

#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"

namespace motion {
namespace {

struct NominalPhase {
  const char* name;
  double duration;      // in the profile's own time
  double acceleration;  // constant over a trapezoid phase
  double jerk;          // constant over a double-S phase
};

// Biagiotti & Melchiorri's seven double-S phases (double_s_profile.h): the
// acceleration ramps up, holds and ramps down to the peak speed, the cruise,
// then the mirror image while the speed falls.
std::vector<NominalPhase> PhasesOf(const DoubleSProfile& p) {
  const double j = p.max_jerk();
  const double tj1 = p.accel_jerk_time(), tj2 = p.decel_jerk_time();
  return {{"accel_ramp_up", tj1, 0.0, j},    {"accel_hold", p.accel_time() - 2 * tj1, 0.0, 0.0},
          {"accel_ramp_down", tj1, 0.0, -j}, {"cruise", p.cruise_time(), 0.0, 0.0},
          {"decel_ramp_up", tj2, 0.0, -j},   {"decel_hold", p.decel_time() - 2 * tj2, 0.0, 0.0},
          {"decel_ramp_down", tj2, 0.0, j}};
}

std::vector<NominalPhase> PhasesOf(const TrapezoidProfile& p) {
  const double a = p.acceleration();
  return {{"accelerate", p.accel_time(), a, 0.0},
          {"cruise", p.cruise_time(), 0.0, 0.0},
          {"decelerate", p.decel_time(), -a, 0.0}};
}

// A phase's own duration can be a few ulps below zero where a hold is absent.
double NonNegative(double value) { return value > 0 ? value : 0.0; }

// The played profile (stretched to a duration or a grid) and its own
// phases, peaks and the stretch factor sigma: time scales by sigma,
// velocity by 1 / sigma, acceleration by 1 / sigma^2, jerk by 1 / sigma^3.
template <typename Own>
ProfileDescription Describe(const Own& own, const PathProfile& played, const ProfileQuery& query,
                            double own_peak_acceleration, double own_peak_deceleration,
                            double own_peak_jerk) {
  ProfileDescription out;
  out.duration = played.duration();
  const double sigma = own.duration() > 0 ? out.duration / own.duration() : 1.0;
  out.stretch = sigma;
  out.peak_velocity = own.peak_velocity() / sigma;
  out.peak_acceleration = own_peak_acceleration / (sigma * sigma);
  out.peak_deceleration = own_peak_deceleration / (sigma * sigma);
  out.peak_jerk = own_peak_jerk / (sigma * sigma * sigma);
  double start = 0.0;
  for (const NominalPhase& phase : PhasesOf(own)) {
    ProfilePhase p;
    p.name = phase.name;
    p.start_time = start;
    p.duration = NonNegative(phase.duration) * sigma;
    const PathProfile::State at = played.At(start);
    p.start_position = at.s;
    p.start_velocity = at.sd;
    // A trapezoid's acceleration jumps at the phase start: the phase's own.
    p.acceleration =
        query.kind == ProfileKind::kTrapezoid ? phase.acceleration / (sigma * sigma) : at.sdd;
    p.jerk = phase.jerk / (sigma * sigma * sigma);
    out.phases.push_back(std::move(p));
    start += NonNegative(phase.duration) * sigma;
  }
  return out;
}

absl::Status CheckQuery(const ProfileQuery& query) {
  if (!std::isfinite(query.duration) || query.duration < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("duration: must be finite and >= 0 (0 = time-optimal), got ", query.duration));
  }
  if (query.duration > 0 && (query.start_velocity != 0 || query.end_velocity != 0)) {
    return absl::InvalidArgumentError(
        "duration: only for a profile from rest to rest (start_velocity and end_velocity 0)");
  }
  if (!std::isfinite(query.sample_time) || query.sample_time < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "sample_time: must be finite and >= 0 (0 = no samples), got ", query.sample_time));
  }
  if (query.on_grid && query.sample_time == 0) {
    return absl::InvalidArgumentError("on_grid: needs a sample_time to end the profile on");
  }
  return absl::OkStatus();
}

absl::Status CheckSamples(const ProfileQuery& query, double duration, double max_samples) {
  if (query.sample_time == 0) return absl::OkStatus();
  const double count = SampleCount(duration, query.sample_time);
  if (count <= max_samples) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("sample_time: ", query.sample_time, " s over ",
                                                 duration, " s gives ", count,
                                                 " samples; the limit is ", max_samples));
}

template <typename Own>
absl::StatusOr<ProfileDescription> Finish(const Own& own, PathProfile played,
                                          const ProfileQuery& query, double max_samples,
                                          double peak_acceleration, double peak_deceleration,
                                          double peak_jerk) {
  if (query.duration > 0) {
    if (query.duration < own.duration() * (1 - 1e-12)) {
      return absl::InvalidArgumentError(absl::StrCat("duration: ", query.duration,
                                                     " s is shorter than the fastest profile (",
                                                     own.duration(), " s)"));
    }
    played = played.StretchedTo(query.duration);
  }
  if (query.on_grid) played = played.OnGrid(query.sample_time);
  if (auto status = CheckSamples(query, played.duration(), max_samples); !status.ok()) {
    return status;
  }
  ProfileDescription out =
      Describe(own, played, query, peak_acceleration, peak_deceleration, peak_jerk);
  if (query.sample_time > 0) {
    out.time = SampleTimes(out.duration, query.sample_time);
    for (double t : out.time) {
      const PathProfile::State state = played.At(t);
      out.s.push_back(state.s);
      out.sd.push_back(state.sd);
      out.sdd.push_back(state.sdd);
      out.sddd.push_back(state.sddd);
    }
  }
  return out;
}

}  // namespace

absl::StatusOr<ProfileDescription> DescribeProfile(const ProfileQuery& query, double max_samples) {
  if (auto status = CheckQuery(query); !status.ok()) return status;
  const bool rest_to_rest_in_time = query.duration > 0;
  if (query.kind == ProfileKind::kTrapezoid) {
    absl::StatusOr<TrapezoidProfile> own =
        TrapezoidProfile::Plan(query.length, query.max_velocity, query.max_acceleration,
                               query.start_velocity, query.end_velocity);
    if (!own.ok()) return own.status();
    const double a = own->acceleration();
    return Finish(*own, PathProfile(*own), query, max_samples, own->accel_time() > 0 ? a : 0.0,
                  own->decel_time() > 0 ? a : 0.0, 0.0);
  }
  absl::StatusOr<DoubleSProfile> own =
      rest_to_rest_in_time
          ? DoubleSProfile::PlanWithDuration(query.length, query.duration, query.max_velocity,
                                             query.max_acceleration, query.max_jerk)
          : DoubleSProfile::Plan(query.length, query.max_velocity, query.max_acceleration,
                                 query.max_jerk, query.start_velocity, query.end_velocity);
  if (!own.ok()) return own.status();
  const bool ramps = own->accel_jerk_time() > 0 || own->decel_jerk_time() > 0;
  // PlanWithDuration already lasts `duration` at a lower peak speed: not a
  // stretch of the time-optimal profile.
  ProfileQuery rest = query;
  rest.duration = 0;
  return Finish(*own, PathProfile(*own), rest, max_samples, own->peak_accel(), own->peak_decel(),
                ramps ? own->max_jerk() : 0.0);
}

}  // namespace motion
