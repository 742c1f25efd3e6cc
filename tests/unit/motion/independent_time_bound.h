#pragma once

// An independent lower bound on the duration of a planned Cartesian motion:
// the time-optimal timing (velocity and acceleration only, no jerk) along
// the joint path the planner returned, recovered here from its samples and
// the test's own FK, by the classical backward/forward integration on a
// uniform grid (Bobrow; Pham & Pham's reachability in its simplest form),
// written separately from core's SolvePathTiming. A planner that respects
// the same limits cannot be faster than this; how much slower it is, is
// what jerk and its own discretisation cost.

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <Eigen/Core>

#include "core/model/joint_limits.h"

namespace motion_test {

struct TimeBoundInput {
  std::vector<double> sigma;       ///< per sample, path parameter in [0, 1], non-decreasing
  std::vector<Eigen::VectorXd> q;  ///< per sample
  std::vector<motion::JointLimits> limits;
  double tcp_length = 0, tcp_velocity = 0, tcp_acceleration = 0;  ///< m, m/s, m/s^2
};

inline double TimeOptimalBound(const TimeBoundInput& in, int nodes = 400) {
  const double inf = std::numeric_limits<double>::infinity();
  const int dof = static_cast<int>(in.q.front().size());
  // q on a uniform sigma grid, linear between samples (the samples are a
  // few mm apart; the grid is coarser).
  std::vector<Eigen::VectorXd> grid(nodes);
  std::size_t k = 0;
  for (int i = 0; i < nodes; ++i) {
    const double s = static_cast<double>(i) / (nodes - 1);
    while (k + 2 < in.sigma.size() && in.sigma[k + 1] < s) ++k;
    const double span = in.sigma[k + 1] - in.sigma[k];
    const double u = span > 0 ? std::clamp((s - in.sigma[k]) / span, 0.0, 1.0) : 0.0;
    grid[i] = (1 - u) * in.q[k] + u * in.q[k + 1];
  }
  const double h = 1.0 / (nodes - 1);
  std::vector<Eigen::VectorXd> d1(nodes), d2(nodes);
  for (int i = 0; i < nodes; ++i) {
    const int a = std::max(0, i - 1), b = std::min(nodes - 1, i + 1);
    d1[i] = (grid[b] - grid[a]) / ((b - a) * h);
    const int c = std::clamp(i, 1, nodes - 2);
    d2[i] = (grid[c + 1] - 2 * grid[c] + grid[c - 1]) / (h * h);
  }
  // Bounds on sdd at node i for sd^2 = x; and the largest x with any.
  auto sdd_range = [&](int i, double x, double& lo, double& hi) {
    lo = -inf, hi = inf;
    if (in.tcp_length > 0) {
      lo = -in.tcp_acceleration / in.tcp_length;
      hi = in.tcp_acceleration / in.tcp_length;
    }
    for (int j = 0; j < dof; ++j) {
      const double a = in.limits[j].max_acceleration, p = d1[i][j], pp = d2[i][j];
      if (std::abs(p) < 1e-12) continue;
      double l = (-a - pp * x) / p, r = (a - pp * x) / p;
      if (l > r) std::swap(l, r);
      lo = std::max(lo, l);
      hi = std::min(hi, r);
    }
  };
  std::vector<double> cap(nodes, inf);
  for (int i = 0; i < nodes; ++i) {
    if (in.tcp_length > 0) cap[i] = std::pow(in.tcp_velocity / in.tcp_length, 2);
    for (int j = 0; j < dof; ++j) {
      const double p = std::abs(d1[i][j]);
      if (p > 1e-12) cap[i] = std::min(cap[i], std::pow(in.limits[j].max_velocity / p, 2));
    }
    // Shrink until some sdd exists.
    double lo, hi;
    for (int it = 0; it < 200; ++it) {
      sdd_range(i, cap[i], lo, hi);
      if (lo <= hi) break;
      cap[i] *= 0.95;
    }
  }
  std::vector<double> x(nodes);
  x.back() = 0;
  for (int i = nodes - 2; i >= 0; --i) {  // braking, by bisection on x_i
    double lo_x = 0, hi_x = cap[i];
    auto ok = [&](double xi) {
      double lo, hi;
      sdd_range(i, xi, lo, hi);
      return lo <= hi && (x[i + 1] - xi) / (2 * h) >= lo;
    };
    if (ok(hi_x)) {
      x[i] = hi_x;
    } else {
      for (int it = 0; it < 60; ++it) {
        const double mid = 0.5 * (lo_x + hi_x);
        (ok(mid) ? lo_x : hi_x) = mid;
      }
      x[i] = lo_x;
    }
  }
  x.front() = 0;
  for (int i = 0; i + 1 < nodes; ++i) {  // accelerating
    double lo, hi;
    sdd_range(i, x[i], lo, hi);
    x[i + 1] = std::min(x[i + 1], x[i] + 2 * h * hi);
    x[i + 1] = std::max(x[i + 1], 0.0);
  }
  x.back() = 0;
  double t = 0;
  for (int i = 0; i + 1 < nodes; ++i) {
    const double v = std::sqrt(x[i]) + std::sqrt(x[i + 1]);
    t += v > 0 ? 2 * h / v : inf;
  }
  return t;
}

}  // namespace motion_test
