#pragma once

#include <Eigen/Geometry>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/geometry/pose.h"
#include "motion/v1/common.pb.h"
#include "motion/v1/geometry.pb.h"

// The other forms of a pose on the wire (the 4 x 4 matrix, roll/pitch/yaw
// out) for the Geometry service; poses in and out as v1::Pose are
// proto_conversion.h's.
namespace motion::server {

/// \brief A rigid 4 x 4 transform from 16 row-major values: finite, last
/// row 0 0 0 1, rotation block orthonormal to 1e-6 with determinant +1.
/// InvalidArgument names `field` and what is wrong.
absl::StatusOr<Pose> PoseFromMatrixProto(const v1::Matrix4& matrix, absl::string_view field);

void MatrixToProto(const Eigen::Isometry3d& transform, v1::Matrix4* out);

/// \brief Roll, pitch, yaw of `rotation` (fixed axes X, Y, Z; pitch in
/// [-pi/2, pi/2]) in `unit` (RADIANS or DEGREES).
void RpyToProto(const Eigen::Quaterniond& rotation, v1::AngleUnit unit, v1::Rpy* out);

/// \brief The pose with its quaternion's sign chosen so that w >= 0 (the
/// same rotation either way), so equal rotations print alike.
Pose CanonicalSign(Pose pose);

}  // namespace motion::server
