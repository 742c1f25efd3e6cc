#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "core/geometry/pose.h"
#include "core/motion/internal/cartesian_joint_curve.h"
#include "core/motion/internal/circle_geometry.h"
#include "core/motion/internal/curve_timing.h"
#include "core/motion/motion_request.h"

namespace motion {

/// \brief The programmed TCP path of a MoveL or MoveC from `start`, as a
/// function of sigma in [0, 1] that moves uniformly (its extent per unit
/// sigma), without any joint: what TrackCartesianPath follows alone and
/// what a blended run (blended_run_path.h) strings together.
struct SegmentPath {
  CartesianPath path;  ///< exactly `end` at sigma = 1; beyond, the same formula goes on
  CartesianExtent extent;
  Pose end;
  bool has_arc = false;
  ArcGeometry arc;  ///< MoveC
  Pose via;         ///< MoveC: the pose the path passes at the via
};

/// \brief MoveL: p(sigma) = p0 + sigma (p1 - p0), R(sigma) = slerp(R0, R1,
/// sigma) (R0 throughout with OrientationMode::kFixed).
SegmentPath LinePath(const MotionSegment& segment, const Pose& start);

/// \brief MoveC: the circle through the start, the via and the target
/// (ArcThroughPoints), the orientation slerped, kept, or through the via's
/// (OrientationThroughVia). The arc's error (ARC_DEGENERATE) when the three
/// points give none.
absl::StatusOr<SegmentPath> ArcPath(const MotionSegment& segment, const Pose& start);

}  // namespace motion
