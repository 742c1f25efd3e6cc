#pragma once

#include <Eigen/Geometry>

namespace motion {

/// \brief A smooth orientation curve through three orientations: `start` at
/// sigma = 0, `via` at sigma = via_share (in (0, 1)), `end` at sigma = 1
/// (MoveC with orientation_mode VIA).
///
/// Relative to the start, R(sigma) = R_start exp([w(sigma)]) with w the
/// quadratic through 0, log(R_start^T R_via) and log(R_start^T R_end) at the
/// three shares (Lagrange). A quadratic is the lowest-order curve that passes
/// through three given rotations with no corner: slerping start -> via ->
/// end would turn the angular velocity abruptly at the via, an unbounded
/// angular acceleration there. Exact at the three points; well-defined while
/// each rotation from the start is below pi.
class OrientationThroughVia {
 public:
  OrientationThroughVia(const Eigen::Quaterniond& start, const Eigen::Quaterniond& via,
                        const Eigen::Quaterniond& end, double via_share);

  Eigen::Quaterniond At(double sigma) const;

  /// \brief Total angle turned along the curve (rad), by 256 chords: the
  /// rotation the Cartesian profile times, not just end-to-end's.
  double TurnedAngle() const;

 private:
  Eigen::Quaterniond start_;
  Eigen::Vector3d to_via_, to_end_;  ///< rotation vectors from the start
  double via_share_;
};

}  // namespace motion
