// TimeWarp: t(tau) is the integral of the piecewise-linear slowdown k, and
// ProfileTime is its exact inverse; checked against a fine numerical
// integration of k and by round trips.

#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "core/profile/time_warp.h"

namespace motion {
namespace {

TEST(TimeWarpTest, PathTimeIsTheIntegralOfTheSlowdownAndProfileTimeItsInverse) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<double> k(50);
  for (double& v : k) v = 1.0 + 4.0 * unit(rng);
  const double step = 0.004;
  const TimeWarp warp(k, step);
  // Midpoint rule on 1000 sub-steps per node: exact for linear k up to rounding.
  double t = 0.0;
  for (int i = 0; i < 49 * 1000; ++i) {
    const double tau = (i + 0.5) * step / 1000.0;
    t += warp.SlowdownAt(tau) * step / 1000.0;
    if ((i + 1) % 997 == 0) {
      const double at = (i + 1) * step / 1000.0;
      EXPECT_NEAR(warp.PathTime(at), t, 1e-12) << "tau " << at;
    }
  }
  for (double tau = 0.0; tau < 0.25; tau += 0.00123) {
    EXPECT_NEAR(warp.ProfileTime(warp.PathTime(tau)), tau, 1e-13) << tau;
  }
  // Beyond the last node the last slowdown holds.
  EXPECT_NEAR(warp.PathTime(49 * step + 0.01) - warp.PathTime(49 * step), k.back() * 0.01, 1e-12);
}

TEST(TimeWarpTest, SlowdownsBelowOneAreRaisedToOne) {
  const TimeWarp warp({0.5, 2.0}, 1.0);
  EXPECT_EQ(warp.SlowdownAt(0.0), 1.0);
  EXPECT_NEAR(warp.PathTime(1.0), 1.5, 1e-15);  // mean of 1 and 2 over one step
}

}  // namespace
}  // namespace motion
