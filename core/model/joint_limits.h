#pragma once

#include <string>

namespace motion {

enum class JointType { kRevolute, kContinuous, kPrismatic };

/// \brief Limits of one independent degree of freedom (rad, rad/s, rad/s^2
/// for rotary joints; m, m/s, m/s^2 for prismatic ones).
///
/// URDF gives position and velocity limits but no acceleration. Unless a
/// source gives one, max_acceleration = kDefaultAccelerationPerVelocity *
/// max_velocity, i.e. the joint reaches full speed in 0.5 s, which is the
/// order of magnitude of industrial arms at 100 % override.
struct JointLimits {
  double lower = 0.0;
  double upper = 0.0;
  bool bounded = true;  ///< false for continuous joints (lower/upper = -/+inf)
  double max_velocity = 0.0;
  double max_acceleration = 0.0;
  std::string velocity_source;      ///< "urdf" or the default that was used
  std::string acceleration_source;  ///< "default: 2 x max_velocity per second"
};

inline constexpr double kDefaultAccelerationPerVelocity = 2.0;  // 1/s
/// Used when a URDF says velocity="0" (some files mean "unknown").
inline constexpr double kDefaultRotaryVelocity = 1.0;      // rad/s
inline constexpr double kDefaultPrismaticVelocity = 0.25;  // m/s

const char* JointTypeName(JointType type);

}  // namespace motion
