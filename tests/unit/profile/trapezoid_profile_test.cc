// TrapezoidProfile, SampleTimes and SampleCount against closed forms derived
// here by hand, fixed worked examples, and finite differences of the
// profile's own position (an independent check of its velocity and
// acceleration).

#include "core/profile/trapezoid_profile.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace motion {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

bool Mentions(const absl::Status& status, const std::string& word) {
  return std::string(status.message()).find(word) != std::string::npos;
}

// The closed form, derived from the kinematics of constant acceleration:
// going from v0 to vp at acceleration a covers (vp^2 - v0^2) / 2a. If the
// ramps to and from v fit into L the profile cruises at v for the rest;
// otherwise the ramps meet at vp with (vp^2 - v0^2) + (vp^2 - v1^2) = 2 a L.
struct Expected {
  double ta, tc, td, vp;
  double duration() const { return ta + tc + td; }
};

Expected ClosedForm(double length, double v, double a, double v0 = 0, double v1 = 0) {
  const double up = (v * v - v0 * v0) / (2 * a);
  const double down = (v * v - v1 * v1) / (2 * a);
  if (up + down <= length) return {(v - v0) / a, (length - up - down) / v, (v - v1) / a, v};
  const double vp = std::sqrt(a * length + 0.5 * (v0 * v0 + v1 * v1));
  return {(vp - v0) / a, 0.0, (vp - v1) / a, vp};
}

// s(t) of the closed form, phase by phase from the start.
double ClosedFormS(const Expected& e, double length, double a, double v0, double t) {
  const double da = v0 * e.ta + 0.5 * a * e.ta * e.ta;
  if (t <= e.ta) return v0 * t + 0.5 * a * t * t;
  if (t <= e.ta + e.tc) return da + e.vp * (t - e.ta);
  const double r = t - e.ta - e.tc;
  const double s = da + e.vp * e.tc + e.vp * r - 0.5 * a * r * r;
  return std::min(s, length);
}

// ------------------------------------------------------------ worked values

TEST(TrapezoidProfileTest, LongMoveWorkedExample) {
  // L = 1, v = 0.5, a = 1: Ta = v/a = 0.5 covering 0.125 on each ramp,
  // cruise (1 - 0.25) / 0.5 = 1.5, total 2.5.
  auto p = TrapezoidProfile::Plan(1.0, 0.5, 1.0);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_DOUBLE_EQ(p->accel_time(), 0.5);
  EXPECT_DOUBLE_EQ(p->cruise_time(), 1.5);
  EXPECT_DOUBLE_EQ(p->decel_time(), 0.5);
  EXPECT_DOUBLE_EQ(p->duration(), 2.5);
  EXPECT_DOUBLE_EQ(p->peak_velocity(), 0.5);
  EXPECT_FALSE(p->is_triangle());
  EXPECT_EQ(p->length(), 1.0);
  // Phase boundaries: s(0.5) = 0.125, s(2.0) = 0.875, mid-point s(1.25) = 0.5.
  EXPECT_NEAR(p->At(0.5).s, 0.125, 1e-15);
  EXPECT_NEAR(p->At(2.0).s, 0.875, 1e-15);
  EXPECT_NEAR(p->At(1.25).s, 0.5, 1e-15);
  EXPECT_NEAR(p->At(1.25).sd, 0.5, 1e-15);
  EXPECT_EQ(p->At(1.25).sdd, 0.0);
  EXPECT_NEAR(p->At(0.25).s, 0.03125, 1e-15);  // a t^2 / 2
  EXPECT_NEAR(p->At(0.25).sd, 0.25, 1e-15);
  EXPECT_EQ(p->At(0.25).sdd, 1.0);
  EXPECT_NEAR(p->At(2.25).sd, 0.25, 1e-15);
  EXPECT_EQ(p->At(2.25).sdd, -1.0);
  EXPECT_NEAR(p->At(2.25).s, 1.0 - 0.03125, 1e-15);
}

TEST(TrapezoidProfileTest, ShortMoveIsATriangleWithPeakSqrtAL) {
  // L = 0.1 < v^2/a = 0.25: no cruise, vp = sqrt(a L), T = 2 sqrt(L / a).
  auto p = TrapezoidProfile::Plan(0.1, 0.5, 1.0);
  ASSERT_TRUE(p.ok()) << p.status();
  const double vp = std::sqrt(0.1);
  EXPECT_NEAR(p->peak_velocity(), vp, 1e-15);
  EXPECT_NEAR(p->accel_time(), vp, 1e-15);
  EXPECT_NEAR(p->decel_time(), vp, 1e-15);
  EXPECT_EQ(p->cruise_time(), 0.0);
  EXPECT_TRUE(p->is_triangle());
  EXPECT_NEAR(p->duration(), 2 * std::sqrt(0.1), 1e-15);
  EXPECT_NEAR(p->At(vp).s, 0.05, 1e-15);  // half-way at the peak
  EXPECT_NEAR(p->At(vp).sd, vp, 1e-15);
}

TEST(TrapezoidProfileTest, StartAndEndVelocitiesWorkedExamples) {
  {
    // L = 1, v = 1, a = 1, v0 = 0.5, v1 = 0: ramps cover (1 - 0.25)/2 =
    // 0.375 and 0.5, cruise 0.125 at 1; Ta = 0.5, Td = 1.
    auto p = TrapezoidProfile::Plan(1.0, 1.0, 1.0, 0.5, 0.0);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_NEAR(p->accel_time(), 0.5, 1e-15);
    EXPECT_NEAR(p->cruise_time(), 0.125, 1e-15);
    EXPECT_NEAR(p->decel_time(), 1.0, 1e-15);
    EXPECT_NEAR(p->duration(), 1.625, 1e-15);
    EXPECT_EQ(p->At(0).sd, 0.5);
    EXPECT_EQ(p->At(p->duration()).sd, 0.0);
    EXPECT_NEAR(p->At(0.5).s, 0.375, 1e-15);
  }
  {
    // Triangle: L = 0.2, v = 1, a = 1, v0 = 0.4, v1 = 0.2. At v the ramps
    // would need (2 - 0.16 - 0.04) / 2 = 0.9 > 0.2, so
    // vp = sqrt(0.2 + (0.16 + 0.04) / 2) = sqrt(0.3).
    auto p = TrapezoidProfile::Plan(0.2, 1.0, 1.0, 0.4, 0.2);
    ASSERT_TRUE(p.ok()) << p.status();
    const double vp = std::sqrt(0.3);
    EXPECT_NEAR(p->peak_velocity(), vp, 1e-15);
    EXPECT_NEAR(p->accel_time(), vp - 0.4, 1e-15);
    EXPECT_NEAR(p->decel_time(), vp - 0.2, 1e-15);
    EXPECT_EQ(p->cruise_time(), 0.0);
    EXPECT_EQ(p->At(0).sd, 0.4);
    EXPECT_EQ(p->At(p->duration()).sd, 0.2);
    EXPECT_EQ(p->At(p->duration()).s, 0.2);
  }
  {
    // Constant speed throughout: v0 = v1 = v, T = L / v.
    auto p = TrapezoidProfile::Plan(3.0, 1.5, 2.0, 1.5, 1.5);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_EQ(p->accel_time(), 0.0);
    EXPECT_EQ(p->decel_time(), 0.0);
    EXPECT_NEAR(p->duration(), 2.0, 1e-15);
    EXPECT_NEAR(p->At(1.0).s, 1.5, 1e-15);
  }
}

TEST(TrapezoidProfileTest, ZeroLengthHasZeroDuration) {
  auto p = TrapezoidProfile::Plan(0.0, 1.0, 1.0);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->duration(), 0.0);
  EXPECT_EQ(p->At(0).s, 0.0);
  EXPECT_EQ(p->At(1.0).s, 0.0);
}

TEST(TrapezoidProfileTest, EndsAreExact) {
  for (double length : {1.0, 0.1, 1e-3, 7.3, 0.3}) {
    for (double v : {0.1, 0.5, 3.0}) {
      auto p = TrapezoidProfile::Plan(length, v, 1.3);
      ASSERT_TRUE(p.ok()) << p.status();
      EXPECT_EQ(p->At(0).s, 0.0);
      EXPECT_EQ(p->At(0).sd, 0.0);
      EXPECT_EQ(p->At(p->duration()).s, length);
      EXPECT_EQ(p->At(p->duration()).sd, 0.0);
      // Clamped outside [0, T].
      EXPECT_EQ(p->At(-1.0).s, 0.0);
      EXPECT_EQ(p->At(p->duration() + 1.0).s, length);
    }
  }
}

// -------------------------------------------------------- random properties

TEST(TrapezoidProfileTest, RandomParametersMatchClosedFormAndNeverExceedLimits) {
  std::mt19937_64 rng(20240611);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  auto log_uniform = [&](double lo, double hi) {
    return std::exp(std::log(lo) + unit(rng) * (std::log(hi) - std::log(lo)));
  };
  int planned = 0, triangles = 0, refused = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    const double length = log_uniform(1e-4, 10.0);
    const double v = log_uniform(1e-2, 5.0);
    const double a = log_uniform(1e-2, 20.0);
    // A quarter of the trials start and stop at rest, the rest do not.
    const double v0 = trial % 4 == 0 ? 0.0 : unit(rng) * v;
    const double v1 = trial % 4 == 0 ? 0.0 : unit(rng) * v;
    auto p = TrapezoidProfile::Plan(length, v, a, v0, v1);
    const bool feasible = std::abs(v1 * v1 - v0 * v0) / (2 * a) <= length;
    if (!feasible) {
      // v0 -> v1 does not fit into L at a: refused, naming end_velocity.
      if (std::abs(v1 * v1 - v0 * v0) / (2 * a) > length * (1 + 1e-9)) {
        ASSERT_FALSE(p.ok()) << length << " " << v << " " << a << " " << v0 << " " << v1;
        EXPECT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument);
        EXPECT_TRUE(Mentions(p.status(), "end_velocity")) << p.status();
        ++refused;
      }
      continue;
    }
    ASSERT_TRUE(p.ok()) << p.status() << " L=" << length << " v=" << v << " a=" << a << " v0=" << v0
                        << " v1=" << v1;
    ++planned;
    const Expected e = ClosedForm(length, v, a, v0, v1);
    if (e.tc == 0) ++triangles;
    const double T = p->duration();
    const double ttol = 1e-9 * std::max(1.0, e.duration());
    ASSERT_NEAR(T, e.duration(), ttol) << "L=" << length << " v=" << v << " a=" << a;
    EXPECT_NEAR(p->accel_time(), e.ta, ttol);
    EXPECT_NEAR(p->cruise_time(), e.tc, ttol);
    EXPECT_NEAR(p->decel_time(), e.td, ttol);
    EXPECT_NEAR(p->peak_velocity(), e.vp, 1e-9 * v);
    EXPECT_LE(p->peak_velocity(), v);

    EXPECT_EQ(p->At(0).s, 0.0);
    EXPECT_EQ(p->At(T).s, length);
    EXPECT_NEAR(p->At(0).sd, v0, 1e-15);
    EXPECT_NEAR(p->At(T).sd, v1, 1e-15);

    // Dense samples: limits, monotonicity, closed-form position, and the
    // velocity against a central difference of s (exact on a parabola, so
    // only rounding and a switch inside [t-h, t+h] contribute).
    const int n = 200;
    const double h = 1e-5 * T;
    const std::vector<double> switches = {p->accel_time(), p->accel_time() + p->cruise_time()};
    double previous_s = 0.0;
    for (int k = 0; k <= n; ++k) {
      const double t = T * k / n;
      const TrapezoidProfile::State st = p->At(t);
      ASSERT_LE(st.sd, v * (1 + 1e-12)) << "t=" << t;
      ASSERT_GE(st.sd, -1e-12 * v);
      ASSERT_LE(std::abs(st.sdd), a);
      ASSERT_GE(st.s, previous_s);
      ASSERT_LE(st.s, length);
      previous_s = st.s;
      ASSERT_NEAR(st.s, ClosedFormS(e, length, a, v0, t), 1e-9 * std::max(length, 1e-3))
          << "t=" << t << " T=" << T;
      if (t - h < 0 || t + h > T) continue;
      const double fd_v = (p->At(t + h).s - p->At(t - h).s) / (2 * h);
      const double rounding = 8 * std::numeric_limits<double>::epsilon() * length / h;
      EXPECT_NEAR(fd_v, st.sd, a * h + rounding + 1e-12) << "t=" << t;
      bool near_switch = false;
      for (double sw : switches) near_switch |= std::abs(t - sw) < 2 * h;
      if (near_switch) continue;
      const double fd_a = (p->At(t + h).sd - p->At(t - h).sd) / (2 * h);
      EXPECT_NEAR(fd_a, st.sdd, 1e-6 * a + 8 * std::numeric_limits<double>::epsilon() * v / h)
          << "t=" << t;
    }
  }
  // The generator covered all cases.
  EXPECT_GT(planned, 1000);
  EXPECT_GT(triangles, 100);
  EXPECT_GT(planned - triangles, 100);
  EXPECT_GT(refused, 50);
}

// ------------------------------------------------------------ bad parameters

TEST(TrapezoidProfileTest, BadParametersAreInvalidArgumentNamingTheParameter) {
  struct Case {
    double length, v, a, v0, v1;
    const char* parameter;
  };
  const Case cases[] = {
      {-1.0, 1, 1, 0, 0, "length"},
      {kNaN, 1, 1, 0, 0, "length"},
      {kInf, 1, 1, 0, 0, "length"},
      {1.0, 0, 1, 0, 0, "max_velocity"},
      {1.0, -1, 1, 0, 0, "max_velocity"},
      {1.0, kNaN, 1, 0, 0, "max_velocity"},
      {1.0, kInf, 1, 0, 0, "max_velocity"},
      {1.0, 1, 0, 0, 0, "max_acceleration"},
      {1.0, 1, -2, 0, 0, "max_acceleration"},
      {1.0, 1, kNaN, 0, 0, "max_acceleration"},
      {1.0, 1, 1, -0.1, 0, "start_velocity"},
      {1.0, 1, 1, 1.5, 0, "start_velocity"},
      {1.0, 1, 1, kNaN, 0, "start_velocity"},
      {1.0, 1, 1, 0, -0.1, "end_velocity"},
      {1.0, 1, 1, 0, 2.0, "end_velocity"},
      {1.0, 1, 1, 0, kNaN, "end_velocity"},
      // 0 -> 1 needs 0.5 at a = 1; only 0.1 available.
      {0.1, 1, 1, 0, 1.0, "end_velocity"},
      {0.1, 1, 1, 1.0, 0, "end_velocity"},
  };
  for (const Case& c : cases) {
    auto p = TrapezoidProfile::Plan(c.length, c.v, c.a, c.v0, c.v1);
    ASSERT_FALSE(p.ok()) << c.parameter << " L=" << c.length << " v=" << c.v << " a=" << c.a
                         << " v0=" << c.v0 << " v1=" << c.v1;
    EXPECT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_TRUE(Mentions(p.status(), c.parameter)) << c.parameter << ": " << p.status();
  }
}

// --------------------------------------------------------------- SampleTimes

void ExpectWellFormedSampleTimes(const std::vector<double>& times, double duration, double dt) {
  ASSERT_FALSE(times.empty());
  EXPECT_EQ(times.front(), 0.0);
  EXPECT_EQ(times.back(), duration);
  for (std::size_t k = 1; k < times.size(); ++k) {
    const double step = times[k] - times[k - 1];
    ASSERT_GT(step, 0.0) << "k=" << k;
    if (k + 1 < times.size()) {
      ASSERT_NEAR(step, dt, 1e-9 * dt) << "k=" << k;  // full steps
    } else {
      ASSERT_LE(step, dt * (1 + 1e-9));  // the last may be shorter
    }
  }
  // Never skipped: no gap longer than dt before the end.
  EXPECT_LE(duration - times[times.size() - (times.size() > 1 ? 2 : 1)], dt * (1 + 1e-9));
  EXPECT_GE(SampleCount(duration, dt), static_cast<double>(times.size()));
}

TEST(SampleTimesTest, ExactMultipleEndsOnTheLastFullStep) {
  const std::vector<double> t = SampleTimes(1.0, 0.25);
  ASSERT_EQ(t.size(), 5u);
  EXPECT_EQ(t[0], 0.0);
  EXPECT_EQ(t[1], 0.25);
  EXPECT_EQ(t[2], 0.5);
  EXPECT_EQ(t[3], 0.75);
  EXPECT_EQ(t[4], 1.0);
  // 2.5 s at 4 ms: 625 intervals, 626 samples, even though 2.5 / 0.004
  // is not exact in binary.
  const std::vector<double> u = SampleTimes(2.5, 0.004);
  EXPECT_EQ(u.size(), 626u);
  ExpectWellFormedSampleTimes(u, 2.5, 0.004);
}

TEST(SampleTimesTest, ShorterLastIntervalIsKept) {
  const std::vector<double> t = SampleTimes(1.0, 0.3);
  ASSERT_EQ(t.size(), 5u);  // 0 .3 .6 .9 1.0
  EXPECT_NEAR(t[3], 0.9, 1e-15);
  EXPECT_EQ(t[4], 1.0);
  ExpectWellFormedSampleTimes(t, 1.0, 0.3);

  // A last interval of 1e-6 dt is kept, not dropped.
  const double duration = 1.0 + 0.25e-6;
  const std::vector<double> u = SampleTimes(duration, 0.25);
  ASSERT_EQ(u.size(), 6u);
  EXPECT_EQ(u[4], 1.0);
  EXPECT_EQ(u[5], duration);
}

TEST(SampleTimesTest, ZeroDurationIsOneSample) {
  const std::vector<double> t = SampleTimes(0.0, 0.004);
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0], 0.0);
}

TEST(SampleTimesTest, ShorterThanOneStep) {
  const std::vector<double> t = SampleTimes(0.001, 0.004);
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0], 0.0);
  EXPECT_EQ(t[1], 0.001);
}

TEST(SampleTimesTest, RandomDurationsAreWellFormed) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int trial = 0; trial < 2000; ++trial) {
    const double dt = 1e-3 * (1 + 9 * unit(rng));
    double duration = 3.0 * unit(rng);
    if (trial % 5 == 0) duration = dt * std::floor(duration / dt);  // on a multiple
    const std::vector<double> t = SampleTimes(duration, dt);
    ExpectWellFormedSampleTimes(t, duration, dt);
    // ceil(T/dt) intervals, one more sample (within rounding of a multiple).
    const double intervals = duration / dt;
    const double nearest = std::round(intervals);
    if (std::abs(intervals - nearest) > 1e-6) {
      EXPECT_EQ(t.size(), static_cast<std::size_t>(std::ceil(intervals)) + 1) << duration / dt;
    } else {
      EXPECT_EQ(t.size(), static_cast<std::size_t>(nearest) + 1) << duration / dt;
    }
  }
}

TEST(SampleCountTest, BoundsTheSampleCountWithoutBuildingIt) {
  EXPECT_GE(SampleCount(2.5, 0.004), 626.0);
  EXPECT_LE(SampleCount(2.5, 0.004), 627.0);
  // 1e5 s at 1e-4 s: 1e9 samples, counted, not built.
  EXPECT_GE(SampleCount(1e5, 1e-4), 1e9);
  EXPECT_LE(SampleCount(1e5, 1e-4), 1e9 + 2);
}

}  // namespace
}  // namespace motion
