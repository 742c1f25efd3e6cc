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
  enum class Kind { kNone, kIkFailed, kFlip, kSingular, kJointLimit };
  Kind kind = Kind::kNone;
  double sigma = 0.0;  ///< where along the path
  int joint = -1;      ///< kJointLimit: the DOF that reaches its limit
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
/// How: continuation along sigma. At each knot, dq/dsigma = J^+ V + N z
/// (V the path's twist per unit sigma, J^+ the minimum-norm pseudo-inverse,
/// N = I - J^+ J the projector on the null space) and d2q/dsigma2 is that
/// field's derivative along the curve. The rule that resolves a redundant
/// arm's redundancy, continuously: the joints move as little as the path
/// allows (J^+ V), except that a joint in the outer 15 % of its range on
/// either side is pushed back towards the middle through the null space
/// (z, growing quadratically from 0 at the band's inner edge to the speed
/// of the fastest joint at the limit), which never moves the TCP. On a
/// 6-DOF arm N is zero and the field is J^+ V alone. The next knot
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
/// or the Jacobian is singular there); when the curve would take a joint
/// past its limit (JOINT_LIMIT, naming it); and when the path needs more
/// than 20 000 knots (the joints turning ever faster towards a singularity
/// the path ends on), so that time and memory stay bounded.
bool BuildCartesianJointCurve(const ChainModel& model, IkData& data, const CartesianPath& path,
                              const Eigen::Isometry3d& tool, const Eigen::VectorXd& start,
                              const JointCurveTolerances& tolerances, double length,
                              double rotation, JointCurve& curve, JointCurveFailure& failure);

}  // namespace motion
