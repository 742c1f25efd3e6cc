#pragma once

#include <vector>

namespace motion {

/// \brief The natural cubic spline through (x_i, y_i), x increasing, at
/// least two points: continuous to its second derivative, which is zero at
/// both ends.
class NaturalSpline {
 public:
  NaturalSpline() = default;
  NaturalSpline(std::vector<double> x, std::vector<double> y);

  /// \brief The value and its first two derivatives at t (clamped to the
  /// points' range).
  void Evaluate(double t, double out[3]) const;
  const std::vector<double>& y() const { return y_; }

 private:
  std::vector<double> x_, y_, m_;  ///< m: second derivatives at the points
};

}  // namespace motion
