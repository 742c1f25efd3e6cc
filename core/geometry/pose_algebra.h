#pragma once

#include <Eigen/Geometry>

#include "core/geometry/pose.h"

namespace motion {

/// \brief Rotation from URDF-style roll/pitch/yaw: fixed axes X, then Y,
/// then Z, i.e. R = Rz(yaw) * Ry(pitch) * Rx(roll).
Eigen::Quaterniond QuaternionFromRpy(double roll, double pitch, double yaw);

/// \brief (roll, pitch, yaw) of R with the same convention; pitch in
/// [-pi/2, pi/2]. At pitch = +-pi/2 roll and yaw are coupled: roll = 0 is
/// returned and yaw carries the whole rotation about z.
Eigen::Vector3d RpyFromQuaternion(const Eigen::Quaterniond& q);

/// \brief a * b: b's child frame expressed in a's parent frame.
Pose Compose(const Pose& a, const Pose& b);
Pose Inverse(const Pose& a);

/// \brief Where an offset of a target is expressed.
enum class OffsetFrame {
  kWorld,  ///< base-frame axes, about the target's origin (GRL `offset`)
  kFrame,  ///< work-object axes, about the target's origin
  kTool,   ///< the target's own axes (GRL `offset_in tool`): target * offset
};

/// \brief Moves `target_in_frame` (a TCP pose given in the work-object
/// frame `frame`, itself given in the base frame) by `offset` and returns
/// the TCP pose in the base frame:
///   kTool:  frame * (target * offset)
///   kFrame: frame * (offset.p + target.p, offset.R * target.R)
///   kWorld: (offset.p + T.p, offset.R * T.R) with T = frame * target
Pose ResolveTarget(const Pose& target_in_frame, const Pose& frame, const Pose& offset,
                   OffsetFrame offset_frame);

}  // namespace motion
