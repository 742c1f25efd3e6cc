#pragma once

#include "motion/v1/geometry.grpc.pb.h"
#include "server/rpc/service_env.h"

namespace motion::server {

/// \brief motion.v1.Geometry: motiond's conventions as small operations.
/// Trajectories: geometry_service.cc; poses: geometry_poses.cc; joint
/// vectors: geometry_joints.cc; profiles: geometry_profile.cc.
class GeometryService final : public v1::Geometry::CallbackService {
 public:
  explicit GeometryService(ServiceEnv env) : env_(env) {}

  grpc::ServerUnaryReactor* CheckTrajectory(grpc::CallbackServerContext* context,
                                            const v1::CheckTrajectoryRequest* request,
                                            v1::CheckTrajectoryResponse* response) override;
  grpc::ServerUnaryReactor* ResampleTrajectory(grpc::CallbackServerContext* context,
                                               const v1::ResampleTrajectoryRequest* request,
                                               v1::ResampleTrajectoryResponse* response) override;
  grpc::ServerUnaryReactor* ConvertPose(grpc::CallbackServerContext* context,
                                        const v1::ConvertPoseRequest* request,
                                        v1::ConvertPoseResponse* response) override;
  grpc::ServerUnaryReactor* ComposePoses(grpc::CallbackServerContext* context,
                                         const v1::ComposePosesRequest* request,
                                         v1::PoseResponse* response) override;
  grpc::ServerUnaryReactor* InvertPose(grpc::CallbackServerContext* context,
                                       const v1::InvertPoseRequest* request,
                                       v1::PoseResponse* response) override;
  grpc::ServerUnaryReactor* ApplyOffset(grpc::CallbackServerContext* context,
                                        const v1::ApplyOffsetRequest* request,
                                        v1::PoseResponse* response) override;
  grpc::ServerUnaryReactor* ApplyToolAndFrame(grpc::CallbackServerContext* context,
                                              const v1::ApplyToolAndFrameRequest* request,
                                              v1::ApplyToolAndFrameResponse* response) override;
  grpc::ServerUnaryReactor* CheckJointLimits(grpc::CallbackServerContext* context,
                                             const v1::CheckJointLimitsRequest* request,
                                             v1::CheckJointLimitsResponse* response) override;
  grpc::ServerUnaryReactor* CheckSingularity(grpc::CallbackServerContext* context,
                                             const v1::CheckSingularityRequest* request,
                                             v1::CheckSingularityResponse* response) override;
  grpc::ServerUnaryReactor* ComputeProfile(grpc::CallbackServerContext* context,
                                           const v1::ComputeProfileRequest* request,
                                           v1::ComputeProfileResponse* response) override;

 private:
  // Runs `operation`, recording its time as a solve of `kind` when it
  // succeeds (what motiond_solve_seconds counts).
  template <typename Operation>
  absl::Status Timed(const char* kind, Operation operation) {
    const auto started = std::chrono::steady_clock::now();
    absl::Status status = operation();
    if (status.ok()) env_.metrics.RecordSolve(kind, "-", SecondsSince(started));
    return status;
  }

  ServiceEnv env_;
};

}  // namespace motion::server
