#include "core/motion/path_planner.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/dynamics/dynamics_availability.h"
#include "core/dynamics/dynamics_data.h"
#include "core/ik/ik_solver.h"
#include "core/ik/joint_space.h"
#include "core/kinematics/forward_kinematics.h"
#include "core/motion/internal/blended_run.h"
#include "core/motion/internal/checked_blend.h"
#include "core/motion/internal/fine_stop_bound.h"
#include "core/motion/internal/move_c.h"
#include "core/motion/internal/move_j.h"
#include "core/motion/internal/move_j_run.h"
#include "core/motion/internal/move_l.h"
#include "core/motion/internal/path_collisions.h"
#include "core/motion/internal/result_checkpoint.h"
#include "core/motion/internal/segment_context.h"
#include "core/motion/internal/trajectory_checks.h"
#include "core/motion/internal/zone_blending.h"
#include "core/motion/program_validation.h"

namespace motion {
namespace {

void AddPathDiagnostic(PathResult& result, Severity severity, DiagnosticCode code,
                       std::string message) {
  Diagnostic d;
  d.severity = severity;
  d.code = code;
  d.message = std::move(message);
  result.diagnostics.push_back(std::move(d));
  if (severity == Severity::kError) result.ok = false;
}

// Where a failed segment would have ended, so planning can go on from there.
bool TargetJoints(const ChainModel& model, IkData& data, const MotionSegment& segment,
                  const Eigen::VectorXd& start, Eigen::VectorXd& out) {
  if (segment.kind == MotionKind::kMoveJ && segment.joint_target) {
    out = Eigen::Map<const Eigen::VectorXd>(segment.target_joints.data(),
                                            segment.target_joints.size());
    return true;
  }
  const Pose target =
      ResolveTarget(segment.target, segment.frame, segment.offset, segment.offset_frame);
  const std::vector<double> seed(start.data(), start.data() + start.size());
  absl::StatusOr<IkResult> ik = SolveIk(model, data, target, segment.tool, seed, IkOptions());
  if (!ik.ok() || !ik->ok) return false;
  out = ik->joints;
  return true;
}

// False (with a diagnostic) when the program cannot start: no segments, or
// start joints outside the limits.
bool CanStart(const ChainModel& model, const PathRequest& request, const Eigen::VectorXd& joints,
              PathResult& result) {
  if (request.segments.empty()) {
    AddPathDiagnostic(result, Severity::kError, DiagnosticCode::kPathEmpty,
                      "the path has no segments");
    return false;
  }
  if (const int j = FirstJointOutsideLimits(model, joints); j >= 0) {
    AddPathDiagnostic(result, Severity::kError, DiagnosticCode::kJointLimit,
                      absl::StrCat("start_joints: ", model.dof_names[j], " = ", joints[j],
                                   " is outside its limits [", model.dof_limits[j].lower, ", ",
                                   model.dof_limits[j].upper, "]"));
    result.diagnostics.back().joint_name = model.dof_names[j];
    result.diagnostics.back().value = joints[j];
    return false;
  }
  return true;
}

// The zone at the end of segment `index` (the last report of `result`):
// blended into `next` (planned, not yet in the result), or, without one, a
// fine stop that says why. With `collision` (a MoveJ planned around
// obstacles on either side, which promises a clear motion) the blend is
// kept only as far as it stays collision-free. New diagnostics go to the
// report and the path.
void ResolveZone(const ChainModel& model, ChainData& data, const PathRequest& request,
                 std::size_t index, SegmentReport* next, const std::string& why_not,
                 const SegmentCollision* collision, const std::function<bool()>& cancelled,
                 const BlendDynamics* dynamics, PathResult& result) {
  const MotionSegment& segment = request.segments[index];
  if (!AsksForBlend(segment.zone)) return;
  SegmentReport& report = result.segments.back();
  const std::size_t known = report.diagnostics.size();
  // Between two Cartesian motions the blend keeps the TCP within the
  // faster one's programmed speed (speed_override included).
  double max_tcp_speed = std::numeric_limits<double>::infinity();
  if (index + 1 < request.segments.size()) {
    const MotionSegment& following = request.segments[index + 1];
    if (segment.kind != MotionKind::kMoveJ && following.kind != MotionKind::kMoveJ) {
      max_tcp_speed = request.speed_override *
                      std::max(segment.speed.linear_velocity, following.speed.linear_velocity);
    }
  }
  if (next != nullptr && collision != nullptr) {
    BlendSetting setting{
        model,     data,    request.joint_limits, request.profile, request.sample_time, *collision,
        cancelled, dynamics};
    setting.max_tcp_speed = max_tcp_speed;
    const CheckedBlend blend = BlendCornerCollisionFree(setting, segment.zone, segment.tool,
                                                        result.trajectory, report, *next);
    if (!blend.blended && blend.collided) {
      AddSegmentDiagnostic(
          report, Severity::kWarning, DiagnosticCode::kZoneApproximated,
          absl::StrCat("zone executed as a fine stop: next to a MoveJ planned around obstacles "
                       "the blend must stay clear, and every one tried would bring ",
                       blend.contact.link, " into ", blend.contact.other));
    }
  } else if (next != nullptr) {
    BlendCorner(model, data, request.joint_limits, request.profile, request.sample_time,
                segment.zone, segment.tool, result.trajectory, report, *next, dynamics,
                max_tcp_speed);
  } else {
    AddSegmentDiagnostic(report, Severity::kWarning, DiagnosticCode::kZoneApproximated,
                         absl::StrCat("zone executed as a fine stop: ", why_not));
  }
  for (std::size_t i = known; i < report.diagnostics.size(); ++i) {
    report.diagnostics[i].source = segment.source;
    result.diagnostics.push_back(report.diagnostics[i]);
  }
}

bool PlannedAround(const SegmentReport& report) {
  return report.joint_path && report.joint_path->planned;
}

// Where the program is between segments.
struct PathCursor {
  Eigen::VectorXd joints;              ///< where the next segment starts
  double time = 0.0;                   ///< path time of its t = 0
  bool continuous = true;              ///< false after a failed segment: its first sample is new
  std::size_t continuous_from = 0;     ///< first trajectory sample of the current run
  double planning_seconds_left = 0.0;  ///< of PathLimits::max_planning_seconds
  Payload payload;                     ///< carried now (RobotRef, then each segment's)
  DynamicsData* dynamics = nullptr;    ///< null: torque neither limited nor checked
};

// What a planner works with from the cursor, for `segment`.
SegmentContext ContextFor(const ChainModel& model, IkData& data, const PathRequest& request,
                          const PathLimits& limits, const std::function<bool()>& cancelled,
                          const MotionSegment& segment, const PathCursor& cursor,
                          PathResult& result) {
  SegmentContext context{
      model,
      data,
      request.joint_limits,
      request.profile,
      cursor.joints,
      Pose::FromIsometry(ForwardKinematics(model, data.kinematics, cursor.joints) *
                         segment.tool.ToIsometry()),
      request.sample_time,
      request.speed_override,
      cursor.time,
      limits.max_points,
      cancelled,
      result.trajectory,
      cursor.continuous,
      /*completed=*/false,
      SegmentCollision{},
      cursor.planning_seconds_left,
      cursor.dynamics,
      cursor.payload,
      request.gravity};
  context.continuous_from = cursor.continuous_from;
  if (request.collision_model) {
    context.collision.robot = request.collision_model.get();
    context.collision.scene = request.scene ? request.scene.get() : CollisionScene::Empty().get();
    context.collision.self_collision = request.check_self_collision;
    context.collision.safety_margin = request.safety_margin;
    context.collision.allowed = request.allowed_collisions.get();
  }

  return context;
}

// One segment from the cursor: its planner, its report, and (when every
// sample was made) the cursor moved to its end. Sets `completed`.
absl::Status PlanSegment(const ChainModel& model, IkData& data, const PathRequest& request,
                         const PathLimits& limits, const std::function<bool()>& cancelled,
                         std::size_t index, PathCursor& cursor, PathResult& result,
                         bool& completed) {
  const MotionSegment& segment = request.segments[index];
  SegmentReport report;
  report.segment_id = segment.id.empty() ? absl::StrCat("#", index) : segment.id;
  report.segment_index = static_cast<int>(index);
  const bool starts_where_previous_ended = cursor.continuous;
  const Payload carried_before = cursor.payload;
  if (segment.payload) cursor.payload = *segment.payload;  // from this segment on
  SegmentContext context =
      ContextFor(model, data, request, limits, cancelled, segment, cursor, result);
  Eigen::VectorXd end = cursor.joints;
  absl::Status status;
  const auto started = std::chrono::steady_clock::now();
  switch (segment.kind) {
    case MotionKind::kMoveJ:
      report.motion = "movej";
      status = PlanMoveJ(segment, context, report, end);
      break;
    case MotionKind::kMoveL:
      report.motion = "movel";
      status = PlanMoveL(segment, context, report, end);
      break;
    case MotionKind::kMoveC:
      report.motion = "movec";
      status = PlanMoveC(segment, context, report, end);
      break;
  }
  report.compute_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (report.joint_path) cursor.planning_seconds_left -= report.joint_path->planning_seconds;
  if (!status.ok()) return status;

  if (index > 0 && !result.segments.empty() &&
      result.segments.back().segment_index == static_cast<int>(index) - 1) {
    // Next to a MoveJ planned around obstacles a blend must stay clear.
    const bool around = PlannedAround(result.segments.back()) || PlannedAround(report);
    const bool blendable =
        starts_where_previous_ended && result.segments.back().ok && report.ok && context.completed;
    const BlendDynamics dynamics{cursor.dynamics, request.gravity, carried_before, cursor.payload};
    ResolveZone(model, data.kinematics, request, index - 1, blendable ? &report : nullptr,
                "the next motion does not start from its end",
                around && context.collision.robot != nullptr ? &context.collision : nullptr,
                cancelled, &dynamics, result);
  }
  if (!segment.source.empty()) {
    for (Diagnostic& d : report.diagnostics) d.source = segment.source;
  }
  result.diagnostics.insert(result.diagnostics.end(), report.diagnostics.begin(),
                            report.diagnostics.end());
  if (!report.ok) result.ok = false;
  completed = context.completed;
  if (completed) {
    cursor.time += report.duration;
    cursor.joints = end;
    cursor.continuous = true;
  }
  result.segments.push_back(std::move(report));
  return absl::OkStatus();
}

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

// Plans a run of segments as one motion from a context at its start: its
// reports, one per segment, and where it ends (PlanBlendedRun, PlanMoveJRun).
using RunPlanner = std::function<absl::StatusOr<bool>(
    SegmentContext& context, std::vector<SegmentReport>& reports, Eigen::VectorXd& end)>;

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

// The path result and cursor as they were before some segments were
// planned (what a blend into them may still change included: the report
// before them and its samples), so that they can be planned another way.
struct Checkpoint {
  ResultTail tail;
  PathCursor cursor;
};

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

// After a failed segment (and stop_on_error false): go on from its target,
// or stop the path with a diagnostic when that cannot be reached.
bool ResumeAfterFailure(const ChainModel& model, IkData& data, const PathRequest& request,
                        const MotionSegment& segment, PathCursor& cursor, PathResult& result) {
  Eigen::VectorXd next;
  if (!TargetJoints(model, data, segment, cursor.joints, next)) {
    AddPathDiagnostic(result, Severity::kError, DiagnosticCode::kTargetUnreachable,
                      absl::StrCat("path stopped after segment ", result.segments.back().segment_id,
                                   ": its target cannot be reached, so later segments have "
                                   "no start"));
    return false;
  }
  cursor.joints = next;
  cursor.continuous = false;  // the next segment starts from the target, not from here
  cursor.continuous_from = result.trajectory.size();  // where its first sample goes
  // Its first sample is a new point: keep times strictly increasing.
  if (result.trajectory.size() > 0) cursor.time += request.sample_time;
  return true;
}

}  // namespace

absl::StatusOr<PathResult> PlanPath(const ChainModel& model, IkData& data,
                                    const PathRequest& request_as_given, const PathLimits& limits,
                                    const std::function<bool()>& cancelled) {
  if (auto status = ValidateProgram(model, request_as_given, limits); !status.ok()) return status;
  const PathRequest request = ResolveProgramDefaults(model, request_as_given);

  PathResult result;
  result.trajectory.dof = model.dof();
  PathCursor cursor;
  cursor.planning_seconds_left = limits.max_planning_seconds;
  // Torque is a limit where every moving body has an inertial and every
  // joint an effort that holds the arm; elsewhere one warning says why not.
  bool carries = request.payload.has_value();
  for (const MotionSegment& segment : request.segments) carries |= segment.payload.has_value();
  std::optional<DynamicsData> dynamics;
  if (std::optional<Diagnostic> unavailable =
          DynamicsUnavailableWarning(model, request.joint_limits, request.gravity, carries)) {
    result.diagnostics.push_back(*unavailable);
  } else {
    dynamics.emplace(model);
    cursor.dynamics = &*dynamics;
  }
  if (request.payload) cursor.payload = *request.payload;
  cursor.joints =
      Eigen::Map<const Eigen::VectorXd>(request.start_joints.data(), request.start_joints.size());
  if (!CanStart(model, request, cursor.joints, result)) return result;

  // Segments before this are planned one by one (a run there lost to fine
  // stops).
  std::size_t by_segment_until = 0;
  for (std::size_t i = 0; i < request.segments.size(); ++i) {
    if (cancelled && cancelled()) return absl::CancelledError("planning cancelled by the client");
    // A run of blended Cartesian motions is one curve and one timing
    // (after a MoveJ planned around obstacles, its blend must stay clear:
    // segment by segment).
    if (std::size_t last = BlendedRunEnd(request, i);
        i >= by_segment_until && last > i &&
        (result.segments.empty() || !PlannedAround(result.segments.back()))) {
      const Checkpoint before = Keep(result, cursor);
      bool as_programmed = false;
      absl::StatusOr<bool> planned = PlanRun(
          model, data, request, limits, cancelled, i, cursor, result,
          [&](SegmentContext& context, std::vector<SegmentReport>& reports, Eigen::VectorXd& end) {
            return PlanBlendedRun(request, i, last, context, reports, end, as_programmed);
          });
      if (planned.ok() && *planned && !as_programmed) {
        planned = RunBeatsFineStops(model, data, request, limits, cancelled, i, last, before,
                                    cursor, result);
        if (planned.ok() && !*planned) by_segment_until = last + 1;
      }
      if (!planned.ok()) return planned.status();
      if (*planned) {
        i = last;
        continue;
      }
    }
    // A run of blended plain MoveJs: one by one, or one rounded curve.
    if (std::size_t last = MoveJRunEnd(request, i);
        i >= by_segment_until && last > i &&
        (result.segments.empty() || !PlannedAround(result.segments.back()))) {
      absl::StatusOr<bool> planned =
          PlanMoveJRunOrSegments(model, data, request, limits, cancelled, i, last, cursor, result);
      if (!planned.ok()) return planned.status();
      if (*planned) {
        i = last;
        continue;
      }
      by_segment_until = last + 1;
    }
    bool completed = false;
    if (auto status =
            PlanSegment(model, data, request, limits, cancelled, i, cursor, result, completed);
        !status.ok()) {
      return status;
    }
    const bool segment_ok = result.segments.back().ok;
    // stop_on_error stops at the first segment with an error of any kind,
    // also one that was sampled to its end (a limit, a flip, a deviation).
    if (!segment_ok && request.stop_on_error) break;
    if (segment_ok || completed) continue;
    if (!ResumeAfterFailure(model, data, request, request.segments[i], cursor, result)) break;
  }
  if (!result.segments.empty()) {
    const bool last =
        result.segments.back().segment_index + 1 == static_cast<int>(request.segments.size());
    ResolveZone(
        model, data.kinematics, request, result.segments.back().segment_index, nullptr,
        last ? "the last motion of a program ends at rest" : "the path stopped after this segment",
        nullptr, cancelled, nullptr, result);
  }
  result.duration = result.trajectory.size() ? result.trajectory.time.back() : 0.0;
  if (request.collision_model) {
    CheckPathCollisions(model, data.kinematics, request, cancelled, result);
    if (cancelled && cancelled()) return absl::CancelledError("planning cancelled by the client");
  }
  return result;
}

}  // namespace motion
