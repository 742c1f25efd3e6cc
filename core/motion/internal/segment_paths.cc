#include "core/motion/internal/segment_paths.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include "core/motion/internal/orientation_through_via.h"

namespace motion {

SegmentPath LinePath(const MotionSegment& segment, const Pose& start) {
  SegmentPath out;
  out.end = ResolveTarget(segment.target, segment.frame, segment.offset, segment.offset_frame);
  if (segment.orientation == OrientationMode::kFixed) out.end.orientation = start.orientation;
  out.extent.length = (out.end.position - start.position).norm();
  out.extent.rotation = RotationAngleBetween(start.orientation, out.end.orientation);
  const Pose end = out.end;
  out.path = [start, end](double sigma) {
    if (sigma == 1.0) return end;  // exactly the target at the last sample
    Pose p;
    p.position = start.position + sigma * (end.position - start.position);
    p.orientation = start.orientation.slerp(sigma, end.orientation);
    return p;
  };
  return out;
}

absl::StatusOr<SegmentPath> ArcPath(const MotionSegment& segment, const Pose& start) {
  SegmentPath out;
  const Pose via = ResolveTarget(segment.via, segment.frame, segment.offset, segment.offset_frame);
  out.end = ResolveTarget(segment.target, segment.frame, segment.offset, segment.offset_frame);
  if (segment.orientation == OrientationMode::kFixed) out.end.orientation = start.orientation;
  absl::StatusOr<Arc> arc = ArcThroughPoints(start.position, via.position, out.end.position);
  if (!arc.ok()) return arc.status();
  out.has_arc = true;
  out.arc = arc->geometry;
  // The via's share of the arc: where the path passes it.
  const double via_share = [&] {
    const Eigen::Vector3d w = via.position - arc->geometry.center;
    double via_angle = std::atan2(arc->v.dot(w), arc->u.dot(w));
    if (via_angle <= 0) via_angle += 2.0 * M_PI;
    return std::clamp(via_angle / arc->geometry.angle, 1e-6, 1.0 - 1e-6);
  }();
  const bool by_via = segment.orientation == OrientationMode::kVia;
  auto through_via = std::make_shared<const OrientationThroughVia>(
      start.orientation, via.orientation, out.end.orientation, via_share);
  // Its orientation as the path passes the via: its own (VIA), else the
  // slerp's at the via's share of the arc.
  out.via = via;
  if (!by_via) out.via.orientation = start.orientation.slerp(via_share, out.end.orientation);
  out.extent.length = arc->geometry.radius * arc->geometry.angle;
  out.extent.rotation = by_via ? through_via->TurnedAngle()
                               : RotationAngleBetween(start.orientation, out.end.orientation);
  const Pose end = out.end;
  const Arc circle = *arc;
  out.path = [start, end, circle, by_via, through_via](double sigma) {
    if (sigma == 1.0) return end;
    Pose p;
    p.position = circle.PointAt(sigma * circle.geometry.angle);
    p.orientation =
        by_via ? through_via->At(sigma) : start.orientation.slerp(sigma, end.orientation);
    return p;
  };
  return out;
}

}  // namespace motion
