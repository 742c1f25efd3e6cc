#include "core/motion/internal/cartesian_joint_curve.h"

#include <algorithm>
#include <cmath>

#include <Eigen/QR>

#include "absl/strings/str_cat.h"
#include "core/ik/internal/levenberg_marquardt_ik.h"
#include "core/ik/internal/pose_error.h"
#include "core/kinematics/forward_kinematics.h"
#include "core/kinematics/jacobian.h"

namespace motion {
namespace {

// Path parameter steps for derivatives of the path and of the joint
// field (both analytic, so central differences are accurate to ~eps^2).
constexpr double kPathStep = 1e-5;
constexpr double kFieldStep = 1e-6;
constexpr double kMinStep = 1e-9;
constexpr double kPositionFloor = 4e-10;  // m
constexpr double kRotationFloor = 4e-9;   // rad
// Knots at least this close in TCP travel on easy stretches.
constexpr double kMaxKnotTravel = 0.02;   // m
constexpr double kMaxKnotRotation = 0.1;  // rad
// A path that needs more knots than this is refused instead of followed
// ever more finely (the field's speed grows without bound towards a
// singularity the path ends on): time and memory stay bounded.
constexpr std::size_t kMaxKnots = 20000;
// Below this smallest singular value such a refusal says SINGULARITY.
constexpr double kNearSingular = 1e-3;
// Redundant arms: the outer band of each joint's range (as a fraction of
// half the range) where the null space pushes the joint back.
constexpr double kLimitBand = 0.15;

class Continuation {
 public:
  Continuation(const ChainModel& model, IkData& data, const CartesianPath& path,
               const Eigen::Isometry3d& tool)
      : model_(model), data_(data), path_(path), tool_(tool) {
    local_.position_tolerance = 1e-11;
    local_.orientation_tolerance = 1e-10;
    local_.max_iterations = 30;
  }

  // The path's twist per unit sigma (linear, angular; base frame).
  Vector6d Twist(double s) const {
    double a = s - kPathStep, b = s + kPathStep;
    if (a < 0) a = 0, b = 2 * kPathStep;
    if (b > 1) b = 1, a = 1 - 2 * kPathStep;
    const Pose pa = path_(a), pb = path_(b);
    Vector6d v;
    v.head<3>() = (pb.position - pa.position) / (b - a);
    const Eigen::AngleAxisd turn(pb.orientation * pa.orientation.conjugate());
    v.tail<3>() = turn.angle() * turn.axis() / (b - a);
    return v;
  }

  // dq/dsigma = J^+(q) V(sigma) + N(q) z(q) (the header's rule).
  Eigen::VectorXd Field(const Eigen::VectorXd& q, double s) {
    ComputeJacobian(model_, data_.kinematics, q, tool_, jacobian_);
    cod_.compute(jacobian_);
    Eigen::VectorXd dq = cod_.solve(Twist(s));
    if (model_.dof() <= 6) return dq;
    // z: each joint in its outer band, pushed towards the middle by
    // ((depth into the band) / band)^2 times the fastest joint's speed.
    Eigen::VectorXd z = Eigen::VectorXd::Zero(q.size());
    bool any = false;
    for (int j = 0; j < model_.dof(); ++j) {
      const JointLimits& l = model_.dof_limits[j];
      if (!l.bounded || !(l.upper > l.lower)) continue;
      const double half = 0.5 * (l.upper - l.lower);
      const double u = (q[j] - 0.5 * (l.upper + l.lower)) / half;  // -1 .. 1
      const double depth = (std::abs(u) - (1 - kLimitBand)) / kLimitBand;
      if (depth <= 0) continue;
      z[j] = -(u > 0 ? 1.0 : -1.0) * depth * depth;
      any = true;
    }
    if (!any) return dq;
    z *= dq.lpNorm<Eigen::Infinity>();
    // N z = z - J^+ (J z): no TCP motion.
    const Eigen::VectorXd null = z - cod_.solve(jacobian_ * z);
    return dq + null;
  }

  double SmallestSingularValue(const Eigen::VectorXd& q) {
    ComputeJacobian(model_, data_.kinematics, q, tool_, jacobian_);
    return Eigen::JacobiSVD<Eigen::MatrixXd>(jacobian_).singularValues().tail<1>()[0];
  }

  JointCurve::Knot KnotAt(double s, const Eigen::VectorXd& q) {
    JointCurve::Knot k;
    k.s = s;
    k.q = q;
    k.dq = Field(q, s);
    // The field's derivative along the curve, d/ds [J^+(q(s)) V(s)].
    double a = s - kFieldStep, b = s + kFieldStep;
    if (a < 0) a = 0;
    if (b > 1) b = 1;
    const Eigen::VectorXd fa = Field(q + (a - s) * k.dq, a);
    const Eigen::VectorXd fb = Field(q + (b - s) * k.dq, b);
    k.ddq = (fb - fa) / (b - a);
    return k;
  }

  // A local descent from `guess` onto path(s); false when it does not converge.
  bool Correct(double s, const Eigen::VectorXd& guess, Eigen::VectorXd& q) {
    data_.q = guess;
    const LevenbergMarquardtAttempt attempt =
        RunLevenbergMarquardt(model_, data_, path_(s).ToIsometry(), tool_, local_);
    q = data_.q;
    return attempt.converged || (attempt.error.position <= 1e-9 && attempt.error.rotation <= 1e-8);
  }

  // Worst TCP error of the piece a -> b at three interior points, relative
  // to the tolerances (<= 1 is within them).
  double PieceError(const JointCurve::Knot& a, const JointCurve::Knot& b,
                    const JointCurveTolerances& requested) {
    // Below what double precision FK resolves, a tolerance cannot steer the
    // knots: the curve is kept to this floor, and the samples' own check
    // (against the tolerance as asked) says CARTESIAN_DEVIATION.
    JointCurveTolerances tol;
    tol.position = std::max(requested.position, kPositionFloor);
    tol.rotation = std::max(requested.rotation, kRotationFloor);
    double worst = 0.0;
    for (double u : {0.25, 0.5, 0.75}) {
      const Eigen::VectorXd q = JointCurve::PieceAt(a, b, u);
      const Eigen::Isometry3d tcp = ForwardKinematics(model_, data_.kinematics, q) * tool_;
      const PoseError e = ComputePoseError(tcp, path_(a.s + u * (b.s - a.s)).ToIsometry());
      worst = std::max({worst, e.position / tol.position, e.rotation / tol.rotation});
    }
    return worst;
  }

 private:
  const ChainModel& model_;
  IkData& data_;
  const CartesianPath& path_;
  const Eigen::Isometry3d tool_;
  LevenbergMarquardtSettings local_;
  Jacobian jacobian_;
  Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod_;
};

// The first bounded joint that `guess` puts past its limit, moving outward
// from knot `from`, or -1.
int JointPastItsLimit(const ChainModel& model, const JointCurve::Knot& from,
                      const Eigen::VectorXd& guess) {
  for (int j = 0; j < model.dof(); ++j) {
    const JointLimits& l = model.dof_limits[j];
    if (!l.bounded) continue;
    if ((guess[j] > l.upper && guess[j] > from.q[j]) ||
        (guess[j] < l.lower && guess[j] < from.q[j])) {
      return j;
    }
  }
  return -1;
}

}  // namespace

bool BuildCartesianJointCurve(const ChainModel& model, IkData& data, const CartesianPath& path,
                              const Eigen::Isometry3d& tool, const Eigen::VectorXd& start,
                              const JointCurveTolerances& tolerances, double length,
                              double rotation, JointCurve& curve, JointCurveFailure& failure) {
  Continuation c(model, data, path, tool);
  curve = JointCurve(c.KnotAt(0.0, start));
  const double max_step = 1.0 / std::max({4.0, std::ceil(length / kMaxKnotTravel),
                                          std::ceil(rotation / kMaxKnotRotation)});
  double step = max_step;
  while (curve.last().s < 1.0) {
    if (curve.knots().size() >= kMaxKnots) {
      const JointCurve::Knot& at = curve.last();
      const double sigma_min = c.SmallestSingularValue(at.q);
      failure.sigma = at.s;
      failure.kind = sigma_min < kNearSingular ? JointCurveFailure::Kind::kSingular
                                               : JointCurveFailure::Kind::kIkFailed;
      failure.detail = absl::StrCat(
          "the path cannot be followed within its tolerances in ", kMaxKnots,
          " IK knots (the joints turn ever faster per metre",
          sigma_min < kNearSingular
              ? absl::StrCat(" towards a singularity, smallest singular value ", sigma_min)
              : std::string(),
          ")");
      return false;
    }
    const JointCurve::Knot& from = curve.last();
    double s = from.s + step;
    if (s > 1.0 - 1e-12) s = 1.0;
    const double h = s - from.s;
    const Eigen::VectorXd guess = from.q + h * from.dq + 0.5 * h * h * from.ddq;
    // The curve leaves a joint's range: the path (with this redundancy
    // rule) needs more than the joint has. Found at the first step that
    // tries to go past the limit from a knot already at it (the step
    // halves down to it otherwise, so the knot before is the last inside).
    if (const int j = JointPastItsLimit(model, from, guess); j >= 0 && step < 1e-6) {
      failure.sigma = from.s;
      failure.kind = JointCurveFailure::Kind::kJointLimit;
      failure.joint = j;
      failure.detail = absl::StrCat("the path takes ", model.dof_names[j], " to its ",
                                    guess[j] > model.dof_limits[j].upper ? "upper" : "lower",
                                    " limit (", from.q[j], " rad or m)");
      return false;
    }
    Eigen::VectorXd q;
    bool accepted = false;
    if (c.Correct(s, guess, q)) {
      // Another branch: the correction is far larger than the step's own
      // Taylor error could be.
      const double moved = (q - guess).lpNorm<Eigen::Infinity>();
      const double travel = (h * from.dq).lpNorm<Eigen::Infinity>();
      if (moved <= 0.25 * travel + 1e-3) {
        const JointCurve::Knot next = c.KnotAt(s, q);
        const double error = c.PieceError(from, next, tolerances);
        if (error <= 0.25) {
          curve.Append(next);
          accepted = true;
          if (error < 0.02) step = std::min(max_step, 1.6 * step);
        }
      }
    }
    if (accepted) continue;
    step *= 0.5;
    if (step >= kMinStep) continue;
    failure.sigma = from.s;
    const double sigma_min = c.SmallestSingularValue(from.q);
    if (sigma_min < 1e-6) {
      failure.kind = JointCurveFailure::Kind::kSingular;
      failure.detail = absl::StrCat("the path runs through a singularity (smallest singular value ",
                                    sigma_min, ")");
    } else if (c.Correct(std::min(1.0, from.s + 1e-6), from.q, q)) {
      failure.kind = JointCurveFailure::Kind::kFlip;
      failure.detail = "the arm would have to change configuration to follow the path";
    } else {
      failure.kind = JointCurveFailure::Kind::kIkFailed;
      failure.detail = "no IK solution continues the path (a joint limit or the workspace ends)";
    }
    return false;
  }
  return true;
}

}  // namespace motion
