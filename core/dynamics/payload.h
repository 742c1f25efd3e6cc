#pragma once

#include <Eigen/Core>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "core/model/gravity.h"  // kDefaultGravity, the default of every request

namespace motion {

/// \brief What the robot carries at its flange, rigidly attached to the tip link.
///
/// Units kg, m, kg*m^2. `center_of_mass` is in the tip (flange) frame; `inertia` is about the
/// centre of mass, along the tip frame's axes. mass = 0 with zero inertia is "no payload"; a zero
/// inertia with mass > 0 is a point mass.
struct Payload {
  double mass = 0.0;
  Eigen::Vector3d center_of_mass = Eigen::Vector3d::Zero();
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();
};

/// \brief InvalidArgument naming `field` (e.g. "segments[2].payload.inertia.ixy") unless:
/// mass, centre of mass and inertia are finite; mass >= 0; the inertia is zero (a point mass) or
/// symmetric positive definite with principal moments that satisfy the triangle inequalities
/// (I1 + I2 >= I3 for every order, what any real mass distribution has; equality, a flat plate,
/// is allowed to a relative 1e-9); and a massless payload has no inertia.
absl::Status CheckPayload(const Payload& payload, absl::string_view field);

/// \brief InvalidArgument naming `field` unless every component is finite.
absl::Status CheckGravity(const Eigen::Vector3d& gravity, absl::string_view field);

}  // namespace motion
