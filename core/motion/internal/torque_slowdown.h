#pragma once

#include <functional>

#include "absl/status/status.h"
#include "core/motion/internal/segment_context.h"
#include "core/motion/internal/segment_sampling.h"

namespace motion {

/// \brief Fractions of a joint motion's velocity and acceleration bounds
/// (jerk is left as it is): 1 is the motion as programmed.
struct RateScale {
  double velocity = 1.0;
  double acceleration = 1.0;
};

/// \brief Lowers `scale` so that the sample `refusal` names would need at
/// most kTorqueMargin of its joint's max_torque.
///
/// The torque there is split exactly by inverse dynamics into gravity g,
/// the inertial part A = M qdd and the velocity part V = C(q, qd) qd (RNE
/// at (q, 0, 0), (q, 0, qdd) and (q, qd, 0)). Lowering the acceleration
/// bound by a scales A by about a, lowering the velocity bound by b scales
/// V by about b^2. Where A is most of it only the acceleration comes down
/// (a cruise at full speed stays); otherwise both come down as a uniform
/// slow-down would, by the fraction that fits. The next sampling says
/// whether that was enough. False when gravity alone needs more than the
/// limit: no timing helps, and the TORQUE_LIMIT error stands.
bool LowerRateScaleForTorque(const SegmentContext& context, const TorqueRefusal& refusal,
                             RateScale& scale);

/// \brief Samples a joint motion through `attempt` (which plans it with the
/// bounds scaled by `scale` and samples it by SampleSegment, passing
/// `refusal` on): as programmed first, appended when its sampled torque
/// fits. Otherwise probes (nothing appended) lower the scale by
/// LowerRateScaleForTorque until one fits, then close in between the two by
/// regula falsi until the worst torque is within 1 % of the limit or
/// kTorqueAttempts probes are spent, and the fastest that fitted is
/// sampled and appended, with SPEED_REDUCED (which joint, how much torque it
/// needed as programmed, the bounds kept, the time it took). When gravity
/// alone needs more than a limit the motion is appended as programmed with
/// its TORQUE_LIMIT error. Without dynamics this is one attempt. What a
/// probe put on the report is taken off again.
using ScaledAttempt = std::function<absl::Status(const RateScale& scale, TorqueRefusal* refusal)>;
absl::Status SampleWithinTorque(SegmentContext& context, SegmentReport& report,
                                const ScaledAttempt& attempt);

}  // namespace motion
