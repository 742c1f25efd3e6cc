// motion.v1.Geometry.ComputeProfile: one path parameter's profile as the
// planner builds it. Without samples it is microseconds of arithmetic on the
// request alone; with many samples it is work for the pool.
#include "absl/strings/str_cat.h"
#include "core/profile/profile_description.h"
#include "server/convert/path_conversion.h"
#include "server/rpc/geometry_operations.h"
#include "server/rpc/geometry_service.h"

namespace motion::server {
namespace {

// Up to this many samples a profile is short work.
constexpr double kShortProfileSamples = 2000;

ProfileQuery QueryFromProto(const v1::ComputeProfileRequest& request, ProfileKind kind) {
  ProfileQuery query;
  query.kind = kind;
  query.length = request.length();
  query.max_velocity = request.max_velocity();
  query.max_acceleration = request.max_acceleration();
  query.max_jerk = request.max_jerk();
  query.start_velocity = request.start_velocity();
  query.end_velocity = request.end_velocity();
  query.duration = request.duration();
  query.sample_time = request.sample_time();
  query.on_grid = request.on_grid();
  return query;
}

void DescriptionToProto(const ProfileDescription& d, v1::ComputeProfileResponse* out) {
  out->set_duration(d.duration);
  out->set_stretch(d.stretch);
  out->set_peak_velocity(d.peak_velocity);
  out->set_peak_acceleration(d.peak_acceleration);
  out->set_peak_deceleration(d.peak_deceleration);
  out->set_peak_jerk(d.peak_jerk);
  for (const ProfilePhase& phase : d.phases) {
    v1::ProfilePhase* p = out->add_phases();
    p->set_name(phase.name);
    p->set_start_time(phase.start_time);
    p->set_duration(phase.duration);
    p->set_start_position(phase.start_position);
    p->set_start_velocity(phase.start_velocity);
    p->set_acceleration(phase.acceleration);
    p->set_jerk(phase.jerk);
  }
  out->mutable_time()->Assign(d.time.begin(), d.time.end());
  out->mutable_position()->Assign(d.s.begin(), d.s.end());
  out->mutable_velocity()->Assign(d.sd.begin(), d.sd.end());
  out->mutable_acceleration()->Assign(d.sdd.begin(), d.sdd.end());
  out->mutable_jerk()->Assign(d.sddd.begin(), d.sddd.end());
}

}  // namespace

absl::Status ComputeProfileOperation(const RequestLimits& limits,
                                     const v1::ComputeProfileRequest& request,
                                     v1::ComputeProfileResponse* response) {
  absl::StatusOr<ProfileKind> kind = ProfileKindFromProto(request.profile());
  if (!kind.ok()) return kind.status();
  // Five arrays of doubles must fit in one answer, and no more samples than
  // a plan may have.
  const double fitting =
      static_cast<double>(limits.max_message_bytes -
                          std::min<std::size_t>(limits.max_message_bytes, 4096)) /
      (5 * sizeof(double));
  const double max_samples = std::min(static_cast<double>(limits.path.max_points), fitting);
  absl::StatusOr<ProfileDescription> description =
      DescribeProfile(QueryFromProto(request, *kind), max_samples);
  if (!description.ok()) return description.status();
  DescriptionToProto(*description, response);
  return absl::OkStatus();
}

grpc::ServerUnaryReactor* GeometryService::ComputeProfile(grpc::CallbackServerContext* context,
                                                          const v1::ComputeProfileRequest* request,
                                                          v1::ComputeProfileResponse* response) {
  // The lane is chosen before the profile is planned: by the samples a
  // profile as long as the fastest one bounded by `duration` could have.
  const bool sampled = request->sample_time() > 0;
  const double rough_samples =
      sampled && request->max_velocity() > 0
          ? (std::max(request->duration(), request->length() / request->max_velocity()) /
             request->sample_time())
          : 0.0;
  const Lane lane = !sampled || rough_samples <= kShortProfileSamples ? Lane::kShort : Lane::kLong;
  return RunUnaryOnPool(
      env_, context, "ComputeProfile", lane, [this, request, response](ChainDataCache&) {
        return Timed("compute_profile",
                     [&] { return ComputeProfileOperation(env_.limits, *request, response); });
      });
}

}  // namespace motion::server
