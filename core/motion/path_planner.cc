#include "core/motion/path_planner.h"

#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/dynamics/dynamics_availability.h"
#include "core/dynamics/dynamics_data.h"
#include "core/ik/joint_space.h"
#include "core/motion/internal/blended_run.h"
#include "core/motion/internal/move_j_run.h"
#include "core/motion/internal/path_collisions.h"
#include "core/motion/internal/path_runs.h"
#include "core/motion/internal/path_steps.h"
#include "core/motion/program_validation.h"

namespace motion {
namespace {

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
