#include "core/motion/internal/checked_blend.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/collision/trajectory_collisions.h"
#include "core/motion/internal/result_checkpoint.h"
#include "core/motion/internal/zone_blending.h"

namespace motion {
namespace {

// Blends tried per corner: the zone's, then this many halvings of it.
constexpr int kHalvings = 2;

// The trajectory from sample `from` on, and both motions' reports: what a
// blend changes, to put back when it collides.
struct SavedTail {
  SavedTail(const Trajectory& t, std::size_t from, const SegmentReport& b, const SegmentReport& a)
      : from(from), samples(TrajectoryFrom(t, from)), before(b), after(a) {}

  void Restore(Trajectory& t, SegmentReport& b, SegmentReport& a) const {
    ReplaceTrajectoryTail(t, from, samples);
    b = before;
    a = after;
  }

  std::size_t from;
  Trajectory samples;
  SegmentReport before, after;
};

// The contacts of samples [first, last] of `t` and of the motion between
// them, by `collision`'s settings.
std::vector<TrajectoryContact> StretchContacts(const ChainModel& model, ChainData& data,
                                               const SegmentCollision& collision,
                                               const std::function<bool()>& cancelled,
                                               const Trajectory& t, std::size_t first,
                                               std::size_t last) {
  const int dof = t.dof;
  const std::vector<double> times(t.time.begin() + first, t.time.begin() + last + 1);
  const std::vector<double> positions(t.positions.begin() + first * dof,
                                      t.positions.begin() + (last + 1) * dof);
  return SampledContacts(model, data, collision, cancelled, times, positions);
}

// The next, smaller zone to try after a blend of n samples collided
// (`half`: BlendCorner's cap, half the shorter motion's samples).
ZoneSpec Smaller(const ZoneSpec& zone, long n, long half) {
  ZoneSpec next = zone;
  if (zone.kind == ZoneKind::kDistance) {
    next.distance = 0.5 * zone.distance;
  } else {
    next.kind = ZoneKind::kCnt;
    next.percent = 100.0 * static_cast<double>(n / 2) / static_cast<double>(half);
  }
  return next;
}

}  // namespace

std::vector<TrajectoryContact> SampledContacts(const ChainModel& model, ChainData& data,
                                               const SegmentCollision& collision,
                                               const std::function<bool()>& cancelled,
                                               const std::vector<double>& times,
                                               const std::vector<double>& positions) {
  TrajectoryCollisionOptions options;
  options.self_collision = collision.self_collision;
  options.safety_margin = collision.safety_margin;
  options.allowed = collision.allowed;
  return FindTrajectoryCollisions(model, data, *collision.robot, *collision.scene, times, positions,
                                  options, cancelled);
}

CheckedBlend BlendCornerCollisionFree(const BlendSetting& setting, const ZoneSpec& zone,
                                      const Pose& tool, Trajectory& trajectory,
                                      SegmentReport& before, SegmentReport& after) {
  const SegmentCollision& collision = setting.collision;
  auto blend = [&](const ZoneSpec& z) {
    BlendCorner(setting.model, setting.data, setting.limits, setting.profile, setting.sample_time,
                z, tool, trajectory, before, after, setting.dynamics, setting.max_tcp_speed);
  };
  CheckedBlend out;
  Trajectory& t = trajectory;
  const long corner = static_cast<long>(after.first_index) - 1;
  const long begin = std::max(0L, static_cast<long>(before.first_index) - 1);
  const long end = static_cast<long>(t.size()) - 1;
  // BlendCorner's own cap: never past the middle of either motion.
  const long half = std::min((corner - begin) / 2, (end - corner) / 2);
  if (collision.robot == nullptr || half <= 0 || corner <= 0) {
    blend(zone);
    out.blended = before.blend.blended;
    out.time_saved = out.blended ? before.blend.time_saved : 0.0;
    return out;
  }
  const SavedTail saved(t, static_cast<std::size_t>(begin), before, after);
  ZoneSpec attempt = zone;
  for (int i = 0; i <= kHalvings; ++i) {
    blend(attempt);
    if (!before.blend.blended) {
      // No overlap within the limits: BlendCorner's fine stop stands (a
      // smaller zone after a collision says the collision instead).
      if (out.collided) saved.Restore(t, before, after);
      return out;
    }
    const long n = static_cast<long>(before.blend.end_index - before.blend.start_index);
    const std::size_t first = static_cast<std::size_t>(std::max(0L, corner - n - 1));
    const std::size_t last = static_cast<std::size_t>(std::min<long>(corner + 1, t.size() - 1));
    const std::vector<TrajectoryContact> contacts =
        StretchContacts(setting.model, setting.data, collision, setting.cancelled, t, first, last);
    if (contacts.empty()) {
      out.blended = true;
      out.time_saved = before.blend.time_saved;
      return out;
    }
    out.collided = true;
    out.contact = {contacts.front().link, contacts.front().other, contacts.front().max_depth};
    saved.Restore(t, before, after);
    if (n <= 1) return out;
    attempt = Smaller(attempt, n, half);
  }
  return out;
}

CheckedBlend RoundPlannedCorner(SegmentContext& context, const Pose& tool, SegmentReport& before,
                                SegmentReport& after) {
  const std::vector<Diagnostic> diagnostics = before.diagnostics;
  ZoneSpec zone;
  zone.kind = ZoneKind::kContinuous;
  // Both legs carry the same payload (one MoveJ segment).
  const BlendDynamics dynamics{context.dynamics, context.gravity, context.payload, context.payload};
  const BlendSetting setting{
      context.model,       context.data.kinematics, context.limits,    context.profile,
      context.sample_time, context.collision,       context.cancelled, &dynamics};
  const CheckedBlend blend =
      BlendCornerCollisionFree(setting, zone, tool, context.out, before, after);
  before.diagnostics = diagnostics;
  before.blend = BlendReport{};
  return blend;
}

}  // namespace motion
