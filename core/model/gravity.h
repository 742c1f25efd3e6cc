#pragma once

#include <Eigen/Core>

namespace motion {

/// \brief Gravity in the base frame when a request gives none: 9.81 m/s^2 along base -z.
inline const Eigen::Vector3d kDefaultGravity(0.0, 0.0, -9.81);

}  // namespace motion
