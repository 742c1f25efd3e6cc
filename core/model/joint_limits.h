#pragma once

#include <string>

namespace motion {

enum class JointType { kRevolute, kContinuous, kPrismatic };

/// \brief Limits of one independent degree of freedom (rad, rad/s, rad/s^2,
/// rad/s^3 for rotary joints; m, m/s, m/s^2, m/s^3 for prismatic ones).
///
/// URDF gives position and velocity limits but no acceleration or jerk.
/// Unless a request overrides them (RobotRef.joint_limits):
/// max_acceleration is what the joint's effort gives it in its worst pose
/// (EffortAccelerations), no more than kMaxAccelerationPerVelocity *
/// max_velocity, where the chain's dynamics are complete (every moving body
/// has an inertial, every DOF an effort that holds the arm in every pose);
/// elsewhere kDefaultAccelerationPerVelocity * max_velocity, i.e. the joint
/// reaches full speed in 0.5 s, the order of magnitude of industrial arms at
/// 100 % override; max_jerk =
/// kDefaultJerkPerAcceleration * max_acceleration, i.e. full acceleration is
/// built up in 0.1 s, the jerk time constant industrial controllers use
/// (50-150 ms): fast enough not to slow short moves much, slow enough not to
/// excite the arm's first structural modes (5-20 Hz).
struct JointLimits {
  double lower = 0.0;
  double upper = 0.0;
  bool bounded = true;  ///< false for continuous joints (lower/upper = -/+inf)
  double max_velocity = 0.0;
  double max_acceleration = 0.0;
  double max_jerk = 0.0;
  std::string velocity_source;  ///< "urdf", "override" or the default that was used
  /// "effort: ..." (what the effort allows, and whether the cap applied), "default: 2 x
  /// max_velocity per second" or "override"
  std::string acceleration_source;
  std::string jerk_source;  ///< "default: 10 x max_acceleration per second" or "override"
  /// N*m (rotary) or N (prismatic), from the URDF `<limit effort>` when > 0 or an override; 0 means
  /// unknown (many published URDFs say effort="0"), and no torque limit is enforced.
  double max_torque = 0.0;
  std::string torque_source;  ///< "urdf", "override" or "unknown: URDF effort is 0"
};

inline constexpr double kDefaultAccelerationPerVelocity = 2.0;  // 1/s
inline constexpr double kDefaultJerkPerAcceleration = 10.0;     // 1/s
inline constexpr char kDefaultAccelerationSource[] = "default: 2 x max_velocity per second";
inline constexpr char kDefaultJerkSource[] = "default: 10 x max_acceleration per second";
/// The most an effort-derived acceleration may be: full speed in 0.1 s. URDF inertias leave out
/// the motors' rotor inertia, which dominates a wrist joint's (its effort over its link inertia
/// says a UR5 wrist could reach 1 600 rad/s^2); industrial wrists reach full speed in 0.1-0.2 s.
inline constexpr double kMaxAccelerationPerVelocity = 10.0;  // 1/s
/// Used when a URDF says velocity="0" (some files mean "unknown").
inline constexpr double kDefaultRotaryVelocity = 1.0;      // rad/s
inline constexpr double kDefaultPrismaticVelocity = 0.25;  // m/s

const char* JointTypeName(JointType type);

}  // namespace motion
