#include "core/motion/internal/blended_run.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "absl/strings/str_cat.h"
#include "core/motion/internal/blended_run_path.h"
#include "core/motion/internal/cartesian_tracking.h"
#include "core/motion/internal/result_checkpoint.h"
#include "core/motion/internal/run_reports.h"
#include "core/motion/internal/trajectory_checks.h"
#include "core/motion/internal/zone_blending.h"

namespace motion {
namespace {

bool IsCartesian(const MotionSegment& s) {
  return s.kind == MotionKind::kMoveL || s.kind == MotionKind::kMoveC;
}

bool SameSpeed(const SpeedSpec& a, const SpeedSpec& b) {
  return a.linear_velocity == b.linear_velocity && a.linear_acceleration == b.linear_acceleration &&
         a.linear_jerk == b.linear_jerk && a.angular_velocity == b.angular_velocity &&
         a.angular_acceleration == b.angular_acceleration && a.angular_jerk == b.angular_jerk;
}

// The motions' own paths, each from the programmed end of the one before,
// up to `last` or the first corner that is not BlendsOnPath (`last` then
// says where the run ends); false when the first has none (a degenerate
// arc) or no corner blends on the path.
bool MotionPaths(const PathRequest& request, std::size_t first, std::size_t& last,
                 const Pose& start, std::vector<SegmentPath>& out) {
  Pose from = start;
  for (std::size_t i = first; i <= last; ++i) {
    const MotionSegment& segment = request.segments[i];
    if (segment.kind == MotionKind::kMoveL) {
      out.push_back(LinePath(segment, from));
    } else {
      absl::StatusOr<SegmentPath> arc = ArcPath(segment, from);
      if (!arc.ok()) {
        if (i > first) last = i - 1;  // at `first`: no run (false below)
        break;
      }
      out.push_back(*std::move(arc));
    }
    if (out.size() > 1 && !BlendsOnPath(out[out.size() - 2], out.back(), segment.speed)) {
      out.pop_back();
      last = i - 1;
      break;
    }
    from = out.back().end;
  }
  return out.size() > 1;
}

// The report of corner k's blend, from the samples (global) it spans.
void DescribeBlend(const BlendedRunPath& path, std::size_t k, const Trajectory& t, long start,
                   long end, double dt, double time_saved, BlendReport& blend) {
  MeasureBlend(t, start, end, path.motion(k).end.position, dt, blend);
  blend.leave_distance = path.LeaveDistance(k);
  blend.rejoin_distance = path.JoinDistance(k);
  blend.zone_radius = std::max(blend.leave_distance, blend.rejoin_distance);
  blend.time_saved = time_saved;
}

}  // namespace

std::size_t BlendedRunEnd(const PathRequest& request, std::size_t first) {
  return RunEnd(request, first, IsCartesian, [](const MotionSegment& a, const MotionSegment& b) {
    return SameSpeed(a.speed, b.speed);
  });
}

absl::StatusOr<bool> PlanBlendedRun(const PathRequest& request, std::size_t first,
                                    std::size_t& last, SegmentContext& context,
                                    std::vector<SegmentReport>& reports,
                                    Eigen::VectorXd& end_joints, bool& as_programmed) {
  as_programmed = false;
  const std::vector<MotionSegment>& segments = request.segments;
  const SpeedSpec& speed = segments[first].speed;
  std::vector<SegmentPath> motions;
  if (!MotionPaths(request, first, last, context.start_tcp, motions)) return false;
  std::vector<ZoneSpec> zones;
  for (std::size_t i = first; i < last; ++i) zones.push_back(segments[i].zone);
  const BlendedRunPath path(motions, speed, zones);

  // One tracking of the whole run, held to the tightest tolerances of its
  // segments.
  MotionSegment run = segments[first];
  run.path_tolerance = run.PathTolerance();
  run.path_angle_tolerance = run.PathAngleTolerance();
  for (std::size_t i = first + 1; i <= last; ++i) {
    run.path_tolerance = std::min(*run.path_tolerance, segments[i].PathTolerance());
    run.path_angle_tolerance =
        std::min(*run.path_angle_tolerance, segments[i].PathAngleTolerance());
  }
  SegmentReport whole;
  whole.segment_id = segments[first].id.empty() ? absl::StrCat("#", first) : segments[first].id;
  whole.segment_index = static_cast<int>(first);
  TrackingDetail detail;
  for (std::size_t k = 0; k + 1 < motions.size(); ++k) detail.stops.push_back(path.BlendMiddle(k));
  const std::size_t size_before = context.out.size();
  const long first_local = context.Stores(0) ? 0 : 1;
  const CartesianPath at = [&path](double sigma) { return path.At(sigma); };
  const absl::Status status =
      TrackCartesianPath(run, at, path.Extent(), context, whole, end_joints, &detail);
  if (absl::IsCancelled(status)) return status;
  const long n = static_cast<long>(detail.sigma.size());
  const std::size_t m = motions.size();
  if (!status.ok() || !whole.ok || !context.completed || n < static_cast<long>(2 * m) ||
      detail.stop_cost.size() + 1 != m) {
    ReplaceTrajectoryTail(context.out, size_before, Trajectory{});
    context.completed = false;
    end_joints = context.start;
    return false;
  }

  as_programmed = detail.programmed;
  // Each segment's samples end where the blend of its zone does.
  const double dt = context.sample_time;
  std::vector<double> blend_ends;
  for (std::size_t k = 0; k + 1 < m; ++k) blend_ends.push_back(path.BlendEnd(k));
  const RunSplit split(detail.sigma, blend_ends, whole, first_local);
  for (std::size_t k = 0; k < m; ++k) {
    const MotionSegment& segment = segments[first + k];
    SegmentReport r = split.Report(context, request, first, k);
    r.path_length = motions[k].extent.length;
    r.has_arc = motions[k].has_arc;
    r.arc = motions[k].arc;
    r.max_cartesian_error = whole.max_cartesian_error;
    if (k + 1 < m) {
      DescribeBlend(path, k, context.out, split.Global(split.FirstAt(path.BlendStart(k))),
                    split.Global(split.End(k)), dt, detail.stop_cost[k], r.blend);
      if (path.Reduced(k)) {
        AddSegmentDiagnostic(
            r, Severity::kWarning, DiagnosticCode::kZoneReduced,
            absl::StrCat("DISTANCE ", segment.zone.distance, " m reduced to ", r.blend.zone_radius,
                         " m: a blend takes at most half of either motion"),
            r.blend.start_index, r.blend.start_time);
        r.diagnostics.back().value = r.blend.zone_radius;
        r.diagnostics.back().limit = segment.zone.distance;
      }
    }
    reports.push_back(std::move(r));
  }
  return true;
}

}  // namespace motion
