#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/collision/allowed_collisions.h"
#include "core/collision/collision_scene.h"
#include "core/collision/robot_collision_model.h"
#include "core/dynamics/payload.h"
#include "core/geometry/pose.h"
#include "core/geometry/pose_algebra.h"
#include "core/ik/robot_configuration.h"
#include "core/model/joint_limits.h"
#include "core/profile/path_profile.h"

namespace motion {

/// \brief Defaults of every speed and path field (README "Defaults"):
/// a segment may give only its target.
struct MotionDefaults {
  static constexpr double kJointFraction = 1.0;        ///< of each joint's limits
  static constexpr double kLinearVelocity = 0.25;      ///< m/s
  static constexpr double kLinearAcceleration = 1.0;   ///< m/s^2
  static constexpr double kAngularVelocity = 1.0;      ///< rad/s
  static constexpr double kAngularAcceleration = 2.0;  ///< rad/s^2
  /// Full linear / angular acceleration in 0.1 s, like the joints' default.
  static constexpr double kLinearJerk = 10.0;          ///< m/s^3
  static constexpr double kAngularJerk = 20.0;         ///< rad/s^3
  static constexpr double kSampleTime = 0.004;         ///< s
  static constexpr double kPathTolerance = 1e-5;       ///< m, MoveL/MoveC TCP off the path
  static constexpr double kPathAngleTolerance = 1e-4;  ///< rad
  static constexpr double kSpeedOverride = 1.0;
  /// MoveJ avoid_collisions: the search's seed and wall-time budget.
  static constexpr std::uint64_t kPlannerSeed = 1;
  static constexpr double kPlanningTimeout = 1.0;      ///< s
  static constexpr double kMaxPlanningTimeout = 30.0;  ///< s
};

/// \brief Speed of one segment; zero fields take MotionDefaults. MoveJ uses
/// joint_fraction: every joint's velocity, acceleration and jerk limit is
/// multiplied by it (and by PathRequest::speed_override). MoveL/MoveC use the
/// linear and angular fields (times speed_override) for the TCP, and are
/// slowed further where a joint's limits do not allow them (SPEED_REDUCED).
struct SpeedSpec {
  double joint_fraction = 0.0;
  double linear_velocity = 0.0;
  double linear_acceleration = 0.0;
  double angular_velocity = 0.0;
  double angular_acceleration = 0.0;
  double linear_jerk = 0.0;
  double angular_jerk = 0.0;
};

/// kFine: stop at the target. kDistance: the TCP leaves the path within
/// `distance` of the target and joins the next motion within it, without
/// stopping. kCnt: joint-space rounding over `percent` of the shorter
/// neighbouring motion's half (time). kContinuous: the largest rounding the
/// limits allow, as kCnt at 100 (zone_blending.h says how).
enum class ZoneKind { kFine, kDistance, kCnt, kContinuous };

struct ZoneSpec {
  ZoneKind kind = ZoneKind::kFine;
  double distance = 0.0;  ///< m, kDistance
  double percent = 0.0;   ///< [0, 100], kCnt
};

enum class MotionKind { kMoveJ, kMoveL, kMoveC };
/// MoveJ: one straight line in joint space, or every joint on its own
/// profile, all ending with the slowest joint's time-optimal one.
enum class JointSync { kStraight, kTime };
/// kSlerp: start -> target; kFixed: the start's throughout; kVia (MoveC
/// only): start -> via -> target on one smooth curve (orientation_through_via.h).
enum class OrientationMode { kSlerp, kFixed, kVia };

/// \brief One motion of a program, already validated and in core types.
/// Pose targets are TCP poses in the work-object `frame`; the TCP is
/// flange * `tool`; `offset` moves pose targets (see ResolveTarget).
struct MotionSegment {
  std::string id;
  MotionKind kind = MotionKind::kMoveJ;
  bool joint_target = false;              ///< MoveJ: target_joints instead of target
  std::vector<double> target_joints;      ///< MoveJ joint target
  JointSync sync = JointSync::kStraight;  ///< MoveJ
  Pose target;                            ///< MoveJ pose target, MoveL/MoveC end
  Pose via;                               ///< MoveC
  OrientationMode orientation = OrientationMode::kSlerp;
  SpeedSpec speed;
  ZoneSpec zone;
  Pose tool;
  Pose frame;
  Pose offset;
  OffsetFrame offset_frame = OffsetFrame::kWorld;
  /// MoveL/MoveC: how far the TCP may be from the programmed path (m, rad);
  /// unset = MotionDefaults. When set, finite and > 0: no sampled motion
  /// meets a tolerance of 0, so ValidateProgram refuses it rather than read
  /// it as the default.
  std::optional<double> path_tolerance;
  std::optional<double> path_angle_tolerance;
  double PathTolerance() const { return path_tolerance.value_or(MotionDefaults::kPathTolerance); }
  double PathAngleTolerance() const {
    return path_angle_tolerance.value_or(MotionDefaults::kPathAngleTolerance);
  }
  std::string source;  ///< a program line or target name, echoed on its diagnostics
  /// MoveJ pose target: the configuration to reach it in (see PlanMoveJ).
  std::optional<RobotConfiguration> configuration;
  /// MoveJ: plan a collision-free joint path when the straight motion
  /// collides (needs the request's collision model); see PlanMoveJ.
  bool avoid_collisions = false;
  std::uint64_t planner_seed = 0;  ///< 0 = MotionDefaults::kPlannerSeed
  double planning_timeout = 0.0;   ///< s; 0 = MotionDefaults::kPlanningTimeout
  /// The payload from this segment on (validated: CheckPayload); absent: the previous segment's,
  /// or PathRequest::payload for the first.
  std::optional<Payload> payload;
};

struct PathRequest {
  std::vector<double> start_joints;
  std::vector<MotionSegment> segments;
  double sample_time = MotionDefaults::kSampleTime;
  double speed_override = MotionDefaults::kSpeedOverride;  ///< (0, 1], scales all speeds
  bool stop_on_error = false;
  ProfileKind profile = ProfileKind::kJerkLimited;
  /// Limits of every DOF to plan with (the chain's with a request's
  /// overrides applied); empty: the chain's own dof_limits.
  std::vector<JointLimits> joint_limits;
  /// Collision checking of the whole trajectory (trajectory_collisions.h):
  /// with a collision model, every sample and the motion between samples
  /// is checked against `scene` (null: nothing around) and, when
  /// check_self_collision, the robot itself.
  std::shared_ptr<const RobotCollisionModel> collision_model;
  std::shared_ptr<const CollisionScene> scene;
  bool check_self_collision = false;
  /// m, >= 0: closer than this counts as a collision.
  double safety_margin = 0.0;
  /// Pairs the request allows to touch (built for collision_model and
  /// scene); null: none.
  std::shared_ptr<const AllowedCollisions> allowed_collisions;
  /// What the robot carries from the start (RobotRef.payload, validated); absent: nothing.
  std::optional<Payload> payload;
  /// m/s^2 in the base frame, for inverse dynamics (validated: finite).
  Eigen::Vector3d gravity = kDefaultGravity;
};

/// \brief Bounds that keep one request's memory and time finite.
struct PathLimits {
  long max_points = 100000;  ///< samples in one trajectory
  int max_segments = 1000;
  double min_sample_time = 1e-4;  ///< s
  /// s of collision-free search (MoveJ avoid_collisions) over the whole
  /// request, whatever each segment's planning_timeout says.
  double max_planning_seconds = 30.0;
};

}  // namespace motion
