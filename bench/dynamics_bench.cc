// Inverse dynamics benchmarks: motiond's recursive Newton-Euler (core/dynamics) against KDL's
// ChainIdSolver_RNE on the same chain (ChainModel::kdl_chain, which carries the URDF inertials),
// and the three-call path torque coefficients, over a fixed pool of random states. Before
// timing, every state is checked: the two must agree to 1e-9 relative, or the program stops.

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <kdl/chainidsolver_recursive_newton_euler.hpp>

#include "core/dynamics/inverse_dynamics.h"
#include "core/dynamics/path_dynamics.h"
#include "core/model/robot_model.h"

namespace {

constexpr std::size_t kPoolSize = 256;  // a power of two: cycled with a mask

struct State {
  Eigen::VectorXd q, qd, qdd;
  KDL::JntArray kq, kqd, kqdd;
};

struct RobotBench {
  std::shared_ptr<const motion::RobotModel> robot;
  std::shared_ptr<const motion::ChainModel> chain;
  std::vector<State> pool;
};

RobotBench Load(const std::string& name) {
  std::ifstream in(std::string(MOTIOND_ROBOTS_DIR) + "/" + name + ".urdf");
  std::stringstream text;
  text << in.rdbuf();
  RobotBench b;
  auto robot = motion::RobotModel::FromUrdf(text.str());
  if (!robot.ok()) std::abort();
  b.robot = *robot;
  b.chain = *b.robot->Chain();
  const int n = b.chain->dof();
  std::mt19937_64 rng(26);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (std::size_t i = 0; i < kPoolSize; ++i) {
    State s{Eigen::VectorXd(n), Eigen::VectorXd(n), Eigen::VectorXd(n),
            KDL::JntArray(n),   KDL::JntArray(n),   KDL::JntArray(n)};
    for (int j = 0; j < n; ++j) {
      s.kq(j) = s.q[j] = 2.0 * u(rng);
      s.kqd(j) = s.qd[j] = 2.0 * u(rng);
      s.kqdd(j) = s.qdd[j] = 5.0 * u(rng);
    }
    b.pool.push_back(std::move(s));
  }
  // Agreement first (no mimic joints on these chains, so KDL's joints are the DOF).
  motion::DynamicsData data(*b.chain);
  KDL::ChainIdSolver_RNE kdl(b.chain->kdl_chain, KDL::Vector(0, 0, -9.81));
  KDL::Wrenches external(b.chain->kdl_chain.getNrOfSegments(), KDL::Wrench::Zero());
  KDL::JntArray ktau(n);
  Eigen::VectorXd tau;
  for (const State& s : b.pool) {
    motion::InverseDynamics(*b.chain, data, s.q, s.qd, s.qdd, motion::kDefaultGravity, {}, tau);
    kdl.CartToJnt(s.kq, s.kqd, s.kqdd, external, ktau);
    double scale = 1.0, diff = 0.0;
    for (int j = 0; j < n; ++j) {
      scale = std::max(scale, std::abs(ktau(j)));
      diff = std::max(diff, std::abs(ktau(j) - tau[j]));
    }
    if (diff > 1e-9 * scale) {
      std::fprintf(stderr, "%s: motiond and KDL disagree by %g\n", name.c_str(), diff);
      std::exit(1);
    }
  }
  return b;
}

const RobotBench& Robot(const std::string& name) {
  static std::vector<std::pair<std::string, RobotBench>> cache;
  for (const auto& [n, b] : cache) {
    if (n == name) return b;
  }
  cache.emplace_back(name, Load(name));
  return cache.back().second;
}

void BM_InverseDynamics(benchmark::State& st, const char* name) {
  const RobotBench& b = Robot(name);
  motion::DynamicsData data(*b.chain);
  Eigen::VectorXd tau(b.chain->dof());
  std::size_t i = 0;
  for (auto _ : st) {
    const State& s = b.pool[i++ & (kPoolSize - 1)];
    motion::InverseDynamics(*b.chain, data, s.q, s.qd, s.qdd, motion::kDefaultGravity, {}, tau);
    benchmark::DoNotOptimize(tau.data());
  }
}

void BM_KdlRne(benchmark::State& st, const char* name) {
  const RobotBench& b = Robot(name);
  KDL::ChainIdSolver_RNE kdl(b.chain->kdl_chain, KDL::Vector(0, 0, -9.81));
  KDL::Wrenches external(b.chain->kdl_chain.getNrOfSegments(), KDL::Wrench::Zero());
  KDL::JntArray tau(b.chain->dof());
  std::size_t i = 0;
  for (auto _ : st) {
    const State& s = b.pool[i++ & (kPoolSize - 1)];
    kdl.CartToJnt(s.kq, s.kqd, s.kqdd, external, tau);
    benchmark::DoNotOptimize(tau.data.data());
  }
}

void BM_PathTorqueCoefficients(benchmark::State& st, const char* name) {
  const RobotBench& b = Robot(name);
  motion::DynamicsData data(*b.chain);
  const int n = b.chain->dof();
  Eigen::VectorXd a(n), bb(n), c(n);
  std::size_t i = 0;
  for (auto _ : st) {
    const State& s = b.pool[i++ & (kPoolSize - 1)];
    motion::PathTorqueCoefficients(*b.chain, data, s.q, s.qd, s.qdd, motion::kDefaultGravity, {}, a,
                                   bb, c);
    benchmark::DoNotOptimize(c.data());
  }
}

}  // namespace

BENCHMARK_CAPTURE(BM_InverseDynamics, ur5, "ur5");
BENCHMARK_CAPTURE(BM_KdlRne, ur5, "ur5");
BENCHMARK_CAPTURE(BM_InverseDynamics, panda, "panda");
BENCHMARK_CAPTURE(BM_KdlRne, panda, "panda");
BENCHMARK_CAPTURE(BM_InverseDynamics, iiwa14, "iiwa14");
BENCHMARK_CAPTURE(BM_KdlRne, iiwa14, "iiwa14");
BENCHMARK_CAPTURE(BM_PathTorqueCoefficients, ur5, "ur5");
BENCHMARK_CAPTURE(BM_PathTorqueCoefficients, iiwa14, "iiwa14");

BENCHMARK_MAIN();
