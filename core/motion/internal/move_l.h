#pragma once

#include <Eigen/Core>

#include "absl/status/status.h"
#include "core/motion/internal/segment_context.h"
#include "core/motion/motion_request.h"

namespace motion {

/// \brief MoveL: the TCP moves on the straight line from its start to the
/// target, p(sigma) = p0 + sigma (p1 - p0), with the orientation slerped
/// R(sigma) = slerp(R0, R1, sigma) (or kept at R0 with OrientationMode::
/// kFixed), sigma(t) a trapezoid limited by the linear and angular speeds
/// (see CartesianProfile). Samples are tracked by TrackCartesianPath.
absl::Status PlanMoveL(const MotionSegment& segment, SegmentContext& context, SegmentReport& report,
                       Eigen::VectorXd& end_joints);

}  // namespace motion
