#pragma once

#include "core/motion/internal/segment_context.h"
#include "core/motion/motion_request.h"
#include "core/motion/trajectory.h"

namespace motion {

/// \brief What rounding one corner of a planned-around MoveJ did.
struct PlannedCornerRounding {
  bool rounded = false;
  double time_saved = 0.0;  ///< s, against stopping at the corner
};

/// \brief Rounds the corner between two legs of a MoveJ planned around
/// obstacles, `before` and `after` (both straight joint motions at rest at
/// the corner, `after` ending at the trajectory's last sample), by the
/// zones' blend (BlendCorner: the two legs overlap in time, every limit
/// audited) — but only as far as the blended motion is collision-free.
///
/// Why a check: each leg was found clear by the planner, but a blend leaves
/// the polyline for the parallelogram its two legs span near the corner, so
/// the blended samples and the motion between them are checked again by
/// FindTrajectoryCollisions with the request's collision settings (margin,
/// self-collision, allowed pairs), from the last unchanged sample before the
/// blend to the first after it. A blend that touches anything is undone and
/// a smaller one tried (the whole overlap the limits allow, then half, then
/// a quarter of it); when none is clear the corner stays a stop at rest,
/// which the planner's check covers. BlendCorner's zone diagnostics are the
/// program's zones' language and are not kept: these corners are the
/// planner's, not the program's.
PlannedCornerRounding RoundPlannedCorner(SegmentContext& context, const Pose& tool,
                                         SegmentReport& before, SegmentReport& after);

}  // namespace motion
