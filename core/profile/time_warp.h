#pragma once

#include <vector>

namespace motion {

/// \brief A slowdown that varies along a profile: path time t runs k(tau)
/// times slower than the profile's own time tau, dt/dtau = k(tau) >= 1.
///
/// k is given at tau = 0, step, 2 step, ... and linear in between (beyond
/// the last node it keeps the last value), so t(tau) is piecewise quadratic
/// and inverted exactly. A motion played through a smooth k keeps the path
/// and slows only where k > 1: the rates there divide by k (velocity), by
/// about k^2 (acceleration) and k^3 (jerk), plus terms in dk/dtau that a
/// slowly varying k keeps small.
class TimeWarp {
 public:
  TimeWarp(std::vector<double> slowdown, double step);

  /// t(tau).
  double PathTime(double tau) const;
  /// tau(t), the inverse.
  double ProfileTime(double t) const;
  /// k(tau).
  double SlowdownAt(double tau) const;

  const std::vector<double>& slowdown() const { return k_; }
  double step() const { return step_; }

 private:
  std::vector<double> k_;
  double step_;
  std::vector<double> t_at_node_;  ///< t(i * step)
};

}  // namespace motion
