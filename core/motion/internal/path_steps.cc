#include "core/motion/internal/path_steps.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/geometry/pose_algebra.h"
#include "core/ik/ik_solver.h"
#include "core/kinematics/forward_kinematics.h"
#include "core/motion/internal/checked_blend.h"
#include "core/motion/internal/move_c.h"
#include "core/motion/internal/move_j.h"
#include "core/motion/internal/move_l.h"
#include "core/motion/internal/trajectory_checks.h"

namespace motion {

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

}  // namespace motion
