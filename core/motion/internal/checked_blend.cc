#include "core/motion/internal/planned_corner_rounding.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/collision/trajectory_collisions.h"
#include "core/motion/internal/zone_blending.h"

namespace motion {
namespace {

// Blends tried per corner: the whole overlap the limits allow, then this
// many halvings of it.
constexpr int kHalvings = 2;

// The trajectory from sample `from` on, and both legs' reports: what a
// blend changes, to put back when it collides.
struct SavedTail {
  SavedTail(const Trajectory& t, std::size_t from, const SegmentReport& b, const SegmentReport& a)
      : from(from),
        time(t.time.begin() + from, t.time.end()),
        positions(t.positions.begin() + from * t.dof, t.positions.end()),
        velocities(t.velocities.begin() + from * t.dof, t.velocities.end()),
        accelerations(t.accelerations.begin() + from * t.dof, t.accelerations.end()),
        tcp(t.tcp.begin() + from, t.tcp.end()),
        before(b),
        after(a) {}

  void Restore(Trajectory& t, SegmentReport& b, SegmentReport& a) const {
    auto put_back = [](std::vector<double>& v, std::size_t keep, const std::vector<double>& tail) {
      v.resize(keep);
      v.insert(v.end(), tail.begin(), tail.end());
    };
    put_back(t.time, from, time);
    put_back(t.positions, from * t.dof, positions);
    put_back(t.velocities, from * t.dof, velocities);
    put_back(t.accelerations, from * t.dof, accelerations);
    t.tcp.resize(from);
    t.tcp.insert(t.tcp.end(), tcp.begin(), tcp.end());
    b = before;
    a = after;
  }

  std::size_t from;
  std::vector<double> time, positions, velocities, accelerations;
  std::vector<Pose> tcp;
  SegmentReport before, after;
};

// Whether samples [first, last] of `t` and the motion between them are
// clear by the request's collision checking.
bool StretchIsClear(SegmentContext& context, const Trajectory& t, std::size_t first,
                    std::size_t last) {
  const int dof = t.dof;
  const std::vector<double> times(t.time.begin() + first, t.time.begin() + last + 1);
  const std::vector<double> positions(t.positions.begin() + first * dof,
                                      t.positions.begin() + (last + 1) * dof);
  TrajectoryCollisionOptions options;
  options.self_collision = context.collision.self_collision;
  options.safety_margin = context.collision.safety_margin;
  options.allowed = context.collision.allowed;
  return FindTrajectoryCollisions(context.model, context.data.kinematics, *context.collision.robot,
                                  *context.collision.scene, times, positions, options,
                                  context.cancelled)
      .empty();
}

}  // namespace

PlannedCornerRounding RoundPlannedCorner(SegmentContext& context, const Pose& tool,
                                         SegmentReport& before, SegmentReport& after) {
  PlannedCornerRounding out;
  Trajectory& t = context.out;
  const long corner = static_cast<long>(after.first_index) - 1;
  const long begin = std::max(0L, static_cast<long>(before.first_index) - 1);
  const long end = static_cast<long>(t.size()) - 1;
  // BlendCorner's own cap: never past the middle of either leg.
  const long half = std::min((corner - begin) / 2, (end - corner) / 2);
  if (half <= 0 || corner <= 0) return out;
  const SavedTail saved(t, static_cast<std::size_t>(begin), before, after);

  ZoneSpec zone;
  zone.kind = ZoneKind::kContinuous;
  for (int attempt = 0; attempt <= kHalvings; ++attempt) {
    BlendCorner(context.model, context.data.kinematics, context.limits, context.profile,
                context.sample_time, zone, tool, t, before, after);
    const long n = before.blend.blended
                       ? static_cast<long>(before.blend.end_index - before.blend.start_index)
                       : 0;
    if (n > 0) {
      const std::size_t first = static_cast<std::size_t>(std::max(0L, corner - n - 1));
      const std::size_t last = static_cast<std::size_t>(std::min<long>(corner + 1, t.size() - 1));
      if (StretchIsClear(context, t, first, last)) {
        out.rounded = true;
        out.time_saved = before.blend.time_saved;
        // The blend's rates stay in before's ratios; its zone words and its
        // BlendReport are for the program's zones, not the planner's.
        before.diagnostics = saved.before.diagnostics;
        before.blend = BlendReport{};
        return out;
      }
    }
    saved.Restore(t, before, after);
    if (n <= 1) return out;
    zone.kind = ZoneKind::kCnt;
    zone.percent = 100.0 * static_cast<double>(n / 2) / static_cast<double>(half);
  }
  return out;
}

}  // namespace motion
