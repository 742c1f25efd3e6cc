#include "server/convert/path_conversion.h"

#include <tuple>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "core/diagnostics/untrusted_text.h"
#include "google/rpc/error_details.pb.h"
#include "proto/motion/v1/wire_constants.h"
#include "server/convert/dynamics_conversion.h"
#include "server/convert/proto_conversion.h"
#include "server/runtime/robot_registry.h"

namespace motion::server {
namespace {

SpeedSpec SpeedFromProto(const v1::Speed& s) {
  return SpeedSpec{s.joint_fraction(),   s.linear_velocity(),      s.linear_acceleration(),
                   s.angular_velocity(), s.angular_acceleration(), s.linear_jerk(),
                   s.angular_jerk()};
}

// `motion` is "movel" or "movec": VIA needs a via point, so MoveC only.
absl::StatusOr<OrientationMode> OrientationFromProto(v1::MoveL::OrientationMode mode,
                                                     const std::string& field,
                                                     absl::string_view motion) {
  switch (mode) {
    case v1::MoveL::ORIENTATION_MODE_UNSPECIFIED:
    case v1::MoveL::SLERP:
      return OrientationMode::kSlerp;
    case v1::MoveL::FIXED:
      return OrientationMode::kFixed;
    case v1::MoveL::VIA:
      if (motion == "movec") return OrientationMode::kVia;
      return absl::InvalidArgumentError(absl::StrCat(
          field, ".", motion, ".orientation_mode: VIA needs a via point (MoveC only)"));
    default:
      break;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      field, ".", motion, ".orientation_mode: unknown value ", static_cast<int>(mode)));
}

// See ValidationToProto: no target that cannot be reached, including one
// reachable only outside the joint limits (a JOINT_LIMIT error about a
// target or the start, i.e. not tied to a sample).
bool Reachable(const PathResult& result) {
  for (const Diagnostic& d : result.diagnostics) {
    if (d.severity != Severity::kError) continue;
    if (d.code == DiagnosticCode::kTargetUnreachable || d.code == DiagnosticCode::kIkFailed ||
        d.code == DiagnosticCode::kArcDegenerate ||
        (d.code == DiagnosticCode::kJointLimit && d.point_index < 0)) {
      return false;
    }
  }
  return true;
}

absl::StatusOr<ZoneSpec> ZoneFromProto(const v1::Zone& in, const std::string& field) {
  ZoneSpec out;
  switch (in.kind()) {
    case v1::Zone::KIND_UNSPECIFIED:
    case v1::Zone::FINE:
      out.kind = ZoneKind::kFine;
      break;
    case v1::Zone::DISTANCE:
      out.kind = ZoneKind::kDistance;
      break;
    case v1::Zone::CNT:
      out.kind = ZoneKind::kCnt;
      break;
    case v1::Zone::CONTINUOUS:
      out.kind = ZoneKind::kContinuous;
      break;
    default:
      return absl::InvalidArgumentError(absl::StrCat(field, ".zone.kind: unknown value"));
  }
  out.distance = in.distance();
  out.percent = in.percent();
  return out;
}

// tool, frame and offset (identity when absent), then the offset's frame.
absl::Status FramesFromProto(const v1::MotionSegment& in, const std::string& field,
                             MotionSegment& out) {
  for (auto [present, proto, target, name] :
       {std::tuple{in.has_tool(), &in.tool(), &out.tool, "tool"},
        std::tuple{in.has_frame(), &in.frame(), &out.frame, "frame"},
        std::tuple{in.has_offset(), &in.offset(), &out.offset, "offset"}}) {
    absl::StatusOr<Pose> pose =
        OptionalPoseFromProto(present, *proto, absl::StrCat(field, ".", name));
    if (!pose.ok()) return pose.status();
    *target = *pose;
  }
  switch (in.offset_frame()) {
    case v1::MotionSegment::WORLD:
      out.offset_frame = OffsetFrame::kWorld;
      break;
    case v1::MotionSegment::FRAME:
      out.offset_frame = OffsetFrame::kFrame;
      break;
    case v1::MotionSegment::TOOL:
      out.offset_frame = OffsetFrame::kTool;
      break;
    default:
      return absl::InvalidArgumentError(absl::StrCat(field, ".offset_frame: unknown value"));
  }
  if (in.source().size() > 256) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ".source: ", in.source().size(), " bytes, at most 256"));
  }
  out.source = in.source();
  // Unset = the default; an explicit 0 reaches core's validation and is refused.
  if (in.has_path_tolerance()) out.path_tolerance = in.path_tolerance();
  if (in.has_path_angle_tolerance()) out.path_angle_tolerance = in.path_angle_tolerance();
  return absl::OkStatus();
}

// The oneof motion: kind, targets and orientation mode.
absl::Status MotionFromProto(const v1::MotionSegment& in, const std::string& field,
                             MotionSegment& out) {
  auto pose = [&](const v1::Pose& p, const std::string& name) -> absl::StatusOr<Pose> {
    return PoseFromProto(p, absl::StrCat(field, ".", name));
  };
  switch (in.motion_case()) {
    case v1::MotionSegment::kMovej: {
      out.kind = MotionKind::kMoveJ;
      const v1::MoveJ& m = in.movej();
      if (m.sync() != v1::MoveJ::SYNC_UNSPECIFIED && m.sync() != v1::MoveJ::STRAIGHT &&
          m.sync() != v1::MoveJ::TIME) {
        return absl::InvalidArgumentError(absl::StrCat(field, ".movej.sync: unknown value ",
                                                       static_cast<int>(m.sync()),
                                                       "; use STRAIGHT or TIME"));
      }
      out.sync = m.sync() == v1::MoveJ::TIME ? JointSync::kTime : JointSync::kStraight;
      out.avoid_collisions = m.avoid_collisions();
      out.planner_seed = m.planner_seed();
      out.planning_timeout = m.planning_timeout();  // checked by core's ValidateProgram
      if (m.target_case() == v1::MoveJ::kJoints) {
        out.joint_target = true;
        out.target_joints.assign(m.joints().values().begin(), m.joints().values().end());
      } else if (m.target_case() == v1::MoveJ::kPose) {
        absl::StatusOr<Pose> target = pose(m.pose(), "movej.pose");
        if (!target.ok()) return target.status();
        out.target = *target;
        if (m.has_configuration()) {
          absl::StatusOr<RobotConfiguration> c = ConfigurationFromProto(
              m.configuration(), absl::StrCat(field, ".movej.configuration"));
          if (!c.ok()) return c.status();
          out.configuration = *std::move(c);
        }
      } else {
        return absl::InvalidArgumentError(
            absl::StrCat(field, ".movej: no target; set joints or pose"));
      }
      return absl::OkStatus();
    }
    case v1::MotionSegment::kMovel: {
      out.kind = MotionKind::kMoveL;
      if (!in.movel().has_target()) {
        return absl::InvalidArgumentError(absl::StrCat(field, ".movel.target: missing"));
      }
      absl::StatusOr<Pose> target = pose(in.movel().target(), "movel.target");
      if (!target.ok()) return target.status();
      out.target = *target;
      absl::StatusOr<OrientationMode> orientation =
          OrientationFromProto(in.movel().orientation_mode(), field, "movel");
      if (!orientation.ok()) return orientation.status();
      out.orientation = *orientation;
      return absl::OkStatus();
    }
    case v1::MotionSegment::kMovec: {
      out.kind = MotionKind::kMoveC;
      if (!in.movec().has_via() || !in.movec().has_target()) {
        return absl::InvalidArgumentError(absl::StrCat(field, ".movec: needs both via and target"));
      }
      absl::StatusOr<Pose> via = pose(in.movec().via(), "movec.via");
      if (!via.ok()) return via.status();
      absl::StatusOr<Pose> target = pose(in.movec().target(), "movec.target");
      if (!target.ok()) return target.status();
      out.via = *via;
      out.target = *target;
      absl::StatusOr<OrientationMode> orientation =
          OrientationFromProto(in.movec().orientation_mode(), field, "movec");
      if (!orientation.ok()) return orientation.status();
      out.orientation = *orientation;
      return absl::OkStatus();
    }
    default:
      return absl::InvalidArgumentError(
          absl::StrCat(field, ".motion: unknown motion kind; set movej, movel or movec"));
  }
}

// Errors in the order a reader meets the fields: zone, frames, motion.
absl::StatusOr<MotionSegment> SegmentFromProto(const v1::MotionSegment& in, int index) {
  const std::string field = absl::StrCat("segments[", index, "]");
  MotionSegment out;
  out.id = in.id();
  out.speed = SpeedFromProto(in.speed());
  absl::StatusOr<ZoneSpec> zone = ZoneFromProto(in.zone(), field);
  if (!zone.ok()) return zone.status();
  out.zone = *zone;
  if (absl::Status status = FramesFromProto(in, field, out); !status.ok()) return status;
  if (absl::Status status = MotionFromProto(in, field, out); !status.ok()) return status;
  if (in.has_payload()) {
    absl::StatusOr<Payload> payload =
        PayloadFromProto(in.payload(), absl::StrCat(field, ".payload"));
    if (!payload.ok()) return payload.status();
    out.payload = *payload;
  }
  return out;
}

}  // namespace

absl::StatusOr<ProfileKind> ProfileKindFromProto(int profile) {
  switch (profile) {
    case v1::PlanPathRequest::PROFILE_UNSPECIFIED:
    case v1::PlanPathRequest::JERK_LIMITED:
      return ProfileKind::kJerkLimited;
    case v1::PlanPathRequest::TRAPEZOID:
      return ProfileKind::kTrapezoid;
    default:
      return absl::InvalidArgumentError(
          absl::StrCat("profile: unknown value ", profile, "; use TRAPEZOID or JERK_LIMITED"));
  }
}

absl::StatusOr<PathRequest> PathRequestFromProto(const v1::PlanPathRequest& request) {
  PathRequest out;
  out.start_joints.assign(request.start_joints().begin(), request.start_joints().end());
  // As sent: 0 = default, resolved in core (ResolveProgramDefaults).
  out.sample_time = request.sample_time();
  out.speed_override = request.speed_override();
  out.stop_on_error = request.stop_on_error();
  absl::StatusOr<ProfileKind> profile = ProfileKindFromProto(request.profile());
  if (!profile.ok()) return profile.status();
  out.profile = *profile;
  absl::StatusOr<Eigen::Vector3d> gravity =
      GravityFromProto(request.has_gravity(), request.gravity(), "gravity");
  if (!gravity.ok()) return gravity.status();
  out.gravity = *gravity;
  out.segments.reserve(request.segments_size());
  for (int i = 0; i < request.segments_size(); ++i) {
    absl::StatusOr<MotionSegment> segment = SegmentFromProto(request.segments(i), i);
    if (!segment.ok()) return segment.status();
    out.segments.push_back(*std::move(segment));
  }
  return out;
}

void SegmentReportToProto(const SegmentReport& r, v1::SegmentReport* out) {
  out->set_segment_id(r.segment_id);
  out->set_segment_index(r.segment_index);
  out->set_ok(r.ok);
  out->set_start_time(r.start_time);
  out->set_duration(r.duration);
  out->set_first_index(r.first_index);
  out->set_point_count(r.point_count);
  out->set_max_joint_velocity_ratio(r.max_joint_velocity_ratio);
  out->set_max_joint_acceleration_ratio(r.max_joint_acceleration_ratio);
  out->set_max_joint_jerk_ratio(r.max_joint_jerk_ratio);
  out->set_max_joint_torque_ratio(r.max_joint_torque_ratio);
  out->set_motion(r.motion);
  out->set_max_cartesian_error(r.max_cartesian_error);
  out->set_path_length(r.path_length);
  for (const Diagnostic& d : r.diagnostics) DiagnosticToProto(d, out->add_diagnostics());
  if (r.has_arc) {
    auto set = [](const Eigen::Vector3d& v, v1::Vector3* p) {
      p->set_x(v.x());
      p->set_y(v.y());
      p->set_z(v.z());
    };
    set(r.arc.center, out->mutable_arc_center());
    set(r.arc.normal, out->mutable_arc_normal());
    out->set_arc_radius(r.arc.radius);
    out->set_arc_angle(r.arc.angle);
  }
  if (r.blend.blended) {
    v1::BlendReport* b = out->mutable_blend();
    b->set_start_time(r.blend.start_time);
    b->set_end_time(r.blend.end_time);
    b->set_start_index(r.blend.start_index);
    b->set_end_index(r.blend.end_index);
    b->set_zone_radius(r.blend.zone_radius);
    b->set_leave_distance(r.blend.leave_distance);
    b->set_rejoin_distance(r.blend.rejoin_distance);
    b->set_corner_distance(r.blend.corner_distance);
    b->set_time_saved(r.blend.time_saved);
    b->set_min_tcp_speed(r.blend.min_tcp_speed);
  }
  if (r.joint_path) {
    v1::JointPathReport* p = out->mutable_joint_path();
    p->set_planned(r.joint_path->planned);
    for (const Eigen::VectorXd& w : r.joint_path->waypoints) {
      p->add_waypoints()->mutable_values()->Add(w.data(), w.data() + w.size());
    }
    p->set_length(r.joint_path->length);
    p->set_straight_length(r.joint_path->straight_length);
    p->set_planning_time(r.joint_path->planning_seconds);
    p->set_nodes(r.joint_path->nodes);
    p->set_collision_checks(r.joint_path->collision_checks);
    p->set_rounded_corners(r.joint_path->rounded_corners);
    p->set_rounding_time_saved(r.joint_path->rounding_time_saved);
  }
}

void PlanHeaderToProto(const std::string& robot_id, const ChainModel& chain, double sample_time,
                       const Trajectory& trajectory, v1::PlanPathHeader* out) {
  out->set_robot_id(robot_id);
  out->set_dof(trajectory.dof);
  for (const std::string& name : chain.dof_names) out->add_joint_names(name);
  out->set_sample_time(sample_time);
  out->set_point_count(static_cast<int64_t>(trajectory.size()));
  out->set_base_link(chain.base_link);
  out->set_tip_link(chain.tip_link);
}

void TrajectoryChunkToProto(const Trajectory& t, std::size_t begin, std::size_t end,
                            bool include_tcp, v1::TrajectoryChunk* out) {
  const std::size_t dof = static_cast<std::size_t>(t.dof);
  out->set_first_index(static_cast<int64_t>(begin));
  out->mutable_time()->Add(t.time.begin() + begin, t.time.begin() + end);
  out->mutable_positions()->Add(t.positions.begin() + begin * dof, t.positions.begin() + end * dof);
  out->mutable_velocities()->Add(t.velocities.begin() + begin * dof,
                                 t.velocities.begin() + end * dof);
  out->mutable_accelerations()->Add(t.accelerations.begin() + begin * dof,
                                    t.accelerations.begin() + end * dof);
  if (include_tcp) {
    for (std::size_t k = begin; k < end; ++k) PoseToProto(t.tcp[k].ToIsometry(), out->add_tcp());
  }
}

void PlanSummaryToProto(const PathResult& result, v1::PlanPathSummary* out) {
  out->set_ok(result.ok);
  out->set_duration(result.duration);
  out->set_point_count(static_cast<int64_t>(result.trajectory.size()));
  out->set_collision_checked(result.collision_checked);
  out->set_collision_free(result.collision_checked && result.collision_free);
  for (const Diagnostic& d : result.diagnostics) DiagnosticToProto(d, out->add_diagnostics());
}

void ValidationToProto(const PathResult& result, v1::ValidatePathResponse* out) {
  out->set_ok(result.ok);
  out->set_reachable(Reachable(result));
  out->set_cycle_time(result.duration);
  out->set_collision_checked(result.collision_checked);
  out->set_collision_free(result.collision_checked && result.collision_free);
  for (const SegmentReport& report : result.segments) {
    SegmentReportToProto(report, out->add_segment_reports());
  }
  for (const Diagnostic& d : result.diagnostics) DiagnosticToProto(d, out->add_diagnostics());
}

void ValidationErrorToProto(const absl::Status& status, v1::ValidatePathResponse* out) {
  out->set_ok(false);
  out->set_reachable(false);
  out->set_error_code(static_cast<int>(status.code()));
  // Messages quote request text; no '%' leaves the server (see ToGrpcStatus).
  const std::string message = WithoutPercentSigns(status.message());
  out->set_error_message(message);
  // The robot model itself is bad (its URDF refused): say so as a finding a
  // fleet can count, beside the error code.
  if (status.code() == absl::StatusCode::kInvalidArgument &&
      absl::StrContains(message, "robot.urdf: ")) {
    v1::Diagnostic* d = out->add_diagnostics();
    d->set_severity(v1::SEVERITY_ERROR);
    d->set_code(v1::INVALID_MODEL);
    d->set_message(message);
    d->set_point_index(-1);
  }
  // ROBOT_NOT_REGISTERED or SCENE_NOT_REGISTERED: what the client re-sends.
  if (const auto payload = status.GetPayload(RobotRegistry::kErrorInfoPayload)) {
    google::rpc::ErrorInfo info;
    if (info.ParseFromString(std::string(*payload))) out->set_error_reason(info.reason());
  }
}

}  // namespace motion::server
