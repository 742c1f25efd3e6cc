#include "core/motion/internal/move_j_around.h"

#include <algorithm>
#include <chrono>
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/motion/internal/checked_blend.h"
#include "core/motion/internal/move_j.h"
#include "core/motion/internal/result_checkpoint.h"
#include "core/motion/internal/rounded_legs.h"
#include "core/motion/internal/trajectory_checks.h"
#include "core/planning/joint_path_planner.h"

namespace motion {
namespace {

double PolylineLength(const std::vector<Eigen::VectorXd>& waypoints) {
  double length = 0.0;
  for (std::size_t i = 1; i < waypoints.size(); ++i) {
    length += (waypoints[i] - waypoints[i - 1]).norm();
  }
  return length;
}

void AddContactDiagnostic(SegmentReport& report, const std::string& what,
                          const std::vector<Contact>& contacts) {
  const Contact& c = contacts.front();
  AddPlanningFailed(
      report,
      absl::StrCat("movej avoid_collisions: the ", what, " is in collision: ", c.link, " touches ",
                   c.other, " (", c.depth, " m deep",
                   contacts.size() > 1 ? absl::StrCat(", and ", contacts.size() - 1, " more pairs")
                                       : std::string(),
                   ")"),
      &c);
}

// One straight leg after another, each from the end of the one before, the
// corner between two legs rounded where that stays clear; the segment's
// report is theirs together.
absl::Status PlanLegs(const MotionSegment& segment, SegmentContext& context,
                      const std::vector<Eigen::VectorXd>& waypoints, SegmentReport& report,
                      Eigen::VectorXd& end_joints) {
  MotionSegment leg = segment;
  leg.sync = JointSync::kStraight;  // a leg must stay on the checked line
  const double start_time = context.start_time;
  std::vector<SegmentReport> legs;
  JointPathReport& path = *report.joint_path;
  absl::Status status;
  for (std::size_t i = 1; i < waypoints.size(); ++i) {
    SegmentReport& part = legs.emplace_back();
    part.segment_id = report.segment_id;
    part.segment_index = report.segment_index;
    context.start = waypoints[i - 1];
    context.completed = false;
    Eigen::VectorXd reached;
    status = PlanStraightMoveJ(leg, context, waypoints[i - 1], waypoints[i], part, reached);
    if (!status.ok() || !context.completed || !part.ok) break;
    if (legs.size() > 1 && context.collision.robot != nullptr) {
      const CheckedBlend rounding =
          RoundPlannedCorner(context, segment.tool, legs[legs.size() - 2], part);
      if (rounding.blended) {
        ++path.rounded_corners;
        path.rounding_time_saved += rounding.time_saved;
      }
    }
    context.start_time += part.duration;
    context.continuous = true;  // the next leg starts at this one's last sample
    end_joints = reached;
  }
  MergeSectionReports(legs, report);
  if (!status.ok()) return status;
  if (!context.completed || !report.ok) {
    context.completed = false;
    return absl::OkStatus();
  }
  context.start_time = start_time;
  context.start = waypoints.front();
  report.path_length = PolylineLength(waypoints);
  return absl::OkStatus();
}

// The legs with their corners blended in time (PlanLegs), and the same
// path on one smooth curve with its corners rounded (PlanRoundedLegs): the
// faster of the two is kept. Superposition keeps each leg's own exact
// profile but cannot round a corner where a joint turns back; the curve
// can, and is timed as fast as its limits allow along all of it.
absl::Status PlanLegsOrCurve(const MotionSegment& segment, SegmentContext& context,
                             const std::vector<Eigen::VectorXd>& waypoints, SegmentReport& report,
                             Eigen::VectorXd& end_joints) {
  const SegmentReport unplanned = report;
  const std::size_t kept = context.out.size();
  const bool continuous = context.continuous;
  absl::Status status = PlanLegs(segment, context, waypoints, report, end_joints);
  if (!status.ok() || !context.completed || !report.ok || waypoints.size() < 3) return status;
  const double stopped = report.duration + report.joint_path->rounding_time_saved;
  const Trajectory legs = TrajectoryFrom(context.out, kept);
  const SegmentReport legs_report = report;
  const Eigen::VectorXd legs_end = end_joints;
  ReplaceTrajectoryTail(context.out, kept, Trajectory{});
  report = unplanned;
  context.continuous = continuous;
  RoundedLegs rounded;
  status = PlanRoundedLegs(segment, context, waypoints, report, end_joints, rounded);
  if (!status.ok()) return status;
  if (rounded.planned && report.duration < legs_report.duration - 1e-9) {
    report.joint_path->rounded_corners = rounded.rounded_corners;
    report.joint_path->rounding_time_saved = stopped - report.duration;
    report.path_length = PolylineLength(waypoints);
    return absl::OkStatus();
  }
  ReplaceTrajectoryTail(context.out, kept, legs);
  report = legs_report;
  end_joints = legs_end;
  context.continuous = true;
  context.completed = true;
  return absl::OkStatus();
}

}  // namespace

void AddPlanningFailed(SegmentReport& report, std::string message, const Contact* contact) {
  AddSegmentDiagnostic(report, Severity::kError, DiagnosticCode::kPlanningFailed,
                       std::move(message));
  if (contact == nullptr) return;
  Diagnostic& d = report.diagnostics.back();
  d.has_contact = true;
  d.contact_link = contact->link;
  d.contact_other = contact->other;
  d.contact_depth = contact->depth;
}

absl::Status PlanMoveJAroundObstacles(const MotionSegment& segment, SegmentContext& context,
                                      const Eigen::VectorXd& q1, SegmentReport& report,
                                      Eigen::VectorXd& end_joints) {
  const Eigen::VectorXd q0 = context.start;
  end_joints = q0;
  if (!(context.planning_seconds_left > 0)) {
    report.joint_path.emplace();
    AddPlanningFailed(report,
                      "movej avoid_collisions: the request's collision-free planning budget is "
                      "spent by earlier segments (PathLimits::max_planning_seconds)");
    report.ok = false;
    return absl::OkStatus();
  }
  JointPathOptions options;
  options.seed = segment.planner_seed;
  options.timeout = std::min(segment.planning_timeout, context.planning_seconds_left);
  options.self_collision = context.collision.self_collision;
  options.safety_margin = context.collision.safety_margin;
  options.allowed = context.collision.allowed;
  options.cancelled = context.cancelled;
  const auto started = std::chrono::steady_clock::now();
  absl::StatusOr<JointPathResult> planned =
      PlanJointPath(context.model, context.data.kinematics, *context.collision.robot,
                    *context.collision.scene, q0, q1, options);
  if (!planned.ok()) return planned.status();
  const JointPathResult& path = *planned;
  JointPathReport& out = report.joint_path.emplace();
  out.planning_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  out.straight_length = (q1 - q0).norm();
  out.nodes = path.stats.start_tree_nodes + path.stats.goal_tree_nodes;
  out.collision_checks = path.stats.configuration_checks + path.stats.edge_checks;
  switch (path.outcome) {
    case JointPathOutcome::kStraightLineClear:
    case JointPathOutcome::kFound:
      break;
    case JointPathOutcome::kCancelled:
      return absl::CancelledError("planning cancelled by the client");
    case JointPathOutcome::kStartInCollision:
      AddContactDiagnostic(report, "start", path.contacts);
      report.ok = false;
      return absl::OkStatus();
    case JointPathOutcome::kGoalInCollision:
      AddContactDiagnostic(report, "target", path.contacts);
      report.ok = false;
      return absl::OkStatus();
    case JointPathOutcome::kStartOutsideLimits:
    case JointPathOutcome::kGoalOutsideLimits:
      AddPlanningFailed(
          report,
          absl::StrCat("movej avoid_collisions: the ",
                       path.outcome == JointPathOutcome::kStartOutsideLimits ? "start" : "target",
                       " is outside the limits of ",
                       context.model.dof_names[std::max(0, path.joint_outside_limits)]));
      report.ok = false;
      return absl::OkStatus();
    case JointPathOutcome::kNoPathWithinBudget:
      AddPlanningFailed(
          report,
          absl::StrCat("movej avoid_collisions: no collision-free path within the budget (",
                       path.stats.iterations, " iterations, ", out.nodes, " nodes, ",
                       out.collision_checks, " collision checks in ", out.planning_seconds, " s",
                       path.stats.timed_out ? ", the planning_timeout of " : "",
                       path.stats.timed_out ? absl::StrCat(options.timeout, " s") : std::string(),
                       ")"));
      report.ok = false;
      return absl::OkStatus();
  }
  out.planned = path.outcome == JointPathOutcome::kFound;
  out.waypoints = path.waypoints;
  out.length = PolylineLength(path.waypoints);
  return PlanLegsOrCurve(segment, context, path.waypoints, report, end_joints);
}

}  // namespace motion
