#include "core/motion/internal/blended_run.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "absl/strings/str_cat.h"
#include "core/motion/internal/blended_run_path.h"
#include "core/motion/internal/cartesian_tracking.h"
#include "core/motion/internal/rate_audit.h"
#include "core/motion/internal/result_checkpoint.h"
#include "core/motion/internal/trajectory_checks.h"
#include "core/motion/internal/zone_blending.h"

namespace motion {
namespace {

// Samples of the run around a segment's own that its rate audit reads (a
// third difference spans four samples).
constexpr long kAuditMargin = 3;

bool IsCartesian(const MotionSegment& s) {
  return s.kind == MotionKind::kMoveL || s.kind == MotionKind::kMoveC;
}

bool SamePose(const Pose& a, const Pose& b) {
  return a.position == b.position && a.orientation.coeffs() == b.orientation.coeffs();
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

// The worst stated and divided-difference rates of global samples
// [from, to] of the run (with kAuditMargin more on each side inside
// [lo, hi]) as the report's ratios.
void SegmentRates(const SegmentContext& context, long lo, long hi, long from, long to,
                  SegmentReport& report) {
  const Trajectory& t = context.out;
  const int dof = t.dof;
  const long a = std::max(lo, from - kAuditMargin), b = std::min(hi, to + kAuditMargin);
  const std::vector<double> q(t.positions.begin() + a * dof, t.positions.begin() + (b + 1) * dof);
  WidenRateRatios(
      AuditRates(q, dof, context.sample_time, context.limits, AuditBoundary::kInteriorOnly),
      report);
  RateAudit stated;
  IncludeStatedRates(
      std::vector<double>(t.velocities.begin() + from * dof, t.velocities.begin() + (to + 1) * dof),
      std::vector<double>(t.accelerations.begin() + from * dof,
                          t.accelerations.begin() + (to + 1) * dof),
      dof, context.limits, stated);
  WidenRateRatios(stated, report);
}

// The report of corner k's blend, from the samples (global) it spans.
void DescribeBlend(const BlendedRunPath& path, std::size_t k, const Trajectory& t, long start,
                   long end, double dt, double time_saved, BlendReport& blend) {
  const Eigen::Vector3d corner = path.motion(k).end.position;
  blend.blended = true;
  blend.start_index = start;
  blend.end_index = end;
  blend.start_time = t.time[start];
  blend.end_time = t.time[end];
  blend.leave_distance = path.LeaveDistance(k);
  blend.rejoin_distance = path.JoinDistance(k);
  blend.zone_radius = std::max(blend.leave_distance, blend.rejoin_distance);
  blend.corner_distance = std::numeric_limits<double>::infinity();
  blend.min_tcp_speed = std::numeric_limits<double>::infinity();
  for (long i = start; i <= end; ++i) {
    blend.corner_distance = std::min(blend.corner_distance, (t.tcp[i].position - corner).norm());
    if (i > 0 && i + 1 < static_cast<long>(t.size())) {
      const double speed = (t.tcp[i + 1].position - t.tcp[i - 1].position).norm() / (2 * dt);
      blend.min_tcp_speed = std::min(blend.min_tcp_speed, speed);
    }
  }
  if (!std::isfinite(blend.min_tcp_speed)) blend.min_tcp_speed = 0.0;
  blend.time_saved = time_saved;
}

}  // namespace

std::size_t BlendedRunEnd(const PathRequest& request, std::size_t first) {
  std::size_t last = first;
  if (!IsCartesian(request.segments[first])) return last;
  while (last + 1 < request.segments.size()) {
    const MotionSegment& here = request.segments[last];
    const MotionSegment& next = request.segments[last + 1];
    if (!AsksForBlend(here.zone) || !IsCartesian(next) || next.payload ||
        !SamePose(here.tool, next.tool) || !SameSpeed(here.speed, next.speed)) {
      break;
    }
    ++last;
  }
  return last;
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
  auto global = [&](long k) { return whole.first_index - first_local + k; };
  auto first_at = [&](double sigma) {
    return static_cast<long>(std::lower_bound(detail.sigma.begin(), detail.sigma.end(), sigma) -
                             detail.sigma.begin());
  };
  std::vector<long> ends(m, n - 1);
  for (std::size_t k = 0; k + 1 < m; ++k) {
    const long earliest = k == 0 ? 1 : ends[k - 1] + 1;
    ends[k] =
        std::clamp(first_at(path.BlendEnd(k)), earliest, n - 1 - static_cast<long>(m - 1 - k));
  }
  const long lo = std::max<long>(static_cast<long>(context.continuous_from), global(first_local));
  const long hi = global(n - 1);
  for (std::size_t k = 0; k < m; ++k) {
    const MotionSegment& segment = segments[first + k];
    SegmentReport r;
    r.segment_id = segment.id.empty() ? absl::StrCat("#", first + k) : segment.id;
    r.segment_index = static_cast<int>(first + k);
    r.motion = segment.kind == MotionKind::kMoveL ? "movel" : "movec";
    const long begin = k == 0 ? 0 : ends[k - 1];
    r.start_time = whole.start_time + static_cast<double>(begin) * dt;
    r.duration = static_cast<double>(ends[k] - begin) * dt;
    r.first_index = k == 0 ? whole.first_index : global(begin) + 1;
    r.point_count = global(ends[k]) - r.first_index + 1;
    r.path_length = motions[k].extent.length;
    r.has_arc = motions[k].has_arc;
    r.arc = motions[k].arc;
    r.max_cartesian_error = whole.max_cartesian_error;
    r.max_joint_torque_ratio = whole.max_joint_torque_ratio;
    SegmentRates(context, lo, hi, std::max(lo, global(begin)), global(ends[k]), r);
    for (const Diagnostic& d : whole.diagnostics) {
      const bool mine = d.point_index < 0 ? k == 0
                                          : (k == 0 || d.point_index > global(begin)) &&
                                                (k + 1 == m || d.point_index <= global(ends[k]));
      if (!mine) continue;
      r.diagnostics.push_back(d);
      r.diagnostics.back().segment_id = r.segment_id;
    }
    if (k + 1 < m) {
      DescribeBlend(path, k, context.out, global(first_at(path.BlendStart(k))), global(ends[k]), dt,
                    detail.stop_cost[k], r.blend);
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
