#pragma once

#include <vector>

#include <Eigen/Geometry>

#include "core/model/chain_model.h"

namespace motion {

/// \brief Kinematic families motiond knows closed forms or flags for.
enum class ArmFamily {
  kOther,           ///< numeric IK only, flags 0
  kSphericalWrist,  ///< 6R, axes 2 || 3, axes 4, 5, 6 through one point (ABB, KUKA, FANUC)
  kUr,              ///< 6R, axes 2 || 3 || 4, axes 5 and 6 intersect (Universal Robots)
  kSevenAxis,       ///< 7R with pivots at joints 2, 4, 6 (iiwa, Panda): flags only
};

const char* ArmFamilyName(ArmFamily family);

/// \brief A chain in product-of-exponentials form at theta = 0 plus what the
/// configuration flags and the closed forms need; all in the base frame.
///
/// Tip pose: T(theta) = E_1(theta_1) ... E_n(theta_n) T0, where E_i is the
/// rotation by theta_i about the line through p[i] along h[i] (unit).
/// Detected once per chain from the joint origins and axes at the zero
/// configuration (parallel / intersecting tests with kGeometryTolerance), so
/// any link lengths, offsets, axis signs and base / tool transforms work.
struct ArmGeometry {
  /// Axes closer than this to parallel (|h_i x h_j|, rad) or to meeting
  /// (line distance, m) count as parallel / intersecting.
  static constexpr double kGeometryTolerance = 1e-6;

  ArmFamily family = ArmFamily::kOther;
  std::vector<Eigen::Vector3d> h;  ///< joint axes at theta = 0
  std::vector<Eigen::Vector3d> p;  ///< a point on each axis (the joint frame origin)
  Eigen::Isometry3d tip_at_zero = Eigen::Isometry3d::Identity();  ///< T0

  /// Spherical wrist: the wrist centre; UR: where axes 5 and 6 meet (theta = 0).
  Eigen::Vector3d wrist_point = Eigen::Vector3d::Zero();
  /// The end of the elbow's 2R (index of the axis through it; -1 = wrist_point).
  int forearm_end_axis = -1;

  /// Flags: the sign each raw geometric quantity is multiplied by (0: no flag).
  int shoulder_sign = 0;
  int elbow_sign = 0;
  int wrist_sign = 0;
  /// Pivot joints (0-based) whose turn sense defines the flags of 7-axis arms
  /// (shoulder, elbow, wrist) and of the wrist flag of 6R arms; -1 = none.
  int pivot[3] = {-1, -1, -1};
  int pivot_sign[3] = {0, 0, 0};

  bool has_closed_form() const {
    return family == ArmFamily::kSphericalWrist || family == ArmFamily::kUr;
  }
  bool has_flags() const { return family != ArmFamily::kOther; }
};

/// \brief The family and PoE data of `model`. Chains with mimic joints,
/// prismatic joints, joint multipliers or offsets, or another shape are kOther.
ArmGeometry DetectArmGeometry(const ChainModel& model);

/// \brief Axes and axis points moved to joint angles `theta` (one per axis,
/// arrays of at least h.size()): axis i is moved by E_1 ... E_{i-1}.
/// Returns E_1 ... E_n (so the tip is that * tip_at_zero).
Eigen::Isometry3d MoveAxes(const ArmGeometry& geometry,
                           const Eigen::Ref<const Eigen::VectorXd>& theta, Eigen::Vector3d* axes,
                           Eigen::Vector3d* points);

/// \brief E_i(theta): the rotation by theta about the line (p, h), h unit.
Eigen::Isometry3d RotationAboutLine(const Eigen::Vector3d& h, const Eigen::Vector3d& p,
                                    double theta);

}  // namespace motion
