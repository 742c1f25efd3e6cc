#include "server/rpc/geometry_service.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "core/motion/trajectory_audit.h"
#include "core/motion/trajectory_resampling.h"
#include "server/convert/proto_conversion.h"
#include "server/rpc/geometry_operations.h"

namespace motion::server {
namespace {

// Trajectories up to this many samples are short work (well under a
// millisecond); longer ones wait in the long lane.
constexpr int kShortTrajectorySamples = 2000;

template <typename Request>
Lane LaneForTrajectory(const Request& request) {
  return request.time_size() <= kShortTrajectorySamples ? LaneForRobot(request.robot())
                                                        : Lane::kLong;
}

// A trajectory's samples may not outnumber what motiond would plan.
absl::Status CheckSampleCount(int count, long max_points, absl::string_view field) {
  if (count <= max_points) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(field, ": ", count, " samples; the limit is ",
                                                 max_points, " (--max_trajectory_points)"));
}

}  // namespace

absl::Status CheckTrajectoryOperation(RobotRegistry& registry, const RequestLimits& limits,
                                      const v1::CheckTrajectoryRequest& request,
                                      v1::CheckTrajectoryResponse* response) {
  if (auto status = CheckSampleCount(request.time_size(), limits.path.max_points, "time");
      !status.ok()) {
    return status;
  }
  absl::StatusOr<ResolvedChain> resolved = ResolveChain(registry, request.robot());
  if (!resolved.ok()) return resolved.status();
  absl::StatusOr<TrajectoryAudit> audit = AuditJointTrajectory(
      *resolved->chain, resolved->limits, ToVector(request.time()), ToVector(request.positions()));
  if (!audit.ok()) return audit.status();
  response->set_ok(audit->ok);
  for (const Diagnostic& d : audit->diagnostics) DiagnosticToProto(d, response->add_diagnostics());
  response->set_max_joint_velocity_ratio(audit->max_joint_velocity_ratio);
  response->set_max_joint_acceleration_ratio(audit->max_joint_acceleration_ratio);
  response->set_max_joint_jerk_ratio(audit->max_joint_jerk_ratio);
  response->set_cycle_time(audit->cycle_time);
  response->set_sample_time(audit->sample_time);
  return absl::OkStatus();
}

absl::Status ResampleTrajectoryOperation(RobotRegistry& registry, const RequestLimits& limits,
                                         const v1::ResampleTrajectoryRequest& request,
                                         v1::ResampleTrajectoryResponse* response) {
  if (auto status = CheckSampleCount(request.time_size(), limits.path.max_points, "time");
      !status.ok()) {
    return status;
  }
  if (request.sample_time() < limits.path.min_sample_time) {
    return absl::InvalidArgumentError(absl::StrCat("sample_time: ", request.sample_time(),
                                                   " s; at least ", limits.path.min_sample_time,
                                                   " s"));
  }
  absl::StatusOr<ResolvedChain> resolved = ResolveChain(registry, request.robot());
  if (!resolved.ok()) return resolved.status();
  // The answer must fit in one message: time and three n x dof arrays of
  // doubles (and a little framing).
  const int dof = resolved->chain->dof();
  const std::size_t fitting =
      (limits.max_message_bytes - std::min<std::size_t>(limits.max_message_bytes, 4096)) /
      (sizeof(double) * (1 + 3 * static_cast<std::size_t>(dof)));
  const std::size_t max_points =
      std::min(static_cast<std::size_t>(limits.path.max_points), fitting);
  absl::StatusOr<Trajectory> out =
      ResampleJointTrajectory(dof, ToVector(request.time()), ToVector(request.positions()),
                              request.sample_time(), max_points);
  if (!out.ok()) return out.status();
  response->mutable_time()->Assign(out->time.begin(), out->time.end());
  response->mutable_positions()->Assign(out->positions.begin(), out->positions.end());
  response->mutable_velocities()->Assign(out->velocities.begin(), out->velocities.end());
  response->mutable_accelerations()->Assign(out->accelerations.begin(), out->accelerations.end());
  return absl::OkStatus();
}

grpc::ServerUnaryReactor* GeometryService::CheckTrajectory(
    grpc::CallbackServerContext* context, const v1::CheckTrajectoryRequest* request,
    v1::CheckTrajectoryResponse* response) {
  return RunUnaryOnPool(env_, context, "CheckTrajectory", LaneForTrajectory(*request),
                        [this, request, response](ChainDataCache&) {
                          return Timed("check_trajectory", [&] {
                            return CheckTrajectoryOperation(env_.registry, env_.limits, *request,
                                                            response);
                          });
                        });
}

grpc::ServerUnaryReactor* GeometryService::ResampleTrajectory(
    grpc::CallbackServerContext* context, const v1::ResampleTrajectoryRequest* request,
    v1::ResampleTrajectoryResponse* response) {
  return RunUnaryOnPool(env_, context, "ResampleTrajectory", LaneForTrajectory(*request),
                        [this, request, response](ChainDataCache&) {
                          return Timed("resample_trajectory", [&] {
                            return ResampleTrajectoryOperation(env_.registry, env_.limits, *request,
                                                               response);
                          });
                        });
}

}  // namespace motion::server
