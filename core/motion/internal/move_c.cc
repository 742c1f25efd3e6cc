#include "core/motion/internal/move_c.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/ik/ik_solver.h"

#include "core/motion/internal/cartesian_tracking.h"
#include "core/motion/internal/circle_geometry.h"
#include "core/motion/internal/orientation_through_via.h"
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
  // The via's share of the arc: where the path passes it.
  const double via_share = [&] {
    const Eigen::Vector3d w = via.position - arc->geometry.center;
    double via_angle = std::atan2(arc->v.dot(w), arc->u.dot(w));
    if (via_angle <= 0) via_angle += 2.0 * M_PI;
    return std::clamp(via_angle / arc->geometry.angle, 1e-6, 1.0 - 1e-6);
  }();
  const OrientationThroughVia through_via(start.orientation, via.orientation, end.orientation,
                                          via_share);
  // The via is a point of the path: reachable, or the segment says so
  // before any sample is made (with the IK's reason).
  {
    const std::vector<double> seed(context.start.data(),
                                   context.start.data() + context.start.size());
    // Its orientation as the path passes it: its own (VIA), else the
    // slerp's at the via's share of the arc.
    Pose via_pose = via;
    if (segment.orientation != OrientationMode::kVia) {
      via_pose.orientation = start.orientation.slerp(via_share, end.orientation);
    }
    absl::StatusOr<IkResult> ik =
        SolveIk(context.model, context.data, via_pose, segment.tool, seed, IkOptions());
    if (!ik.ok()) return ik.status();
    if (!ik->ok) {
      ReportFailedIk(ik->diagnostics, "via", report);
      return absl::OkStatus();
    }
  }
  const double length = arc->geometry.radius * arc->geometry.angle;
  report.path_length = length;
  const bool by_via = segment.orientation == OrientationMode::kVia;
  const double rotation =
      by_via ? through_via.TurnedAngle() : RotationAngleBetween(start.orientation, end.orientation);

  const Arc& circle = *arc;
  const CartesianPath path = [&](double sigma) {
    if (sigma >= 1.0) return end;
    Pose p;
    p.position = circle.PointAt(sigma * circle.geometry.angle);
    p.orientation =
        by_via ? through_via.At(sigma) : start.orientation.slerp(sigma, end.orientation);
    return p;
  };
  return TrackCartesianPath(segment, path, CartesianExtent{length, rotation}, context, report,
                            end_joints);
}

}  // namespace motion
