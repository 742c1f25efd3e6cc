#pragma once

// How a request_fuzzer input names its message: the first byte (modulo
// kRequestKindCount) picks the type, the rest is the message as it arrives
// on the wire. Shared with the corpus generator so the seeds and the
// fuzzer agree.

#include <cstdint>

namespace motiond_fuzz {

enum class RequestKind : std::uint8_t {
  kRegisterRobot = 0,
  kGetRobot,
  kComputeFk,
  kComputeIk,
  kComputeJacobian,
  kCheckReachability,
  kCheckCollision,
  kPlanPath,
  kValidatePath,
  kRegisterScene,
  // motion.v1.Geometry. Appended, so the committed seeds (first byte 0-9)
  // keep naming the same messages.
  kCheckTrajectory,
  kResampleTrajectory,
  kConvertPose,
  kComposePoses,
  kInvertPose,
  kApplyOffset,
  kApplyToolAndFrame,
  kCheckJointLimits,
  kCheckSingularity,
  kComputeProfile,
  // Appended too (first bytes 0-19 keep their messages).
  kValidateCell,
};
inline constexpr int kRequestKindCount = 21;

}  // namespace motiond_fuzz
