// What timing one MoveJ costs: the straight line's double-S (the tightest
// joint's bounds, then one closed-form profile) for 6 and 7 joints, the
// time-synchronised alternative (each joint its own double-S stretched to
// the slowest joint's duration), and today's trapezoid as the baseline in
// the same run. Random rest-to-rest moves and limits; reports only.

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include <benchmark/benchmark.h>

#include "core/profile/double_s_profile.h"
#include "core/profile/trapezoid_profile.h"

namespace {

struct Move {
  std::vector<double> dq, v, a, j;
};

std::vector<Move> RandomMoves(int dof) {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<Move> moves(1024);
  for (Move& m : moves) {
    for (int i = 0; i < dof; ++i) {
      m.dq.push_back((unit(rng) - 0.5) * 4.0);
      m.v.push_back(1.0 + 2.0 * unit(rng));
      m.a.push_back(m.v.back() * (1.0 + 4.0 * unit(rng)));
      m.j.push_back(m.a.back() * (5.0 + 20.0 * unit(rng)));
    }
  }
  return moves;
}

void BM_StraightDoubleS(benchmark::State& state) {
  const std::vector<Move> moves = RandomMoves(static_cast<int>(state.range(0)));
  std::size_t i = 0;
  for (auto _ : state) {
    const Move& m = moves[i++ % moves.size()];
    double V = std::numeric_limits<double>::infinity(), A = V, J = V;
    for (std::size_t k = 0; k < m.dq.size(); ++k) {
      const double d = std::abs(m.dq[k]);
      V = std::min(V, m.v[k] / d);
      A = std::min(A, m.a[k] / d);
      J = std::min(J, m.j[k] / d);
    }
    benchmark::DoNotOptimize(motion::DoubleSProfile::Plan(1.0, V, A, J));
  }
}

void BM_StraightTrapezoid(benchmark::State& state) {
  const std::vector<Move> moves = RandomMoves(static_cast<int>(state.range(0)));
  std::size_t i = 0;
  for (auto _ : state) {
    const Move& m = moves[i++ % moves.size()];
    double V = std::numeric_limits<double>::infinity(), A = V;
    for (std::size_t k = 0; k < m.dq.size(); ++k) {
      const double d = std::abs(m.dq[k]);
      V = std::min(V, m.v[k] / d);
      A = std::min(A, m.a[k] / d);
    }
    benchmark::DoNotOptimize(motion::TrapezoidProfile::Plan(1.0, V, A));
  }
}

// Every joint its own fastest double-S, then all stretched to the slowest.
void BM_TimeSynchronisedDoubleS(benchmark::State& state) {
  const std::vector<Move> moves = RandomMoves(static_cast<int>(state.range(0)));
  std::size_t i = 0;
  for (auto _ : state) {
    const Move& m = moves[i++ % moves.size()];
    double slowest = 0.0;
    for (std::size_t k = 0; k < m.dq.size(); ++k) {
      auto p = motion::DoubleSProfile::Plan(std::abs(m.dq[k]), m.v[k], m.a[k], m.j[k]);
      slowest = std::max(slowest, p->duration());
    }
    for (std::size_t k = 0; k < m.dq.size(); ++k) {
      benchmark::DoNotOptimize(motion::DoubleSProfile::PlanWithDuration(std::abs(m.dq[k]), slowest,
                                                                        m.v[k], m.a[k], m.j[k]));
    }
  }
}

BENCHMARK(BM_StraightTrapezoid)->Arg(6)->Arg(7);
BENCHMARK(BM_StraightDoubleS)->Arg(6)->Arg(7);
BENCHMARK(BM_TimeSynchronisedDoubleS)->Arg(6)->Arg(7);

}  // namespace

BENCHMARK_MAIN();
