#include "core/motion/internal/joint_curve.h"

#include <algorithm>

namespace motion {

JointCurve::JointCurve(const Knot& first) : dof_(static_cast<int>(first.q.size())), last_(first) {
  s_.push_back(first.s);
}

// p(u) = c0 + c1 u + ... + c5 u^5 on u = (s - s_a) / h with p, p', p'' of
// both knots (derivatives in s, hence the powers of h).
void JointCurve::Coefficients(const Knot& a, const Knot& b, double* out, int dof) {
  const double h = b.s - a.s, h2 = h * h;
  for (int j = 0; j < dof; ++j) {
    const double p0 = a.q[j], p1 = b.q[j];
    const double v0 = h * a.dq[j], v1 = h * b.dq[j];
    const double a0 = h2 * a.ddq[j], a1 = h2 * b.ddq[j];
    const double d = p1 - p0;
    double* c = out + 6 * j;
    c[0] = p0;
    c[1] = v0;
    c[2] = 0.5 * a0;
    c[3] = 10 * d - 6 * v0 - 4 * v1 - 1.5 * a0 + 0.5 * a1;
    c[4] = -15 * d + 8 * v0 + 7 * v1 + 1.5 * a0 - a1;
    c[5] = 6 * d - 3 * v0 - 3 * v1 - 0.5 * a0 + 0.5 * a1;
  }
}

void JointCurve::Append(const Knot& next) {
  const std::size_t at = coeffs_.size();
  coeffs_.resize(at + 6 * static_cast<std::size_t>(dof_));
  Coefficients(last_, next, coeffs_.data() + at, dof_);
  s_.push_back(next.s);
  last_ = next;
}

Eigen::VectorXd JointCurve::PieceAt(const Knot& a, const Knot& b, double u) {
  const int dof = static_cast<int>(a.q.size());
  std::vector<double> c(6 * static_cast<std::size_t>(dof));
  Coefficients(a, b, c.data(), dof);
  Eigen::VectorXd q(dof);
  for (int j = 0; j < dof; ++j) {
    const double* k = c.data() + 6 * j;
    q[j] = k[0] + u * (k[1] + u * (k[2] + u * (k[3] + u * (k[4] + u * k[5]))));
  }
  return q;
}

void JointCurve::Evaluate(double s, Eigen::VectorXd& q, Eigen::VectorXd* dq, Eigen::VectorXd* ddq,
                          Eigen::VectorXd* dddq) const {
  q.resize(dof_);
  if (dq) dq->resize(dof_);
  if (ddq) ddq->resize(dof_);
  if (dddq) dddq->resize(dof_);
  if (s_.size() < 2) {
    q = last_.q;
    if (dq) *dq = last_.dq;
    if (ddq) *ddq = last_.ddq;
    if (dddq) dddq->setZero();
    return;
  }
  s = std::clamp(s, s_.front(), s_.back());
  std::size_t piece =
      static_cast<std::size_t>(std::upper_bound(s_.begin(), s_.end(), s) - s_.begin());
  piece = std::clamp<std::size_t>(piece, 1, s_.size() - 1) - 1;
  const double h = s_[piece + 1] - s_[piece];
  const double u = (s - s_[piece]) / h;
  const double* c = coeffs_.data() + 6 * static_cast<std::size_t>(dof_) * piece;
  const double ih = 1.0 / h, ih2 = ih * ih, ih3 = ih2 * ih;
  for (int j = 0; j < dof_; ++j) {
    const double* k = c + 6 * j;
    q[j] = k[0] + u * (k[1] + u * (k[2] + u * (k[3] + u * (k[4] + u * k[5]))));
    if (dq)
      (*dq)[j] = ih * (k[1] + u * (2 * k[2] + u * (3 * k[3] + u * (4 * k[4] + u * 5 * k[5]))));
    if (ddq) (*ddq)[j] = ih2 * (2 * k[2] + u * (6 * k[3] + u * (12 * k[4] + u * 20 * k[5])));
    if (dddq) (*dddq)[j] = ih3 * (6 * k[3] + u * (24 * k[4] + u * 60 * k[5]));
  }
}

}  // namespace motion
