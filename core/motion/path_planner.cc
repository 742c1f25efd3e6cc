#include "core/motion/path_planner.h"

#include <chrono>
#include <cmath>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/ik/ik_solver.h"
#include "core/ik/joint_space.h"
#include "core/kinematics/forward_kinematics.h"
#include "core/motion/move_c.h"
#include "core/motion/move_j.h"
#include "core/motion/move_l.h"
#include "core/motion/program_validation.h"
#include "core/motion/segment_context.h"
#include "core/motion/trajectory_checks.h"

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
bool TargetJoints(ChainWorkspace& ws, const MotionSegment& segment, const Eigen::VectorXd& start,
                  Eigen::VectorXd& out) {
  if (segment.kind == MotionKind::kMoveJ && segment.joint_target) {
    out = Eigen::Map<const Eigen::VectorXd>(segment.target_joints.data(),
                                            segment.target_joints.size());
    return true;
  }
  const Pose target =
      ResolveTarget(segment.target, segment.frame, segment.offset, segment.offset_frame);
  const std::vector<double> seed(start.data(), start.data() + start.size());
  absl::StatusOr<IkResult> ik = SolveIk(ws, target, segment.tool, seed, IkOptions());
  if (!ik.ok() || !ik->ok) return false;
  out = ik->joints;
  return true;
}

}  // namespace

absl::StatusOr<PathResult> PlanPath(ChainWorkspace& ws, const PathRequest& request_as_given,
                                    const PathLimits& limits,
                                    const std::function<bool()>& cancelled) {
  const ChainModel& model = *ws.chain;
  if (auto status = ValidateProgram(model, request_as_given, limits); !status.ok()) return status;
  const PathRequest request = ResolveProgramDefaults(request_as_given);

  PathResult result;
  result.trajectory.dof = model.dof();
  if (request.segments.empty()) {
    AddPathDiagnostic(result, Severity::kError, DiagnosticCode::kPathEmpty,
                      "the path has no segments");
    return result;
  }
  Eigen::VectorXd joints =
      Eigen::Map<const Eigen::VectorXd>(request.start_joints.data(), request.start_joints.size());
  if (const int j = FirstJointOutsideLimits(model, joints); j >= 0) {
    AddPathDiagnostic(result, Severity::kError, DiagnosticCode::kJointLimit,
                      absl::StrCat("start_joints: ", model.dof_names[j], " = ", joints[j],
                                   " is outside its limits [", model.dof_limits[j].lower, ", ",
                                   model.dof_limits[j].upper, "]"));
    result.diagnostics.back().joint_name = model.dof_names[j];
    result.diagnostics.back().value = joints[j];
    return result;
  }

  double time = 0.0;
  bool continuous = true;
  for (std::size_t i = 0; i < request.segments.size(); ++i) {
    if (cancelled && cancelled()) return absl::CancelledError("planning cancelled by the client");
    const MotionSegment& segment = request.segments[i];
    SegmentReport report;
    report.segment_id = segment.id.empty() ? absl::StrCat("#", i) : segment.id;
    report.segment_index = static_cast<int>(i);
    if (segment.zone.kind != ZoneKind::kFine) {
      AddSegmentDiagnostic(report, Severity::kInfo, DiagnosticCode::kZoneApproximated,
                           "zone approximated as fine: the motion stops at the target "
                           "(blending is not implemented yet)");
    }
    SegmentContext context{
        ws,
        joints,
        Pose::FromIsometry(ForwardKinematics(model, ws.data, joints) * segment.tool.ToIsometry()),
        request.sample_time,
        request.speed_override,
        time,
        limits.max_points,
        cancelled,
        result.trajectory,
        continuous};
    Eigen::VectorXd end = joints;
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
    if (!status.ok()) return status;

    result.diagnostics.insert(result.diagnostics.end(), report.diagnostics.begin(),
                              report.diagnostics.end());
    const bool segment_ok = report.ok;
    if (!segment_ok) result.ok = false;
    if (context.completed) {
      time += report.duration;
      joints = end;
      continuous = true;
    }
    result.segments.push_back(std::move(report));
    if (segment_ok || context.completed) continue;
    if (request.stop_on_error) break;
    Eigen::VectorXd next;
    if (!TargetJoints(ws, segment, joints, next)) {
      AddPathDiagnostic(
          result, Severity::kError, DiagnosticCode::kTargetUnreachable,
          absl::StrCat("path stopped after segment ", result.segments.back().segment_id,
                       ": its target cannot be reached, so later segments have "
                       "no start"));
      break;
    }
    joints = next;
    continuous = false;  // the next segment starts from the target, not from here
    // Its first sample is a new point: keep times strictly increasing.
    if (result.trajectory.size() > 0) time += request.sample_time;
  }
  result.duration = result.trajectory.size() ? result.trajectory.time.back() : 0.0;
  return result;
}

}  // namespace motion
