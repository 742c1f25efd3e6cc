#pragma once

#include "absl/status/status.h"
#include "core/model/chain_model.h"
#include "core/motion/motion_request.h"

namespace motion {

/// \brief `request` with every "0 = default" field resolved from
/// MotionDefaults, the one place the defaults are applied: sample_time,
/// speed_override, each segment's joint_fraction and linear / angular
/// velocity, acceleration and jerk, and joint_limits (empty: the chain's).
/// Only exact zeros are replaced, so a negative or non-finite value stays for
/// ValidateProgram to name.
///
/// A service calls this on a client's program (where proto3 sends an unset
/// field as 0); PlanPath calls it too, after ValidateProgram, so segments
/// planned directly in core may leave their speeds at 0.
PathRequest ResolveProgramDefaults(const ChainModel& model, PathRequest request);

/// \brief The one validation pass over a whole program, run before any
/// segment is planned: InvalidArgument naming the field path
/// ("sample_time", "segments[5].movej.joints", ...) for a sample_time <= 0 or
/// below limits.min_sample_time, a speed_override outside (0, 1], more than
/// limits.max_segments segments, start_joints of the wrong length or not
/// finite, a negative or non-finite speed (joint_fraction also > 1) or zone
/// distance, and a MoveJ joint target of the wrong length or not finite.
///
/// What depends on the motion itself (targets outside the limits,
/// unreachable poses) is not an error but a diagnostic of the planned path;
/// the sample budget (limits.max_points) is checked per segment, before it is
/// sampled.
absl::Status ValidateProgram(const ChainModel& model, const PathRequest& request,
                             const PathLimits& limits);

}  // namespace motion
