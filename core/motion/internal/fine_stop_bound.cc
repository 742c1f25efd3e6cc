#include "core/motion/internal/fine_stop_bound.h"

#include "core/motion/internal/cartesian_tracking.h"
#include "core/motion/internal/segment_paths.h"

namespace motion {

double FineStopsLowerBound(const PathRequest& request, std::size_t first, std::size_t last,
                           const Pose& start, bool blend_into_first) {
  double bound = 0.0;
  Pose from = start;
  for (std::size_t i = first; i <= last; ++i) {
    const MotionSegment& segment = request.segments[i];
    SegmentPath path;
    if (segment.kind == MotionKind::kMoveL) {
      path = LinePath(segment, from);
    } else if (segment.kind == MotionKind::kMoveC) {
      absl::StatusOr<SegmentPath> arc = ArcPath(segment, from);
      if (!arc.ok()) return -1.0;
      path = *std::move(arc);
    } else {
      return -1.0;
    }
    absl::StatusOr<PathProfile> profile =
        CartesianProfile(segment.speed, request.profile, path.extent.length, path.extent.rotation);
    if (!profile.ok()) return -1.0;
    const double share = i == first && blend_into_first ? 0.5 : 1.0;
    bound += share * profile->duration() / request.speed_override;
    from = path.end;
  }
  return bound;
}

}  // namespace motion
