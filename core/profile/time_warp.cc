#include "core/profile/time_warp.h"

#include <algorithm>
#include <cmath>

namespace motion {

TimeWarp::TimeWarp(std::vector<double> slowdown, double step)
    : k_(std::move(slowdown)), step_(step) {
  if (k_.empty()) k_.push_back(1.0);
  for (double& k : k_) k = std::max(1.0, k);
  t_at_node_.resize(k_.size());
  t_at_node_[0] = 0.0;
  for (std::size_t i = 1; i < k_.size(); ++i) {
    t_at_node_[i] = t_at_node_[i - 1] + 0.5 * (k_[i - 1] + k_[i]) * step_;
  }
}

double TimeWarp::SlowdownAt(double tau) const {
  const double x = tau / step_;
  if (x <= 0) return k_.front();
  const std::size_t i = static_cast<std::size_t>(x);
  if (i + 1 >= k_.size()) return k_.back();
  const double f = x - static_cast<double>(i);
  return (1 - f) * k_[i] + f * k_[i + 1];
}

double TimeWarp::PathTime(double tau) const {
  if (tau <= 0) return 0.0;
  const double x = tau / step_;
  const std::size_t i = std::min(static_cast<std::size_t>(x), k_.size() - 1);
  const double u = tau - static_cast<double>(i) * step_;
  if (i + 1 >= k_.size()) return t_at_node_.back() + k_.back() * u;
  const double slope = (k_[i + 1] - k_[i]) / step_;
  return t_at_node_[i] + k_[i] * u + 0.5 * slope * u * u;
}

double TimeWarp::ProfileTime(double t) const {
  if (t <= 0) return 0.0;
  if (t >= t_at_node_.back()) {
    return static_cast<double>(k_.size() - 1) * step_ + (t - t_at_node_.back()) / k_.back();
  }
  const std::size_t i =
      static_cast<std::size_t>(std::upper_bound(t_at_node_.begin(), t_at_node_.end(), t) -
                               t_at_node_.begin()) -
      1;
  // Solve k_i u + slope u^2 / 2 = t - t_i for u in [0, step] (k >= 1 > 0).
  const double rest = t - t_at_node_[i];
  const double slope = (k_[i + 1] - k_[i]) / step_;
  const double u = std::abs(slope) < 1e-12
                       ? rest / k_[i]
                       : 2.0 * rest / (k_[i] + std::sqrt(k_[i] * k_[i] + 2.0 * slope * rest));
  return static_cast<double>(i) * step_ + std::clamp(u, 0.0, step_);
}

}  // namespace motion
