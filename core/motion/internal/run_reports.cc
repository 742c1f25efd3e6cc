#include "core/motion/internal/run_reports.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "absl/strings/str_cat.h"
#include "core/motion/internal/rate_audit.h"
#include "core/motion/internal/trajectory_checks.h"
#include "core/motion/internal/zone_blending.h"

namespace motion {
namespace {

// Samples of the run around a segment's own that its rate audit reads (a
// third difference spans four samples).
constexpr long kAuditMargin = 3;

bool SamePose(const Pose& a, const Pose& b) {
  return a.position == b.position && a.orientation.coeffs() == b.orientation.coeffs();
}

}  // namespace

std::size_t RunEnd(const PathRequest& request, std::size_t first,
                   const std::function<bool(const MotionSegment&)>& member,
                   const std::function<bool(const MotionSegment&, const MotionSegment&)>& alike) {
  std::size_t last = first;
  if (!member(request.segments[first])) return last;
  while (last + 1 < request.segments.size()) {
    const MotionSegment& here = request.segments[last];
    const MotionSegment& next = request.segments[last + 1];
    if (!AsksForBlend(here.zone) || !member(next) || next.payload ||
        !SamePose(here.tool, next.tool) || !alike(here, next)) {
      break;
    }
    ++last;
  }
  return last;
}

RunSplit::RunSplit(const std::vector<double>& sigma, const std::vector<double>& blend_end,
                   const SegmentReport& whole, long first_local)
    : sigma_(sigma), whole_(whole), first_local_(first_local) {
  const long n = static_cast<long>(sigma.size());
  const std::size_t m = blend_end.size() + 1;
  ends_.assign(m, n - 1);
  for (std::size_t k = 0; k + 1 < m; ++k) {
    const long earliest = k == 0 ? 1 : ends_[k - 1] + 1;
    ends_[k] = std::clamp(FirstAt(blend_end[k]), earliest, n - 1 - static_cast<long>(m - 1 - k));
  }
}

long RunSplit::FirstAt(double s) const {
  return static_cast<long>(std::lower_bound(sigma_.begin(), sigma_.end(), s) - sigma_.begin());
}

SegmentReport RunSplit::Report(const SegmentContext& context, const PathRequest& request,
                               std::size_t first, std::size_t k) const {
  const MotionSegment& segment = request.segments[first + k];
  const std::size_t m = ends_.size();
  SegmentReport r;
  r.segment_id = segment.id.empty() ? absl::StrCat("#", first + k) : segment.id;
  r.segment_index = static_cast<int>(first + k);
  r.motion = segment.kind == MotionKind::kMoveJ   ? "movej"
             : segment.kind == MotionKind::kMoveL ? "movel"
                                                  : "movec";
  const long begin = k == 0 ? 0 : ends_[k - 1];
  const double dt = context.sample_time;
  r.start_time = whole_.start_time + static_cast<double>(begin) * dt;
  r.duration = static_cast<double>(ends_[k] - begin) * dt;
  r.first_index = k == 0 ? whole_.first_index : Global(begin) + 1;
  r.point_count = Global(ends_[k]) - r.first_index + 1;
  r.max_joint_torque_ratio = whole_.max_joint_torque_ratio;

  // Rates: of its samples, with the run's around them that a third
  // difference reads.
  const Trajectory& t = context.out;
  const int dof = t.dof;
  const long lo = std::max<long>(static_cast<long>(context.continuous_from), Global(first_local_));
  const long hi = Global(ends_.back());
  const long from = std::max(lo, Global(begin)), to = Global(ends_[k]);
  const long a = std::max(lo, from - kAuditMargin), b = std::min(hi, to + kAuditMargin);
  const std::vector<double> q(t.positions.begin() + a * dof, t.positions.begin() + (b + 1) * dof);
  WidenRateRatios(
      AuditRates(q, dof, context.sample_time, context.limits, AuditBoundary::kInteriorOnly), r);
  RateAudit stated;
  IncludeStatedRates(
      std::vector<double>(t.velocities.begin() + from * dof, t.velocities.begin() + (to + 1) * dof),
      std::vector<double>(t.accelerations.begin() + from * dof,
                          t.accelerations.begin() + (to + 1) * dof),
      dof, context.limits, stated);
  WidenRateRatios(stated, r);

  for (const Diagnostic& d : whole_.diagnostics) {
    const bool mine = d.point_index < 0 ? k == 0
                                        : (k == 0 || d.point_index > Global(begin)) &&
                                              (k + 1 == m || d.point_index <= to);
    if (!mine) continue;
    r.diagnostics.push_back(d);
    r.diagnostics.back().segment_id = r.segment_id;
  }
  return r;
}

void MeasureBlend(const Trajectory& t, long start, long end, const Eigen::Vector3d& corner,
                  double dt, BlendReport& blend) {
  blend.blended = true;
  blend.start_index = start;
  blend.end_index = end;
  blend.start_time = t.time[start];
  blend.end_time = t.time[end];
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
}

}  // namespace motion
