#include "proto/motion/v1/wire_constants.h"

#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"

namespace motion::v1 {

bool HasErrorReason(const std::string& status_details, std::string_view reason) {
  if (status_details.empty()) return false;
  google::rpc::Status details;
  if (!details.ParseFromString(status_details)) return false;
  for (const auto& any : details.details()) {
    google::rpc::ErrorInfo info;
    if (any.UnpackTo(&info) && info.reason() == reason && info.domain() == kErrorDomain) {
      return true;
    }
  }
  return false;
}

const char* GrpcCodeName(grpc::StatusCode code) {
  static const char* kNames[] = {
      "OK",       "Canceled",       "Unknown",          "InvalidArgument",   "DeadlineExceeded",
      "NotFound", "AlreadyExists",  "PermissionDenied", "ResourceExhausted", "FailedPrecondition",
      "Aborted",  "OutOfRange",     "Unimplemented",    "Internal",          "Unavailable",
      "DataLoss", "Unauthenticated"};
  const int index = static_cast<int>(code);
  return index >= 0 && index < 17 ? kNames[index] : "Unknown";
}

}  // namespace motion::v1
