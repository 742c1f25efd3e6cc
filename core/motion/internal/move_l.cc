#include "core/motion/internal/move_l.h"

#include "core/motion/internal/cartesian_tracking.h"

namespace motion {

absl::Status PlanMoveL(const MotionSegment& segment, SegmentContext& context, SegmentReport& report,
                       Eigen::VectorXd& end_joints) {
  const Pose start = context.start_tcp;
  Pose end = ResolveTarget(segment.target, segment.frame, segment.offset, segment.offset_frame);
  if (segment.orientation == OrientationMode::kFixed) end.orientation = start.orientation;
  const double length = (end.position - start.position).norm();
  const double rotation = RotationAngleBetween(start.orientation, end.orientation);
  report.path_length = length;

  const CartesianPath line = [&](double sigma) {
    if (sigma >= 1.0) return end;  // exactly the target at the last sample
    Pose p;
    p.position = start.position + sigma * (end.position - start.position);
    p.orientation = start.orientation.slerp(sigma, end.orientation);
    return p;
  };
  return TrackCartesianPath(segment, line, CartesianExtent{length, rotation}, context, report,
                            end_joints);
}

}  // namespace motion
