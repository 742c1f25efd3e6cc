// SolvePathTiming and PathTiming against independent truth: on a path that
// is one straight quantity the fastest rest-to-rest timing is the closed-form
// double-S (or trapezoid) of Biagiotti & Melchiorri 3.4, computed here; the
// timing must match it and never beat it. Every timing is then sampled on a
// 4 ms grid and audited by divided differences of s here, not by core. A
// path whose speed must dip (a quantity that moves fast in the middle) is
// slowed there only.

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/profile/path_timing.h"

namespace motion {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Shortest rest-to-rest time over distance L with |v| <= V, |a| <= A,
// |j| <= J (J infinite: trapezoid).
double RestToRest(double L, double V, double A, double J) {
  auto accel = [&](double v, double& distance) {
    double Ta;
    if (!std::isfinite(J)) {
      Ta = v / A;
    } else if (v * J >= A * A) {
      Ta = A / J + v / A;
    } else {
      Ta = 2 * std::sqrt(v / J);
    }
    distance = v * Ta;  // accelerate and decelerate, symmetric
    return Ta;
  };
  double d;
  const double Ta = accel(V, d);
  if (d <= L) return L / V + Ta;
  double lo = 0, hi = V;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    accel(mid, d);
    (d > L ? hi : lo) = mid;
  }
  return 2 * accel(0.5 * (lo + hi), d);
}

struct Audit {
  double velocity = 0, acceleration = 0, jerk = 0;
};

// Divided differences of y = L s(t) sampled every dt, at rest before and after.
Audit AuditSamples(const std::vector<double>& y, double dt) {
  Audit out;
  const long n = static_cast<long>(y.size());
  auto at = [&](long k) { return y[std::clamp(k, 0L, n - 1)]; };
  for (long k = 0; k <= n; ++k) {
    out.velocity = std::max(out.velocity, std::abs(at(k) - at(k - 1)) / dt);
    out.acceleration =
        std::max(out.acceleration, std::abs(at(k + 1) - 2 * at(k) + at(k - 1)) / (dt * dt));
    out.jerk = std::max(
        out.jerk, std::abs(at(k + 1) - 3 * at(k) + 3 * at(k - 1) - at(k - 2)) / (dt * dt * dt));
  }
  return out;
}

// One quantity y = L s (d1 = L everywhere, or `d1` per node), refined until
// no interval lasts more than dt / 4, as the planner does.
struct Solved {
  PathTiming timing{std::vector<double>(2, 0.0)};
  std::vector<double> grid;
};

// The problem of the one quantity on `grid`.
template <typename D1>
PathTimingProblem OneQuantity(const std::vector<double>& grid, D1 d1, double V, double A,
                              double J) {
  PathTimingProblem p;
  p.nodes = static_cast<int>(grid.size());
  p.quantities = 1;
  p.s = grid;
  for (double s : grid) {
    // y' = d1(s), y'' = d1'(s), y''' = d1''(s) by central differences.
    const double h = 1e-4;
    p.d1.push_back(d1(s));
    p.d2.push_back((d1(s + h) - d1(s - h)) / (2 * h));
    p.d3.push_back((d1(s + h) - 2 * d1(s) + d1(s - h)) / (h * h));
  }
  p.max_velocity = {V};
  p.max_acceleration = {A};
  p.max_jerk = {J};
  return p;
}

template <typename D1>
Solved Solve(D1 d1, double V, double A, double J, double dt) {
  std::vector<double> grid;
  for (int i = 0; i <= 200; ++i) grid.push_back(i / 200.0);
  PathTimingSolution solution;
  for (int pass = 0; pass < 4; ++pass) {
    solution = SolvePathTiming(OneQuantity(grid, d1, V, A, J));
    if (pass == 3) break;  // the grid of the solution
    const std::vector<double> finer = RefinedGrid(PathTiming(solution.x, grid), 0.25 * dt, 200000);
    if (finer.size() == grid.size()) break;
    grid = finer;
  }
  Solved out;
  out.timing = PathTiming(solution.x, grid);
  out.grid = grid;
  return out;
}

// y(t) = integral of d1 ds along the timing, sampled on the grid it is
// stretched to end on.
template <typename Y>
std::vector<double> Sample(Solved& solved, double dt, const Y& y) {
  const double T = std::ceil(solved.timing.duration() / dt - 1e-9) * dt;
  solved.timing.StretchTo(T);
  const long n = std::lround(T / dt) + 1;
  std::vector<double> out(n);
  for (long k = 0; k < n; ++k) out[k] = y(solved.timing.At(k * dt).s);
  out.back() = y(1.0);
  return out;
}

double Line(double s) { return 3.0 * s; }

TEST(PathTimingTest, AStraightPathIsTheClosedFormDoubleSAndNeverFaster) {
  const double L = 3.0, V = 1.0, A = 2.0, J = 10.0, dt = 0.004;
  Solved solved = Solve([&](double) { return L; }, V, A, J, dt);
  const double exact = RestToRest(L, V, A, J);  // 3.7 s
  // Never faster than the optimum; the jerk rounding on a finite grid costs
  // up to a few per cent (1.8 % here).
  EXPECT_GE(solved.timing.duration(), exact * (1 - 1e-6));
  EXPECT_LE(solved.timing.duration(), exact * 1.03);
  const Audit audit = AuditSamples(Sample(solved, dt, Line), dt);
  EXPECT_LE(audit.velocity, V * (1 + 1e-9));
  EXPECT_LE(audit.acceleration, A * (1 + 1e-3));
  // Jerk is bounded at the nodes; between them the samples' third
  // differences average the steps of sdd: within 2 % of the limit.
  EXPECT_LE(audit.jerk, J * 1.02);
  std::printf("[ figures  ] double-S %.4f s, timing %.4f s, sampled jerk %.4f of %.1f\n", exact,
              solved.timing.duration(), audit.jerk, J);
}

TEST(PathTimingTest, AShortPathThatNeverCruisesIsTheClosedForm) {
  const double L = 0.3, V = 3.0, A = 2.0, J = 10.0, dt = 0.004;
  Solved solved = Solve([&](double) { return L; }, V, A, J, dt);
  const double exact = RestToRest(L, V, A, J);  // 1.0 s
  // Never faster; here the two rounded corners cost 5.8 % (see the README).
  EXPECT_GE(solved.timing.duration(), exact * (1 - 1e-6));
  EXPECT_LE(solved.timing.duration(), exact * 1.06);
  std::printf("[ figures  ] double-S %.4f s, timing %.4f s\n", exact, solved.timing.duration());
  auto y = +[](double s) { return 0.3 * s; };
  const Audit audit = AuditSamples(Sample(solved, dt, y), dt);
  EXPECT_LE(audit.acceleration, A * (1 + 1e-3));
  EXPECT_LE(audit.jerk, J * 1.02);
}

TEST(PathTimingTest, WithoutJerkItIsTheTrapezoid) {
  const double L = 3.0, V = 1.0, A = 2.0, dt = 0.004;
  Solved solved = Solve([&](double) { return L; }, V, A, kInf, dt);
  const double exact = RestToRest(L, V, A, kInf);  // L / V + V / A
  EXPECT_GE(solved.timing.duration(), exact * (1 - 1e-6));
  EXPECT_LE(solved.timing.duration(), exact * 1.001);
  const Audit audit = AuditSamples(Sample(solved, dt, Line), dt);
  EXPECT_LE(audit.velocity, V * (1 + 1e-9));
  EXPECT_LE(audit.acceleration, A * (1 + 1e-3));
}

// A quantity that moves four times faster around s = 0.5 (think of a joint
// near a singularity): d1 = L (1 + 3 bump), so its speed limit there is a
// quarter of the rest's.
double Bumpy(double s) {
  const double w = 0.05;
  return 3.0 * (s + 3 * w * std::sqrt(M_PI) / 2 * std::erf((s - 0.5) / w));
}

TEST(PathTimingTest, ASpeedDipSlowsTheMotionThereOnly) {
  const double L = 3.0, V = 1.0, A = 2.0, J = 10.0, dt = 0.004;
  auto d1 = [&](double s) { return L * (1 + 3 * std::exp(-std::pow((s - 0.5) / 0.05, 2))); };
  Solved solved = Solve(d1, V, A, J, dt);
  // Within every limit, as sampled.
  const Audit audit = AuditSamples(Sample(solved, dt, Bumpy), dt);
  EXPECT_LE(audit.velocity, V * (1 + 1e-6));
  EXPECT_LE(audit.acceleration, A * 1.005);
  EXPECT_LE(audit.jerk, J * 1.02);
  // At the bump the quantity moves at its limit (sd = V / d1), slower than
  // the rest of the path; far from it and from the stops (s = 0.15 and
  // 0.8: the bump's flanks, where y'' is large, and the final stop need the
  // rest) the path cruises at V / L.
  const double at_bump = std::sqrt(solved.timing.SpeedSquaredAt(0.5));
  EXPECT_NEAR(at_bump, V / d1(0.5), 0.01 * V / d1(0.5));
  for (double s : {0.15, 0.8}) {
    EXPECT_NEAR(std::sqrt(solved.timing.SpeedSquaredAt(s)), V / L, 1e-3 * V / L) << "s " << s;
  }
}

// A stretch of the bumpy path solved on its own with its end speeds held at
// a cruise of 0.9 V / L (what a windowed timing cuts out of a programmed one):
// the ends keep that speed over their interval, the bump is still passed at
// its limit, and put back between two stretches of cruise the samples keep
// every limit across both junctions. A stretch too short to slow down in
// says so (ends_held false).
TEST(PathTimingTest, AStretchWithHeldEndSpeedsPutsBackIntoACruise) {
  const double L = 3.0, V = 1.0, A = 2.0, J = 10.0, dt = 0.004, cruise = 0.9 * V / L;
  auto d1 = [&](double s) { return L * (1 + 3 * std::exp(-std::pow((s - 0.5) / 0.05, 2))); };
  // Solved and refined until no interval lasts more than dt / 4, as the
  // planner does.
  auto stretch = [&](double from, double to, PathTimingSolution& solution) {
    std::vector<double> grid;
    for (int i = 0; i <= 400; ++i) grid.push_back(from + (to - from) * i / 400);
    for (int pass = 0;; ++pass) {
      PathTimingProblem p = OneQuantity(grid, d1, V, A, J);
      p.start_speed_squared = p.end_speed_squared = cruise * cruise;
      solution = SolvePathTiming(p);
      if (pass == 3 || !solution.ends_held) return grid;
      const std::vector<double> finer =
          RefinedGrid(PathTiming(solution.x, grid), 0.25 * dt, 200000);
      if (finer.size() == grid.size()) return grid;
      grid = finer;
    }
  };
  PathTimingSolution solution;
  const std::vector<double> grid = stretch(0.1, 0.9, solution);
  ASSERT_TRUE(solution.ends_held);
  const std::size_t n = grid.size();
  for (std::size_t i : {std::size_t{0}, std::size_t{1}, n - 2, n - 1}) {
    EXPECT_DOUBLE_EQ(solution.x[i], cruise * cruise) << "node " << i;
  }
  PathTiming timing(solution.x, grid);
  EXPECT_NEAR(std::sqrt(timing.SpeedSquaredAt(0.5)), V / d1(0.5), 0.01 * V / d1(0.5));
  // Cruise for 0.3 s, the stretch, cruise for 0.3 s; y = Bumpy(s) sampled.
  const double before = 0.3, after = 0.3;
  const double T = std::ceil((before + timing.duration() + after) / dt) * dt;
  std::vector<double> y;
  for (double t = 0; t <= T + 1e-9; t += dt) {
    double s;
    if (t < before) {
      s = 0.1 - cruise * (before - t);
    } else if (t < before + timing.duration()) {
      s = timing.At(t - before).s;
    } else {
      s = 0.9 + cruise * (t - before - timing.duration());
    }
    y.push_back(Bumpy(s));
  }
  // Interior differences only: the pieces cruise at both ends.
  const std::vector<double> inner(y.begin() + 3, y.end() - 3);
  Audit audit;
  for (std::size_t k = 3; k < inner.size(); ++k) {
    audit.velocity = std::max(audit.velocity, std::abs(inner[k] - inner[k - 1]) / dt);
    audit.acceleration = std::max(audit.acceleration,
                                  std::abs(inner[k] - 2 * inner[k - 1] + inner[k - 2]) / (dt * dt));
    audit.jerk = std::max(
        audit.jerk,
        std::abs(inner[k] - 3 * inner[k - 1] + 3 * inner[k - 2] - inner[k - 3]) / (dt * dt * dt));
  }
  EXPECT_LE(audit.velocity, V * (1 + 1e-6));
  EXPECT_LE(audit.acceleration, A * 1.005);
  EXPECT_LE(audit.jerk, J * 1.02);
  // Too short a stretch to slow down for the bump and speed up again (the
  // slowing alone takes ~0.12 of s here).
  PathTimingSolution short_one;
  stretch(0.47, 0.53, short_one);
  EXPECT_FALSE(short_one.ends_held);
}

// Dips of the speed limit, narrow and wide, deep and shallow, close
// together (a joint whipping past near-singularities): the fastest timing
// ramps steeply into and out of each and rounds every corner between. Every
// interval between the nodes it returns keeps the acceleration limit at both
// of its nodes (sdd = (x[i+1] - x[i]) / 2h, |y' sdd + y'' sd^2| <= A, from
// the constraint itself), and the samples keep every limit.
struct Dip {
  double at, width, depth;
};

double DipsD1(const std::vector<Dip>& dips, double s) {
  double f = 1;
  for (const Dip& d : dips) f += d.depth * std::exp(-std::pow((s - d.at) / d.width, 2));
  return 3.0 * f;
}

TEST(PathTimingTest, SpeedDipsCloseTogetherKeepTheAccelerationOnEveryInterval) {
  const double V = 1.0, A = 2.0, J = 10.0, dt = 0.004;
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> at(0.1, 0.9), width(0.003, 0.05), depth(0.5, 8);
  double worst_interval = 0, worst_a = 0, worst_j = 0;
  for (int trial = 0; trial < 12; ++trial) {
    std::vector<Dip> dips;
    for (int k = 0; k < 4; ++k) dips.push_back({at(rng), width(rng), depth(rng)});
    SCOPED_TRACE("trial " + std::to_string(trial));
    auto d1 = [&](double s) { return DipsD1(dips, s); };
    Solved solved = Solve(d1, V, A, J, dt);
    const std::vector<double>& s = solved.grid;
    double worst = 0;
    for (std::size_t i = 0; i + 1 < s.size(); ++i) {
      const double x0 = solved.timing.SpeedSquaredAt(s[i]);
      const double x1 = solved.timing.SpeedSquaredAt(s[i + 1]);
      const double sdd = (x1 - x0) / (2 * (s[i + 1] - s[i]));
      for (std::size_t k : {i, i + 1}) {
        const double h = 1e-6, d2 = (d1(s[k] + h) - d1(s[k] - h)) / (2 * h);
        worst = std::max(worst, std::abs(d1(s[k]) * sdd + d2 * (k == i ? x0 : x1)) / A);
      }
    }
    // The jerk moves of the sweeps may leave an interval a little over (the
    // planner gives the timing 97 % of each acceleration limit).
    EXPECT_LE(worst, 1.01) << "an interval beyond the acceleration limit";
    // y = integral of d1 ds (trapezoid rule on a fine grid), sampled.
    const int fine = 100000;
    std::vector<double> fine_y(1, 0.0);
    for (int i = 1; i <= fine; ++i) {
      fine_y.push_back(fine_y.back() + 0.5 * (d1((i - 1.0) / fine) + d1(1.0 * i / fine)) / fine);
    }
    auto y = [&](double sv) {
      const double u = std::clamp(sv, 0.0, 1.0) * fine;
      const int i = std::min(fine - 1, static_cast<int>(u));
      return fine_y[i] + (u - i) * (fine_y[i + 1] - fine_y[i]);
    };
    const Audit audit = AuditSamples(Sample(solved, dt, y), dt);
    EXPECT_LE(audit.velocity, V * (1 + 1e-3));
    EXPECT_LE(audit.acceleration, A * 1.01);
    EXPECT_LE(audit.jerk, J * 1.05);
    worst_interval = std::max(worst_interval, worst);
    worst_a = std::max(worst_a, audit.acceleration / A);
    worst_j = std::max(worst_j, audit.jerk / J);
  }
  std::printf(
      "[ figures  ] 12 paths: worst interval acceleration %.4f of the limit; sampled "
      "acceleration %.4f, jerk %.4f\n",
      worst_interval, worst_a, worst_j);
}

TEST(PathTimingTest, RefinedGridNeverPutsTwoNodesOnOneValue) {
  // Intervals that last far longer than asked (a timing that crawls), so
  // the end intervals are halved 60 times towards the rest: below the
  // spacing of doubles next to s = 1 those halvings round onto 1 itself,
  // which made zero-length intervals and an interior node at the very end.
  const std::vector<double> x = {0.0, 1e-6, 1e-6, 0.0};
  const std::vector<double> s = {0.0, 0.3, 0.7, 1.0};
  const std::vector<double> finer = RefinedGrid(PathTiming(x, s), 1e-9, 100000);
  ASSERT_GE(finer.size(), 4u);
  EXPECT_EQ(finer.front(), 0.0);
  EXPECT_EQ(finer.back(), 1.0);
  for (std::size_t i = 1; i < finer.size(); ++i) {
    EXPECT_GT(finer[i], finer[i - 1]) << "node " << i << " of " << finer.size();
  }
  for (double v : s) {
    EXPECT_TRUE(std::binary_search(finer.begin(), finer.end(), v)) << "node " << v << " kept";
  }
  // And none closer to a rest than 1e-9, where sd^2 is below what a double
  // resolves next to it (the sweeps read 0 there: a stop before the end).
  EXPECT_GE(finer[1] - finer[0], 1e-9);
  EXPECT_GE(finer[finer.size() - 1] - finer[finer.size() - 2], 1e-9);
}

TEST(PathTimingTest, RefinedGridKeepsEveryNodeAndSplitsTheLongIntervals) {
  // sd = 1 inside, at rest at both ends: the inner intervals last 0.25 s
  // each and are split into 25 equal ones; the end intervals (s ~ t^3 from
  // rest) get nodes that crowd towards the rest.
  const std::vector<double> x = {0.0, 1.0, 1.0, 1.0, 0.0};
  const std::vector<double> s = {0.0, 0.25, 0.5, 0.75, 1.0};
  const PathTiming timing(x, s);
  EXPECT_NEAR(timing.IntervalTime(1), 0.25, 1e-12);
  const std::vector<double> finer = RefinedGrid(timing, 0.01, 100000);
  for (double node : s) {
    EXPECT_NE(std::find(finer.begin(), finer.end(), node), finer.end()) << node;
  }
  EXPECT_TRUE(std::is_sorted(finer.begin(), finer.end()));
  EXPECT_EQ(std::count_if(finer.begin(), finer.end(), [](double v) { return v > 0.25 && v < 0.5; }),
            24);
  const double first_inner = *std::upper_bound(finer.begin(), finer.end(), 0.0);
  EXPECT_LT(first_inner, 1e-3);
  const double last_inner = *(std::lower_bound(finer.begin(), finer.end(), 1.0) - 1);
  EXPECT_GT(last_inner, 1 - 1e-3);
}

}  // namespace
}  // namespace motion
