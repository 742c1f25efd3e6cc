#include "core/motion/internal/move_c.h"

#include "core/motion/internal/cartesian_tracking.h"
#include "core/motion/internal/circle_geometry.h"
#include "core/motion/internal/trajectory_checks.h"

namespace motion {

absl::Status PlanMoveC(const MotionSegment& segment, SegmentContext& context, SegmentReport& report,
                       Eigen::VectorXd& end_joints) {
  end_joints = context.start;
  const Pose start = context.start_tcp;
  const Pose via = ResolveTarget(segment.via, segment.frame, segment.offset, segment.offset_frame);
  Pose end = ResolveTarget(segment.target, segment.frame, segment.offset, segment.offset_frame);
  if (segment.orientation == OrientationMode::kFixed) end.orientation = start.orientation;

  absl::StatusOr<Arc> arc = ArcThroughPoints(start.position, via.position, end.position);
  if (!arc.ok()) {
    AddSegmentDiagnostic(report, Severity::kError, DiagnosticCode::kArcDegenerate,
                         std::string(arc.status().message()));
    return absl::OkStatus();
  }
  report.has_arc = true;
  report.arc = arc->geometry;
  const double length = arc->geometry.radius * arc->geometry.angle;
  report.path_length = length;
  const double rotation = RotationAngleBetween(start.orientation, end.orientation);

  absl::StatusOr<PathProfile> profile =
      CartesianProfile(segment.speed, context.profile, context.speed_override, length, rotation);
  if (!profile.ok()) return profile.status();
  const Arc& circle = *arc;
  const CartesianPath path = [&](double sigma) {
    if (sigma >= 1.0) return end;
    Pose p;
    p.position = circle.PointAt(sigma * circle.geometry.angle);
    p.orientation = start.orientation.slerp(sigma, end.orientation);
    return p;
  };
  return TrackCartesianPath(segment, path, *profile, context, report, end_joints);
}

}  // namespace motion
