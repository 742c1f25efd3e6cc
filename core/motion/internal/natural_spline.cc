#include "core/motion/internal/natural_spline.h"

#include <algorithm>
#include <utility>

namespace motion {

NaturalSpline::NaturalSpline(std::vector<double> x, std::vector<double> y)
    : x_(std::move(x)), y_(std::move(y)), m_(x_.size(), 0.0) {
  // The second derivatives of the interior points: a tridiagonal system,
  // by the Thomas algorithm (diagonally dominant).
  const std::size_t n = x_.size();
  if (n < 3) return;
  std::vector<double> diagonal(n, 0.0), rhs(n, 0.0);
  for (std::size_t i = 1; i + 1 < n; ++i) {
    const double h0 = x_[i] - x_[i - 1], h1 = x_[i + 1] - x_[i];
    diagonal[i] = 2 * (h0 + h1);
    rhs[i] = 6 * ((y_[i + 1] - y_[i]) / h1 - (y_[i] - y_[i - 1]) / h0);
  }
  for (std::size_t i = 2; i + 1 < n; ++i) {
    const double w = (x_[i] - x_[i - 1]) / diagonal[i - 1];
    diagonal[i] -= w * (x_[i] - x_[i - 1]);
    rhs[i] -= w * rhs[i - 1];
  }
  for (std::size_t i = n - 2; i >= 1; --i) {
    m_[i] = (rhs[i] - (x_[i + 1] - x_[i]) * m_[i + 1]) / diagonal[i];
  }
}

void NaturalSpline::Evaluate(double t, double out[3]) const {
  t = std::clamp(t, x_.front(), x_.back());
  std::size_t i = static_cast<std::size_t>(std::upper_bound(x_.begin(), x_.end(), t) - x_.begin());
  i = std::clamp<std::size_t>(i, 1, x_.size() - 1) - 1;
  const double h = x_[i + 1] - x_[i];
  const double a = (x_[i + 1] - t) / h, b = (t - x_[i]) / h;
  out[0] = a * y_[i] + b * y_[i + 1] +
           ((a * a * a - a) * m_[i] + (b * b * b - b) * m_[i + 1]) * h * h / 6;
  out[1] = (y_[i + 1] - y_[i]) / h - (3 * a * a - 1) / 6 * h * m_[i] +
           (3 * b * b - 1) / 6 * h * m_[i + 1];
  out[2] = a * m_[i] + b * m_[i + 1];
}

}  // namespace motion
