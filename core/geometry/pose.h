#pragma once

#include "absl/strings/string_view.h"

#include <Eigen/Geometry>

#include "absl/status/statusor.h"

namespace motion {

/// \brief A rigid transform T = (p, R) from a child frame to a parent frame.
///
/// `position` is the child origin in the parent frame (metres); `orientation`
/// is the unit quaternion rotating child-frame vectors into the parent frame.
/// Composition follows the usual convention: (A * B) maps B's child frame into
/// A's parent frame.
struct Pose {
  Eigen::Vector3d position = Eigen::Vector3d::Zero();
  Eigen::Quaterniond orientation = Eigen::Quaterniond::Identity();

  static Pose Identity() { return Pose{}; }
  static Pose FromIsometry(const Eigen::Isometry3d& t);
  Eigen::Isometry3d ToIsometry() const;
};

/// \brief Builds a pose from raw numbers as a client sent them.
///
/// Rejects non-finite values and quaternions shorter than 1e-9 (a zero
/// quaternion is a common default-initialised message, never a rotation), and
/// normalises the rest. `field` names the request field in the error message,
/// e.g. "tool.orientation".
absl::StatusOr<Pose> MakePose(const Eigen::Vector3d& position, double qx, double qy, double qz,
                              double qw, absl::string_view field);

/// \brief Angle (rad, in [0, pi]) of the rotation taking `a` to `b`.
double RotationAngleBetween(const Eigen::Quaterniond& a, const Eigen::Quaterniond& b);

}  // namespace motion
