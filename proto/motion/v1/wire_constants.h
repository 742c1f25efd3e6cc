#pragma once

#include <string>
#include <string_view>

#include <grpcpp/support/status.h>

// Strings on the wire that server and clients must spell the same way. The
// protos define the messages; these are the values that travel inside them.
namespace motion::v1 {

/// \brief The proto package of the API, prefix of every service name
/// ("motion.v1.Kinematics") and the google.rpc.ErrorInfo domain of every
/// error motiond reports.
inline constexpr std::string_view kApiPackage = "motion.v1";
inline constexpr std::string_view kErrorDomain = kApiPackage;

/// \brief ErrorInfo.reason of the NOT_FOUND for a robot_id this server does
/// not hold (never registered here, or evicted); a client answers it by
/// re-sending the request with the URDF (ValidatePathResponse.error_reason
/// carries the same string inside a stream).
inline constexpr std::string_view kRobotNotRegistered = "ROBOT_NOT_REGISTERED";

/// \brief ErrorInfo.reason of the NOT_FOUND for a scene_id this server does
/// not hold; a client answers it by re-sending the scene inline.
inline constexpr std::string_view kSceneNotRegistered = "SCENE_NOT_REGISTERED";

/// \brief Whether `status_details` (grpc-status-details-bin: a serialized
/// google.rpc.Status) holds a google.rpc.ErrorInfo with this `reason` and
/// domain kErrorDomain. False for empty or unparsable details.
bool HasErrorReason(const std::string& status_details, std::string_view reason);

/// \brief The CamelCase name of a gRPC status code as go-grpc-prometheus
/// writes it in `grpc_code` ("OK", "InvalidArgument", ...), so a log line and
/// a metric series can be matched; "Unknown" for a value outside 0..16.
const char* GrpcCodeName(grpc::StatusCode code);

}  // namespace motion::v1
