#pragma once

#include <Eigen/Core>

#include "absl/status/status.h"
#include "core/motion/internal/segment_context.h"
#include "core/motion/motion_request.h"

namespace motion {

/// \brief MoveC: the TCP moves on the circle through its start, `via` and
/// the target (see ArcThroughPoints), from the start through via to the
/// target, at the linear speed along the arc; the orientation is slerped
/// from the start's to the target's (via's orientation is not used). The
/// report carries centre, radius, normal, swept angle and arc length.
/// Coincident or collinear points give ARC_DEGENERATE on the report.
absl::Status PlanMoveC(const MotionSegment& segment, SegmentContext& context, SegmentReport& report,
                       Eigen::VectorXd& end_joints);

}  // namespace motion
