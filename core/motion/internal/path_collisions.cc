#include "core/motion/internal/path_collisions.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/collision/trajectory_collisions.h"
#include "core/motion/internal/trajectory_checks.h"

namespace motion {
namespace {

// The segment report that holds sample `index` (the last one if none).
SegmentReport& ReportHolding(std::size_t index, PathResult& result) {
  for (SegmentReport& r : result.segments) {
    if (static_cast<std::int64_t>(index) < r.first_index + r.point_count) return r;
  }
  return result.segments.back();
}

}  // namespace

void CheckPathCollisions(const ChainModel& model, ChainData& data, const PathRequest& request,
                         const std::function<bool()>& cancelled, PathResult& result) {
  TrajectoryCollisionOptions options;
  options.self_collision = request.check_self_collision;
  options.safety_margin = request.safety_margin;
  options.allowed = request.allowed_collisions.get();
  const std::shared_ptr<const CollisionScene> scene =
      request.scene ? request.scene : CollisionScene::Empty();
  const std::vector<TrajectoryContact> contacts = FindTrajectoryCollisions(
      model, data, *request.collision_model, *scene, result.trajectory.time,
      result.trajectory.positions, options, cancelled);
  result.collision_checked = true;
  result.collision_free = contacts.empty();
  if (result.segments.empty()) return;
  for (const TrajectoryContact& c : contacts) {
    SegmentReport& report = ReportHolding(c.first_sample, result);
    const std::string where = c.between_samples_only
                                  ? absl::StrCat("between samples ", c.first_sample, " and ",
                                                 c.first_sample + 1, " (t = ", c.start_time, " s)")
                                  : absl::StrCat("at samples ", c.first_sample, "..", c.last_sample,
                                                 " (t = ", c.start_time, " to ", c.end_time, " s)");
    AddSegmentDiagnostic(report, Severity::kError, DiagnosticCode::kCollision,
                         absl::StrCat(c.link, " collides with ", c.other, " ", where, ", up to ",
                                      c.max_depth, " m deep"),
                         static_cast<std::int64_t>(c.first_sample), c.start_time);
    Diagnostic& d = report.diagnostics.back();
    d.has_contact = true;
    d.contact_link = c.link;
    d.contact_other = c.other;
    d.contact_depth = c.max_depth;
    d.source = request.segments[report.segment_index].source;
    result.diagnostics.push_back(d);
    result.ok = false;
  }
}

}  // namespace motion
