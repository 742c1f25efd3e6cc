#include "core/motion/internal/path_runs.h"

#include <algorithm>
#include <chrono>
#include <string>

#include "absl/status/status.h"
#include "core/kinematics/forward_kinematics.h"
#include "core/motion/internal/fine_stop_bound.h"
#include "core/motion/internal/move_j_run.h"
#include "core/motion/internal/zone_blending.h"

namespace motion {
namespace {

// A blend whose samples come `moved` samples earlier.
void MoveBlendBack(std::int64_t moved, double dt, BlendReport& blend) {
  if (!blend.blended) return;
  blend.start_index -= moved;
  blend.end_index -= moved;
  blend.start_time -= static_cast<double>(moved) * dt;
  blend.end_time -= static_cast<double>(moved) * dt;
}

// A report whose samples come `moved` samples earlier (a blend in time
// before it shortened what precedes it).
void MoveBack(std::int64_t moved, double dt, SegmentReport& r) {
  const double earlier = static_cast<double>(moved) * dt;
  r.first_index -= moved;
  r.start_time -= earlier;
  for (Diagnostic& d : r.diagnostics) {
    if (d.point_index >= 0) d.point_index -= moved, d.time -= earlier;
  }
  MoveBlendBack(moved, dt, r.blend);
}

}  // namespace

// Segments from `first` on as one run (blended_run.h, move_j_run.h) from
// the cursor: true with their reports added and the cursor at the run's
// end, false with nothing changed when the run has to be planned segment by
// segment.
absl::StatusOr<bool> PlanRun(const ChainModel& model, IkData& data, const PathRequest& request,
                             const PathLimits& limits, const std::function<bool()>& cancelled,
                             std::size_t first, PathCursor& cursor, PathResult& result,
                             const RunPlanner& plan) {
  const MotionSegment& segment = request.segments[first];
  const Payload carried = cursor.payload;
  if (segment.payload) cursor.payload = *segment.payload;
  SegmentContext context =
      ContextFor(model, data, request, limits, cancelled, segment, cursor, result);
  std::vector<SegmentReport> reports;
  Eigen::VectorXd end = cursor.joints;
  const bool starts_where_previous_ended = cursor.continuous;
  const auto started = std::chrono::steady_clock::now();
  absl::StatusOr<bool> planned = plan(context, reports, end);
  if (!planned.ok() || !*planned) {
    cursor.payload = carried;
    return planned;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  // A zone before the run blends in time into its first motion, as into any
  // segment; the rest of the run moves back with it.
  if (first > 0 && !result.segments.empty() &&
      result.segments.back().segment_index == static_cast<int>(first) - 1) {
    const std::size_t size_before = result.trajectory.size();
    const bool blendable = starts_where_previous_ended && result.segments.back().ok;
    const BlendDynamics dynamics{cursor.dynamics, request.gravity, carried, cursor.payload};
    ResolveZone(model, data.kinematics, request, first - 1, blendable ? &reports[0] : nullptr,
                "the next motion does not start from its end", nullptr, cancelled, &dynamics,
                result);
    const auto moved = static_cast<std::int64_t>(size_before - result.trajectory.size());
    // The first report's count, duration and diagnostics moved with the
    // blend (ShortenAfter); its own blend at its end moves here.
    MoveBlendBack(moved, request.sample_time, reports[0].blend);
    for (std::size_t k = 1; k < reports.size(); ++k) {
      MoveBack(moved, request.sample_time, reports[k]);
    }
  }
  for (SegmentReport& report : reports) {
    report.compute_seconds = seconds / static_cast<double>(reports.size());
    const std::string& source = request.segments[report.segment_index].source;
    for (Diagnostic& d : report.diagnostics) {
      if (!source.empty()) d.source = source;
      result.diagnostics.push_back(d);
    }
    cursor.time += report.duration;
    result.segments.push_back(std::move(report));
  }
  cursor.joints = end;
  cursor.continuous = true;
  return true;
}

Checkpoint Keep(const PathResult& result, const PathCursor& cursor) {
  std::size_t samples = result.trajectory.size(), segments = result.segments.size();
  if (!result.segments.empty()) {
    samples =
        static_cast<std::size_t>(std::max<std::int64_t>(0, result.segments.back().first_index - 1));
    segments -= 1;
  }
  return Checkpoint{CopyTail(result, samples, segments, result.diagnostics.size()), cursor};
}

void Restore(const Checkpoint& checkpoint, PathResult& result, PathCursor& cursor) {
  PutTail(checkpoint.tail, result);
  cursor = checkpoint.cursor;
}

// A run that needed the fastest timing somewhere (the programmed one is
// faster than fine stops by construction) against its segments planned one
// by one with fine stops: true, the run kept, when it is no slower; false,
// with `before` restored, when it is (its corners are too tight for the
// speed: the caller blends them in time instead, never slower than fine).
// A run no slower than FineStopsLowerBound is kept without planning them.
absl::StatusOr<bool> RunBeatsFineStops(const ChainModel& model, IkData& data,
                                       const PathRequest& request, const PathLimits& limits,
                                       const std::function<bool()>& cancelled, std::size_t first,
                                       std::size_t last, const Checkpoint& before,
                                       PathCursor& cursor, PathResult& result) {
  // No slower than fine stops can possibly be: kept without planning them.
  const Pose start =
      Pose::FromIsometry(ForwardKinematics(model, data.kinematics, before.cursor.joints) *
                         request.segments[first].tool.ToIsometry());
  const double bound = FineStopsLowerBound(
      request, first, last, start, first > 0 && AsksForBlend(request.segments[first - 1].zone));
  if (bound >= 0 && cursor.time <= before.cursor.time + bound + 1e-9) return true;
  const Checkpoint run{
      CopyTail(result, before.tail.samples, before.tail.segments, before.tail.diagnostics), cursor};
  Restore(before, result, cursor);
  PathRequest fine = request;
  for (std::size_t k = first; k < last; ++k) fine.segments[k].zone = ZoneSpec();
  bool followed = true;
  for (std::size_t k = first; k <= last && followed; ++k) {
    bool completed = false;
    absl::Status status =
        PlanSegment(model, data, fine, limits, cancelled, k, cursor, result, completed);
    if (!status.ok()) return status;
    followed = completed && result.segments.back().ok;
  }
  const bool keep_run = !followed || run.cursor.time <= cursor.time + 1e-9;
  Restore(keep_run ? run : before, result, cursor);
  return keep_run;
}

// Segments first..last (a MoveJ run, MoveJRunEnd) planned one by one, their
// corners overlapped in time; where a corner could not be rounded as large
// as its zone asks, again as one curve with its corners rounded through the
// same targets (PlanMoveJRun), and the faster is kept.
// Overlapping keeps each motion's exact profile but cannot round a corner
// where a joint turns back; the curve can. False, with nothing changed,
// when a segment fails one by one: the caller plans them so, and says why.
absl::StatusOr<bool> PlanMoveJRunOrSegments(const ChainModel& model, IkData& data,
                                            const PathRequest& request, const PathLimits& limits,
                                            const std::function<bool()>& cancelled,
                                            std::size_t first, std::size_t last, PathCursor& cursor,
                                            PathResult& result) {
  const Checkpoint before = Keep(result, cursor);
  std::vector<Eigen::VectorXd> waypoints{cursor.joints};
  for (std::size_t k = first; k <= last; ++k) {
    bool completed = false;
    absl::Status status =
        PlanSegment(model, data, request, limits, cancelled, k, cursor, result, completed);
    if (!status.ok()) return status;
    if (!completed || !result.segments.back().ok) {
      Restore(before, result, cursor);
      return false;
    }
    waypoints.push_back(cursor.joints);
  }
  const std::vector<SegmentReport> own(result.segments.end() - (last - first + 1),
                                       result.segments.end());
  // Every corner rounded as large as asked: the exact profiles stay (the
  // curve's timing costs far more to find).
  bool all_rounded = true;
  for (std::size_t k = 0; k + 1 < own.size(); ++k) {
    all_rounded =
        all_rounded && own[k].blend.blended &&
        std::none_of(own[k].diagnostics.begin(), own[k].diagnostics.end(),
                     [](const Diagnostic& d) { return d.code == DiagnosticCode::kZoneReduced; });
  }
  if (all_rounded) return true;
  const Checkpoint one_by_one{
      CopyTail(result, before.tail.samples, before.tail.segments, before.tail.diagnostics), cursor};
  Restore(before, result, cursor);
  absl::StatusOr<bool> planned = PlanRun(
      model, data, request, limits, cancelled, first, cursor, result,
      [&](SegmentContext& context, std::vector<SegmentReport>& reports, Eigen::VectorXd& end) {
        absl::StatusOr<bool> run =
            PlanMoveJRun(request, first, last, waypoints, context, reports, end);
        // What each target said of itself (a configuration change) stays.
        for (std::size_t k = 0; run.ok() && *run && k < reports.size(); ++k) {
          for (const Diagnostic& d : own[k].diagnostics) {
            if (d.code == DiagnosticCode::kConfigurationChange) reports[k].diagnostics.push_back(d);
          }
        }
        return run;
      });
  if (!planned.ok()) return planned.status();
  if (!*planned || cursor.time >= one_by_one.cursor.time - 1e-9) {
    Restore(one_by_one, result, cursor);
  }
  return true;
}

}  // namespace motion
