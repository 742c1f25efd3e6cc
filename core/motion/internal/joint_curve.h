#pragma once

#include <cstddef>
#include <vector>

#include <Eigen/Core>

namespace motion {

/// \brief A joint-space curve q(s) over s in [0, 1]: quintic Hermite pieces
/// between knots where q, dq/ds and d2q/ds2 are given.
///
/// Each piece matches position, first and second derivative at both of its
/// knots, so the curve is continuous to its second derivative and its third
/// derivative is bounded (a quadratic per piece): a time law s(t) with
/// bounded jerk gives joint motion with bounded jerk. Knots come from IK of
/// the Cartesian path (cartesian_joint_curve.h); the derivatives there are
/// those of the path's own joint-space image, so the pieces follow it to
/// the order of the Hermite error, h^6.
class JointCurve {
 public:
  struct Knot {
    double s = 0.0;
    Eigen::VectorXd q, dq, ddq;  ///< q(s), dq/ds, d2q/ds2
  };

  JointCurve() = default;
  explicit JointCurve(const Knot& first);

  /// \brief Appends `next` (next.s > the last knot's s) and the piece to it.
  void Append(const Knot& next);
  /// \brief The piece from `a` to `b` alone, evaluated at local fraction
  /// u in [0, 1] (what the builder checks before it appends).
  static Eigen::VectorXd PieceAt(const Knot& a, const Knot& b, double u);

  /// \brief q and its first three derivatives with respect to s at s
  /// (clamped to the knots' range); null outputs are skipped.
  void Evaluate(double s, Eigen::VectorXd& q, Eigen::VectorXd* dq = nullptr,
                Eigen::VectorXd* ddq = nullptr, Eigen::VectorXd* dddq = nullptr) const;

  int dof() const { return dof_; }
  std::size_t knot_count() const { return s_.size(); }
  const std::vector<double>& knots() const { return s_; }
  const Knot& last() const { return last_; }

 private:
  static void Coefficients(const Knot& a, const Knot& b, double* out, int dof);

  int dof_ = 0;
  std::vector<double> s_;       ///< knot parameters, increasing
  std::vector<double> coeffs_;  ///< per piece: dof x 6 polynomial coefficients in u
  Knot last_;
};

}  // namespace motion
