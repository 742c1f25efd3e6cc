#pragma once

#include <grpcpp/support/status.h>

#include "absl/status/status.h"

namespace motion::server {

/// \brief Maps a core/registry absl::Status onto a gRPC status, one to one
/// by code, keeping the message the core wrote (every '%' written as \x25).
///
/// Rich details travel as a serialized google.rpc.Status in the
/// grpc-status-details-bin trailer: payloads already on the status (e.g. the
/// registry's ErrorInfo) are packed as Any; an INVALID_ARGUMENT whose message
/// starts with a field path ("joints[2] (elbow_joint): ...") also gets a
/// google.rpc.BadRequest naming that field.
grpc::Status ToGrpcStatus(const absl::Status& status);

}  // namespace motion::server
