#include "core/motion/internal/move_l.h"

#include "core/motion/internal/cartesian_tracking.h"
#include "core/motion/internal/segment_paths.h"

namespace motion {

absl::Status PlanMoveL(const MotionSegment& segment, SegmentContext& context, SegmentReport& report,
                       Eigen::VectorXd& end_joints) {
  const SegmentPath line = LinePath(segment, context.start_tcp);
  report.path_length = line.extent.length;
  return TrackCartesianPath(segment, line.path, line.extent, context, report, end_joints);
}

}  // namespace motion
