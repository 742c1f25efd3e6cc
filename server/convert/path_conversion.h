#pragma once

#include <cstddef>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/model/chain_model.h"
#include "core/motion/motion_request.h"
#include "core/motion/trajectory.h"
#include "motion/v1/motion_planner.pb.h"

// Proto <-> core for motion programs (the kinematics types are in
// proto_conversion.h).
namespace motion::server {

/// \brief PlanPathRequest.Profile (UNSPECIFIED = jerk-limited);
/// InvalidArgument naming `profile` for a value this build does not know.
absl::StatusOr<ProfileKind> ProfileKindFromProto(int profile);

/// \brief The program in core types, numbers as sent (0 = default, resolved
/// by core's ResolveProgramDefaults). Malformed shapes are InvalidArgument
/// naming the field ("segments[2].movel.target.orientation: zero
/// quaternion"); values and joint counts are core's ValidateProgram's.

absl::StatusOr<PathRequest> PathRequestFromProto(const v1::PlanPathRequest& request);

void SegmentReportToProto(const SegmentReport& report, v1::SegmentReport* out);

/// \brief The first PlanPath message: robot, chain, joint names, grid.
void PlanHeaderToProto(const std::string& robot_id, const ChainModel& chain, double sample_time,
                       const Trajectory& trajectory, v1::PlanPathHeader* out);

/// \brief Samples [begin, end) of `trajectory` as one chunk (row-major
/// positions, velocities, accelerations; TCP poses when `include_tcp`).
void TrajectoryChunkToProto(const Trajectory& trajectory, std::size_t begin, std::size_t end,
                            bool include_tcp, v1::TrajectoryChunk* out);

/// \brief The last PlanPath message: verdict, cycle time, diagnostics.
void PlanSummaryToProto(const PathResult& result, v1::PlanPathSummary* out);

/// \brief One ValidatePath answer for a planned program. `reachable` means no
/// target or sample the arm cannot get to (limits and speeds aside): no error
/// diagnostic TARGET_UNREACHABLE, IK_FAILED or ARC_DEGENERATE, which is what a
/// fleet validator filters on first.
void ValidationToProto(const PathResult& result, v1::ValidatePathResponse* out);

/// \brief One ValidatePath answer for a request that could not be planned:
/// ok=false, the error's code and message, and the ErrorInfo reason a client
/// needs to re-send it with the URDF.
void ValidationErrorToProto(const absl::Status& status, v1::ValidatePathResponse* out);

}  // namespace motion::server
