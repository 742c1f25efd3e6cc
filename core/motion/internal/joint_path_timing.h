#pragma once

#include <vector>

#include <Eigen/Core>

#include "absl/status/status.h"
#include "core/motion/internal/curve_sampling.h"
#include "core/motion/internal/joint_curve.h"
#include "core/motion/internal/segment_context.h"
#include "core/motion/motion_request.h"

namespace motion {

/// \brief The fastest timing along a MoveJ's joint path `curve` through
/// `points` (its waypoints, which size the first grid), sampled
/// (SampleFastestTiming, no TCP limit): every joint's velocity, acceleration
/// and jerk limit times joint_fraction x speed_override, as a straight
/// MoveJ scales them (the override folded in), and its torque limit, which
/// stays. The samples are audited against the scaled limits.
absl::Status SampleJointPathTiming(const JointCurve& curve,
                                   const std::vector<Eigen::VectorXd>& points,
                                   const SegmentContext& context, const SpeedSpec& speed,
                                   const SegmentReport& report, FastestSampling& out);

}  // namespace motion
