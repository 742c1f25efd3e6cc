#pragma once

#include <functional>

#include "core/geometry/pose.h"
#include "core/ik/ik_data.h"
#include "core/model/chain_model.h"
#include "core/motion/internal/joint_curve.h"

namespace motion {

/// \brief TCP pose (base frame) at path parameter sigma in [0, 1].
using CartesianPath = std::function<Pose(double sigma)>;

/// \brief Why a Cartesian path has no joint curve, and where.
struct JointCurveFailure {
  enum class Kind { kNone, kIkFailed, kFlip, kSingular };
  Kind kind = Kind::kNone;
  double sigma = 0.0;  ///< where along the path
  std::string detail;
};

/// \brief Tolerances of the joint curve: the TCP of q(sigma) stays within
/// them of the programmed pose everywhere (checked by FK between knots).
struct JointCurveTolerances {
  double position = 1e-5;  ///< m
  double rotation = 1e-4;  ///< rad
};

/// \brief The joint-space image of a Cartesian path, q(sigma), from
/// `start` (exactly q(0); its TCP must be path(0)) as a JointCurve.
///
/// How: continuation along sigma. At each knot, dq/dsigma = J^+ V (V the
/// path's twist per unit sigma, J^+ the minimum-norm pseudo-inverse: on a
/// redundant arm the joints move as little as the path allows, the
/// documented rule that resolves the redundancy continuously) and
/// d2q/dsigma2 is that field's derivative along the curve. The next knot
/// is predicted by Taylor and corrected by a local Levenberg-Marquardt
/// descent to machine precision; the quintic Hermite piece to it is kept
/// when its TCP at a quarter, half and three quarters of the piece is
/// within a quarter of the tolerances, and a correction that moved the
/// joints far from the prediction (another branch) is refused: the step
/// halves, and grows again where the curve is easy. Knots come dense
/// where the path nears a singularity (dq/dsigma is large) and sparse
/// elsewhere.
///
/// Returns false with `failure` when no step down to 1e-9 of the path
/// works: the arm cannot follow (IK fails, the continuation jumps branch,
/// or the Jacobian is singular there).
bool BuildCartesianJointCurve(const ChainModel& model, IkData& data, const CartesianPath& path,
                              const Eigen::Isometry3d& tool, const Eigen::VectorXd& start,
                              const JointCurveTolerances& tolerances, double length,
                              double rotation, JointCurve& curve, JointCurveFailure& failure);

}  // namespace motion
