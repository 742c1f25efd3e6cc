#pragma once

#include <Eigen/Core>

#include "absl/status/status.h"
#include "core/motion/internal/segment_context.h"
#include "core/motion/motion_request.h"

namespace motion {

/// \brief MoveJ: all joints start and stop together on one trapezoid.
///
/// The target is the joint vector, or the IK solution of the pose target
/// seeded with the start joints: in segment.configuration when given
/// (TARGET_UNREACHABLE naming it otherwise), else in the start's
/// configuration when that reaches the target, else the closest reachable
/// one with a CONFIGURATION_CHANGE warning saying from which to which. Every joint follows q(t) =
/// q0 + dq s(t) with s a trapezoid from 0 to 1 whose limits are the tightest over joints:
///   s'_max = min_i f v_i / |dq_i|,   s''_max = min_i f a_i / |dq_i|
/// (f = joint_fraction x speed_override), so the slowest joint sets the
/// duration and none exceeds f times its limits; velocities and
/// accelerations are exact (dq s', dq s''). A target outside the limits or
/// an IK failure is a diagnostic on the report, not an error.
///
/// \return InvalidArgument for a malformed segment (wrong target length,
/// NaN), ResourceExhausted over the point budget, Cancelled.
absl::Status PlanMoveJ(const MotionSegment& segment, SegmentContext& context, SegmentReport& report,
                       Eigen::VectorXd& end_joints);

/// \brief The straight joint-space motion q0 -> q1 of `segment` (its speed
/// and sync), sampled from context.start_time: PlanMoveJ once the target
/// is known, and each leg of a MoveJ planned around obstacles.
absl::Status PlanStraightMoveJ(const MotionSegment& segment, SegmentContext& context,
                               const Eigen::VectorXd& q0, const Eigen::VectorXd& q1,
                               SegmentReport& report, Eigen::VectorXd& end_joints);

}  // namespace motion
