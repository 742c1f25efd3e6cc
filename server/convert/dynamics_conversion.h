#pragma once

#include <Eigen/Core>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/dynamics/payload.h"
#include "motion/v1/common.pb.h"

namespace motion::server {

/// \brief v1::Payload -> core Payload, checked by CheckPayload: InvalidArgument naming the field
/// under `field` ("robot.payload.inertia.ixy: ...") for a negative or non-finite value or an
/// inertia no body can have.
absl::StatusOr<Payload> PayloadFromProto(const v1::Payload& in, absl::string_view field);

/// \brief PlanPathRequest.gravity: kDefaultGravity when absent, else the vector, which must be
/// finite (InvalidArgument "gravity.z: ...").
absl::StatusOr<Eigen::Vector3d> GravityFromProto(bool present, const v1::Vector3& in,
                                                 absl::string_view field);

}  // namespace motion::server
