#include "core/motion/program_validation.h"

#include <cmath>
#include <optional>

#include "absl/strings/str_cat.h"
#include "core/ik/robot_configuration.h"
#include "core/kinematics/joint_vector_check.h"

namespace motion {
namespace {

double OrDefault(double value, double fallback) { return value == 0 ? fallback : value; }

// A segment's number field (`field`: "speed.linear_velocity",
// "path_tolerance"): finite, >= 0 and <= max, where 0 means the default.
absl::Status CheckSegmentField(double value, int index, const char* field, double max = INFINITY) {
  if (!std::isfinite(value) || value < 0 || value > max) {
    return absl::InvalidArgumentError(absl::StrCat(
        "segments[", index, "].", field, ": must be a finite number >= 0",
        std::isfinite(max) ? absl::StrCat(" and <= ", max) : "", " (0 = default), got ", value));
  }
  return absl::OkStatus();
}

// A segment's tolerance (`field`: "path_tolerance"): unset, or finite and > 0.
absl::Status CheckTolerance(const std::optional<double>& value, int index, const char* field,
                            double fallback, const char* unit) {
  if (!value || (std::isfinite(*value) && *value > 0)) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("segments[", index, "].", field, ": must be a finite number > 0 (leave it ",
                   "unset for the default ", fallback, " ", unit, "), got ", *value));
}

}  // namespace

absl::Status ValidateProgram(const ChainModel& model, const PathRequest& request,
                             const PathLimits& limits) {
  if (!std::isfinite(request.sample_time) || request.sample_time <= 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "sample_time: must be a positive number of seconds, got ", request.sample_time));
  }
  if (request.sample_time < limits.min_sample_time) {
    return absl::InvalidArgumentError(absl::StrCat("sample_time: ", request.sample_time,
                                                   " s is below the minimum of ",
                                                   limits.min_sample_time, " s"));
  }
  if (!std::isfinite(request.speed_override) || request.speed_override <= 0 ||
      request.speed_override > 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("speed_override: must be within (0, 1], got ", request.speed_override));
  }
  if (static_cast<int>(request.segments.size()) > limits.max_segments) {
    return absl::InvalidArgumentError(absl::StrCat("segments: ", request.segments.size(),
                                                   " exceeds the limit of ", limits.max_segments,
                                                   " per path"));
  }
  if (!request.joint_limits.empty() &&
      static_cast<int>(request.joint_limits.size()) != model.dof()) {
    return absl::InvalidArgumentError(absl::StrCat("joint_limits: ", request.joint_limits.size(),
                                                   " entries for a chain of ", model.dof(),
                                                   " joints"));
  }
  if (auto status = CheckJointVector(model, request.start_joints, "start_joints"); !status.ok()) {
    return status;
  }
  for (std::size_t i = 0; i < request.segments.size(); ++i) {
    const MotionSegment& s = request.segments[i];
    const int index = static_cast<int>(i);
    for (auto status :
         {CheckSegmentField(s.speed.joint_fraction, index, "speed.joint_fraction", 1.0),
          CheckSegmentField(s.speed.linear_velocity, index, "speed.linear_velocity"),
          CheckSegmentField(s.speed.linear_acceleration, index, "speed.linear_acceleration"),
          CheckSegmentField(s.speed.angular_velocity, index, "speed.angular_velocity"),
          CheckSegmentField(s.speed.angular_acceleration, index, "speed.angular_acceleration"),
          CheckSegmentField(s.speed.linear_jerk, index, "speed.linear_jerk"),
          CheckSegmentField(s.speed.angular_jerk, index, "speed.angular_jerk"),
          CheckTolerance(s.path_tolerance, index, "path_tolerance", MotionDefaults::kPathTolerance,
                         "m"),
          CheckTolerance(s.path_angle_tolerance, index, "path_angle_tolerance",
                         MotionDefaults::kPathAngleTolerance, "rad")}) {
      if (!status.ok()) return status;
    }
    if (!std::isfinite(s.zone.distance) || s.zone.distance < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "segments[", i, "].zone.distance: must be a finite number >= 0, got ", s.zone.distance));
    }
    if (!(s.zone.percent >= 0 && s.zone.percent <= 100)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "segments[", i, "].zone.percent: must be in [0, 100], got ", s.zone.percent));
    }
    if (!(s.planning_timeout >= 0 && s.planning_timeout <= MotionDefaults::kMaxPlanningTimeout)) {
      return absl::InvalidArgumentError(
          absl::StrCat("segments[", i, "].movej.planning_timeout: must be in [0, ",
                       MotionDefaults::kMaxPlanningTimeout, "] s (0 = the default ",
                       MotionDefaults::kPlanningTimeout, " s), got ", s.planning_timeout));
    }
    if (s.avoid_collisions && !request.collision_model) {
      return absl::InvalidArgumentError(absl::StrCat(
          "segments[", i,
          "].movej.avoid_collisions: needs collision checking; send a scene or turn on "
          "check_self_collision"));
    }
  }
  // Checked after every other field, so a program malformed in several
  // places reports the same first problem as before this pass existed.
  for (std::size_t i = 0; i < request.segments.size(); ++i) {
    const MotionSegment& s = request.segments[i];
    if (s.kind == MotionKind::kMoveJ && !s.joint_target && s.configuration) {
      if (auto status =
              ValidateConfiguration(*s.configuration, model, DetectArmGeometry(model),
                                    absl::StrCat("segments[", i, "].movej.configuration"));
          !status.ok()) {
        return status;
      }
    }
    if (s.kind != MotionKind::kMoveJ || !s.joint_target) continue;
    if (auto status = CheckJointVector(model, s.target_joints,
                                       absl::StrCat("segments[", i, "].movej.joints"));
        !status.ok()) {
      return status;
    }
  }
  return absl::OkStatus();
}

PathRequest ResolveProgramDefaults(const ChainModel& model, PathRequest request) {
  request.sample_time = OrDefault(request.sample_time, MotionDefaults::kSampleTime);
  request.speed_override = OrDefault(request.speed_override, MotionDefaults::kSpeedOverride);
  for (MotionSegment& segment : request.segments) {
    SpeedSpec& speed = segment.speed;
    speed.joint_fraction = OrDefault(speed.joint_fraction, MotionDefaults::kJointFraction);
    speed.linear_velocity = OrDefault(speed.linear_velocity, MotionDefaults::kLinearVelocity);
    speed.linear_acceleration =
        OrDefault(speed.linear_acceleration, MotionDefaults::kLinearAcceleration);
    speed.angular_velocity = OrDefault(speed.angular_velocity, MotionDefaults::kAngularVelocity);
    speed.angular_acceleration =
        OrDefault(speed.angular_acceleration, MotionDefaults::kAngularAcceleration);
    speed.linear_jerk = OrDefault(speed.linear_jerk, MotionDefaults::kLinearJerk);
    segment.path_tolerance = segment.PathTolerance();
    segment.path_angle_tolerance = segment.PathAngleTolerance();
    speed.angular_jerk = OrDefault(speed.angular_jerk, MotionDefaults::kAngularJerk);
    segment.planning_timeout =
        OrDefault(segment.planning_timeout, MotionDefaults::kPlanningTimeout);
    if (segment.planner_seed == 0) segment.planner_seed = MotionDefaults::kPlannerSeed;
  }
  if (request.joint_limits.empty()) request.joint_limits = model.dof_limits;
  return request;
}

}  // namespace motion
