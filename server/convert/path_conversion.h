#pragma once

#include "absl/status/statusor.h"
#include "core/motion/motion_request.h"
#include "core/motion/trajectory.h"
#include "motion/v1/motion_planner.pb.h"

// Proto <-> core for motion programs (the kinematics types are in
// proto_conversion.h).
namespace motion::server {

/// \brief The program in core types. Malformed fields are InvalidArgument
/// naming them ("segments[2].movel.target.orientation: zero quaternion");
/// zero sample_time / speed_override take their defaults; joint counts and
/// ranges are checked by the planner.
absl::StatusOr<PathRequest> PathRequestFromProto(const v1::PlanPathRequest& request);

void SegmentReportToProto(const SegmentReport& report, v1::SegmentReport* out);

}  // namespace motion::server
