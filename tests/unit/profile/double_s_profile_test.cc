// DoubleSProfile against independent truth: the worked examples of
// Biagiotti & Melchiorri (2008, examples 3.9 and 3.10), numerical
// integration of its own jerk signal, divided differences of its positions,
// random parameters with invariants, and a brute-force search over the
// whole family of symmetric rest-to-rest double-S profiles for the fastest
// one (the planned profile must not be beaten).

#include <algorithm>
#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "core/profile/double_s_profile.h"

namespace motion {
namespace {

TEST(DoubleSProfileTest, BiagiottiExample39WithCruise) {
  // q0 = 0, q1 = 10, v0 = 1, v1 = 0, vmax = 5, amax = 10, jmax = 30.
  auto p = DoubleSProfile::Plan(10.0, 5.0, 10.0, 30.0, 1.0, 0.0);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_NEAR(p->accel_time(), 0.7333, 5e-5);
  EXPECT_NEAR(p->cruise_time(), 1.1433, 5e-5);
  EXPECT_NEAR(p->decel_time(), 0.8333, 5e-5);
  EXPECT_NEAR(p->accel_jerk_time(), 0.3333, 5e-5);
  EXPECT_NEAR(p->decel_jerk_time(), 0.3333, 5e-5);
  EXPECT_NEAR(p->duration(), 2.7100, 5e-5);
  EXPECT_DOUBLE_EQ(p->peak_velocity(), 5.0);
}

TEST(DoubleSProfileTest, BiagiottiExample310WithoutCruise) {
  // As 3.9 with vmax = 10: vlim = 8.4136 is never limited by vmax.
  auto p = DoubleSProfile::Plan(10.0, 10.0, 10.0, 30.0, 1.0, 0.0);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_NEAR(p->accel_time(), 1.0747, 5e-5);
  EXPECT_LT(p->cruise_time(), 1e-12);  // zero to rounding (FMA on aarch64 leaves 2e-16)
  EXPECT_NEAR(p->decel_time(), 1.1747, 5e-5);
  EXPECT_NEAR(p->accel_jerk_time(), 0.3333, 5e-5);
  EXPECT_NEAR(p->peak_velocity(), 8.4136, 5e-4);
  EXPECT_NEAR(p->duration(), 2.2494, 5e-5);
}

TEST(DoubleSProfileTest, RestToRestClosedFormsOfEveryShape) {
  const double v = 2.0, a = 4.0, j = 16.0;  // a^2/j = 1: the speed where a is reached
  // Long: cruise at v; T = L/v + v/a + a/j.
  auto cruise = DoubleSProfile::Plan(10.0, v, a, j);
  ASSERT_TRUE(cruise.ok());
  EXPECT_NEAR(cruise->duration(), 10.0 / v + v / a + a / j, 1e-12);
  // No cruise, a reached: vp (vp / a + a / j) = L; L = 1.5 gives
  // vp^2 + vp - 6 = 0, vp = 2 >= 1.
  auto no_cruise = DoubleSProfile::Plan(1.5, 10.0, a, j);
  ASSERT_TRUE(no_cruise.ok());
  EXPECT_NEAR(no_cruise->peak_velocity(), 2.0, 1e-12);
  EXPECT_NEAR(no_cruise->duration(), 2.0 * (2.0 / a + a / j), 1e-12);
  // Short: neither a nor v reached, T = 4 (L / 2j)^(1/3).
  auto short_move = DoubleSProfile::Plan(0.01, v, a, j);
  ASSERT_TRUE(short_move.ok());
  EXPECT_NEAR(short_move->duration(), 4.0 * std::cbrt(0.01 / (2.0 * j)), 1e-12);
  EXPECT_LT(short_move->peak_accel(), a);
  // Nothing to do.
  auto none = DoubleSProfile::Plan(0.0, v, a, j);
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->duration(), 0.0);
  EXPECT_EQ(none->At(0.0).s, 0.0);
}

TEST(DoubleSProfileTest, RefusesBadParametersNamingThem) {
  EXPECT_NE(DoubleSProfile::Plan(-1, 1, 1, 1).status().message().find("length"),
            absl::string_view::npos);
  EXPECT_NE(DoubleSProfile::Plan(1, 0, 1, 1).status().message().find("max_velocity"),
            absl::string_view::npos);
  EXPECT_NE(DoubleSProfile::Plan(1, 1, NAN, 1).status().message().find("max_acceleration"),
            absl::string_view::npos);
  EXPECT_NE(DoubleSProfile::Plan(1, 1, 1, INFINITY).status().message().find("max_jerk"),
            absl::string_view::npos);
  EXPECT_NE(DoubleSProfile::Plan(1, 1, 1, 1, 2.0).status().message().find("start_velocity"),
            absl::string_view::npos);
  // From 1 to 0 needs 1 (1/a + a/j) / 2 = 1 of path: 0.5 is too short.
  EXPECT_NE(DoubleSProfile::Plan(0.5, 1, 1, 1, 1.0, 0.0).status().message().find("cannot go"),
            absl::string_view::npos);
  EXPECT_NE(DoubleSProfile::PlanWithDuration(1, 0.1, 1, 1, 1).status().message().find("duration"),
            absl::string_view::npos);
}

// Samples t on a fine grid and checks every invariant: limits, monotone
// position, exact ends, the jerk signal integrated three times (trapezoid
// rule, exact for piecewise-linear acceleration, second order beyond)
// against the closed-form states, and divided differences of s.
void ExpectConsistent(const DoubleSProfile& p, double v, double a, double j) {
  const double T = p.duration();
  const int n = 20000;
  const double dt = T / n;
  double s = 0.0, sd = p.start_velocity(), sdd = 0.0;
  DoubleSProfile::State previous = p.At(0.0);
  EXPECT_EQ(previous.s, 0.0);
  EXPECT_EQ(previous.sd, p.start_velocity());
  double worst_s = 0, worst_sd = 0, worst_sdd = 0;
  for (int k = 1; k <= n; ++k) {
    const DoubleSProfile::State now = p.At(k * dt);
    ASSERT_LE(std::abs(now.sd), v * (1 + 1e-12) + 1e-15);
    ASSERT_LE(std::abs(now.sdd), a * (1 + 1e-12) + 1e-15);
    ASSERT_LE(std::abs(now.sddd), j * (1 + 1e-12));
    ASSERT_GE(now.s, previous.s - 1e-12 * p.length());
    // Integrate: jerk is constant between phase switches except at the few
    // samples that straddle one, so use the mean of both ends.
    const double sdd_next = sdd + 0.5 * (previous.sddd + now.sddd) * dt;
    const double sd_next = sd + 0.5 * (sdd + sdd_next) * dt;
    s += 0.5 * (sd + sd_next) * dt;
    sd = sd_next;
    sdd = sdd_next;
    worst_s = std::max(worst_s, std::abs(s - now.s));
    worst_sd = std::max(worst_sd, std::abs(sd - now.sd));
    worst_sdd = std::max(worst_sdd, std::abs(sdd - now.sdd));
    previous = now;
  }
  EXPECT_EQ(p.At(T).s, p.length());
  EXPECT_EQ(p.At(T).sd, p.end_velocity());
  // Each straddled switch costs at most j dt in acceleration; seven switches.
  EXPECT_LT(worst_sdd, 8 * j * dt);
  EXPECT_LT(worst_sd, 8 * j * dt * T + 1e-12);
  EXPECT_LT(worst_s, 8 * j * dt * T * T + 1e-12);
  // Central differences of s match sd and sdd.
  const double h = std::max(1e-6 * T, 1e-9);
  for (int k = 1; k < 50; ++k) {
    const double t = T * k / 50.0;
    if (t - h < 0 || t + h > T) continue;
    const double velocity = (p.At(t + h).s - p.At(t - h).s) / (2 * h);
    EXPECT_NEAR(velocity, p.At(t).sd, 1e-5 * std::max(1.0, v)) << "t = " << t;
  }
}

TEST(DoubleSProfileTest, RandomParametersKeepEveryInvariant) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> log_uniform(-2.0, 1.5);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int trial = 0; trial < 400; ++trial) {
    const double v = std::pow(10.0, log_uniform(rng));
    const double a = std::pow(10.0, log_uniform(rng));
    const double j = std::pow(10.0, log_uniform(rng) + 0.5);
    const double length = std::pow(10.0, log_uniform(rng) - 1.0);
    double v0 = 0, v1 = 0;
    if (trial % 2 == 1) {
      v0 = v * unit(rng);
      v1 = v * unit(rng);
    }
    auto p = DoubleSProfile::Plan(length, v, a, j, v0, v1);
    if (!p.ok()) {
      // Only a boundary speed change that does not fit may be refused.
      ASSERT_TRUE(v0 > 0 || v1 > 0) << p.status();
      continue;
    }
    SCOPED_TRACE(testing::Message() << "L=" << length << " v=" << v << " a=" << a << " j=" << j
                                    << " v0=" << v0 << " v1=" << v1);
    ExpectConsistent(*p, v, a, j);
    if (HasFatalFailure()) return;
    // Time-optimal structure: the peak speed is v_max, or there is no cruise.
    EXPECT_TRUE(p->peak_velocity() == v || p->cruise_time() == 0.0 ||
                p->cruise_time() < 1e-12 * p->duration());
  }
}

// The symmetric rest-to-rest double-S family, (jerk time Tj, acceleration
// time Ta, cruise Tv) with Tj <= a/j, Ta >= 2 Tj, peak acceleration j Tj,
// peak speed j Tj (Ta - Tj) <= v, covers vlim (Ta + Tv). A grid over
// (Tj, Ta) with the cruise that lands exactly on L: none may be faster than
// the planned profile, and the best of the grid comes close to it.
TEST(DoubleSProfileTest, NoSymmetricProfileOnAGridIsFaster) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> log_uniform(-1.0, 1.0);
  for (int trial = 0; trial < 30; ++trial) {
    const double v = std::pow(10.0, log_uniform(rng));
    const double a = std::pow(10.0, log_uniform(rng));
    const double j = std::pow(10.0, log_uniform(rng) + 0.7);
    const double length = std::pow(10.0, log_uniform(rng));
    auto p = DoubleSProfile::Plan(length, v, a, j);
    ASSERT_TRUE(p.ok());
    double best = INFINITY;
    const int grid = 400;
    for (int m = 1; m <= grid; ++m) {
      const double tj = (a / j) * m / grid;
      const double alim = j * tj;
      // Ta from 2 Tj up to where vlim reaches v.
      const double ta_max = v / alim + tj;
      for (int k = 0; k <= grid; ++k) {
        const double ta = 2 * tj + (std::max(ta_max, 2 * tj) - 2 * tj) * k / grid;
        const double vlim = alim * (ta - tj);
        if (vlim > v * (1 + 1e-12)) continue;
        const double tv = length / vlim - ta;
        if (tv < 0) continue;
        best = std::min(best, 2 * ta + tv);
      }
    }
    EXPECT_GE(best, p->duration() * (1 - 1e-9)) << "grid beat the planned profile";
    EXPECT_LT(best, p->duration() * 1.02) << "grid far from the planned profile";
  }
}

TEST(DoubleSProfileTest, StretchedToADurationArrivesExactlyThenWithinLimits) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> log_uniform(-1.5, 1.0);
  std::uniform_real_distribution<double> stretch(1.0, 4.0);
  for (int trial = 0; trial < 200; ++trial) {
    const double v = std::pow(10.0, log_uniform(rng));
    const double a = std::pow(10.0, log_uniform(rng));
    const double j = std::pow(10.0, log_uniform(rng) + 0.5);
    const double length = std::pow(10.0, log_uniform(rng));
    auto fastest = DoubleSProfile::Plan(length, v, a, j);
    ASSERT_TRUE(fastest.ok());
    const double duration = fastest->duration() * stretch(rng);
    auto p = DoubleSProfile::PlanWithDuration(length, duration, v, a, j);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_NEAR(p->duration(), duration, 1e-12 * duration);
    EXPECT_LE(p->peak_velocity(), fastest->peak_velocity());
    ExpectConsistent(*p, v, a, j);
    if (HasFatalFailure()) return;
  }
}

}  // namespace
}  // namespace motion
