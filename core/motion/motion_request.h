#pragma once

#include <string>
#include <vector>

#include "core/geometry/pose.h"
#include "core/geometry/pose_algebra.h"

namespace motion {

/// \brief Defaults of every speed and path field (README "Defaults"):
/// a segment may give only its target.
struct MotionDefaults {
  static constexpr double kJointFraction = 1.0;        ///< of each joint's limits
  static constexpr double kLinearVelocity = 0.25;      ///< m/s
  static constexpr double kLinearAcceleration = 1.0;   ///< m/s^2
  static constexpr double kAngularVelocity = 1.0;      ///< rad/s
  static constexpr double kAngularAcceleration = 2.0;  ///< rad/s^2
  static constexpr double kSampleTime = 0.004;         ///< s
  static constexpr double kSpeedOverride = 1.0;
};

/// \brief Speed of one segment; zero fields take MotionDefaults. MoveJ uses
/// joint_fraction (velocity and acceleration limits of every joint are
/// scaled by it); MoveL/MoveC use the linear and angular fields.
struct SpeedSpec {
  double joint_fraction = 0.0;
  double linear_velocity = 0.0;
  double linear_acceleration = 0.0;
  double angular_velocity = 0.0;
  double angular_acceleration = 0.0;
};

enum class ZoneKind { kFine, kDistance, kContinuous };

/// \brief Blending request. Until blending exists every zone stops at the
/// target (fine); a non-fine zone is reported as ZONE_APPROXIMATED.
struct ZoneSpec {
  ZoneKind kind = ZoneKind::kFine;
  double distance = 0.0;  ///< m, kDistance
};

enum class MotionKind { kMoveJ, kMoveL, kMoveC };
enum class OrientationMode { kSlerp, kFixed };

/// \brief One motion of a program, already validated and in core types.
/// Pose targets are TCP poses in the work-object `frame`; the TCP is
/// flange * `tool`; `offset` moves pose targets (see ResolveTarget).
struct MotionSegment {
  std::string id;
  MotionKind kind = MotionKind::kMoveJ;
  bool joint_target = false;          ///< MoveJ: target_joints instead of target
  std::vector<double> target_joints;  ///< MoveJ joint target
  Pose target;                        ///< MoveJ pose target, MoveL/MoveC end
  Pose via;                           ///< MoveC
  OrientationMode orientation = OrientationMode::kSlerp;
  SpeedSpec speed;
  ZoneSpec zone;
  Pose tool;
  Pose frame;
  Pose offset;
  OffsetFrame offset_frame = OffsetFrame::kWorld;
};

struct PathRequest {
  std::vector<double> start_joints;
  std::vector<MotionSegment> segments;
  double sample_time = MotionDefaults::kSampleTime;
  double speed_override = MotionDefaults::kSpeedOverride;  ///< (0, 1], scales all speeds
  bool stop_on_error = false;
};

/// \brief Bounds that keep one request's memory and time finite.
struct PathLimits {
  long max_points = 100000;  ///< samples in one trajectory
  int max_segments = 1000;
  double min_sample_time = 1e-4;  ///< s
};

}  // namespace motion
