#pragma once

#include "absl/status/status.h"
#include "core/cache/chain_data_cache.h"
#include "motion/v1/geometry.pb.h"
#include "server/runtime/robot_registry.h"
#include "server/runtime/server_options.h"

// The work of each motion.v1.Geometry RPC without the call around it: the
// request checked field by field, core run, the response filled. The
// handlers (GeometryService) run these inline or on the solver pool; the
// request fuzzer runs them on raw bytes.
namespace motion::server {

// Poses (geometry_poses.cc): the request alone.
absl::Status ConvertPoseOperation(const v1::ConvertPoseRequest& request,
                                  v1::ConvertPoseResponse* response);
absl::Status ComposePosesOperation(const v1::ComposePosesRequest& request,
                                   v1::PoseResponse* response);
absl::Status InvertPoseOperation(const v1::InvertPoseRequest& request, v1::PoseResponse* response);
absl::Status ApplyOffsetOperation(const v1::ApplyOffsetRequest& request,
                                  v1::PoseResponse* response);
absl::Status ApplyToolAndFrameOperation(const v1::ApplyToolAndFrameRequest& request,
                                        v1::ApplyToolAndFrameResponse* response);

// Joint vectors (geometry_joints.cc): the robot's chain.
absl::Status CheckJointLimitsOperation(RobotRegistry& registry,
                                       const v1::CheckJointLimitsRequest& request,
                                       v1::CheckJointLimitsResponse* response);
absl::Status CheckSingularityOperation(RobotRegistry& registry, ChainDataCache& cache,
                                       const v1::CheckSingularityRequest& request,
                                       v1::CheckSingularityResponse* response);

// Trajectories (geometry_service.cc) and profiles (geometry_profile.cc):
// bounded by the server's limits.
absl::Status CheckTrajectoryOperation(RobotRegistry& registry, const RequestLimits& limits,
                                      const v1::CheckTrajectoryRequest& request,
                                      v1::CheckTrajectoryResponse* response);
absl::Status ResampleTrajectoryOperation(RobotRegistry& registry, const RequestLimits& limits,
                                         const v1::ResampleTrajectoryRequest& request,
                                         v1::ResampleTrajectoryResponse* response);
absl::Status ComputeProfileOperation(const RequestLimits& limits,
                                     const v1::ComputeProfileRequest& request,
                                     v1::ComputeProfileResponse* response);

}  // namespace motion::server
