// Closed-form IK benchmarks (Google Benchmark): all solutions of a
// spherical-wrist arm (ABB IRB 120, FANUC M-10iA) and of a UR arm (UR5),
// beside today's numeric solver on the same targets in the same run.
//
//   ClosedFormBranches/<robot>  the closed form alone: every branch (up to 8),
//                               unchecked (what IK-Geo / EAIK time)
//   SolveIkAll/<robot>          SolveIk mode ALL (default max_solutions 8):
//                               branches FK-checked, flags, turns nearest the
//                               seed, sigma_min of the answer
//   SolveIkFirst/<robot>        SolveIk mode FIRST (the default request)
//   SolveIkNumeric/<robot>      SolveIk with closed_form = false: the
//                               Levenberg-Marquardt search, mid-range seed
//
// Targets: FK of a fixed pool of random joint vectors within limits. Before
// timing, every SolveIkAll answer of the pool is checked (ok, each solution
// within 1e-5 m / 1e-5 rad by core's FK) or the program stops.

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "core/cache/chain_data_cache.h"
#include "core/ik/arm_geometry.h"
#include "core/ik/ik_solver.h"
#include "core/ik/internal/closed_form_ik.h"
#include "core/ik/internal/pose_error.h"
#include "core/ik/joint_space.h"
#include "core/kinematics/forward_kinematics.h"
#include "core/model/robot_model.h"

namespace {

constexpr std::size_t kPoolSize = 1024;  // a power of two: cycle with a mask

struct ArmBench {
  std::shared_ptr<const motion::ChainModel> chain;
  std::unique_ptr<motion::ChainDataCache> cache;
  motion::IkData* data = nullptr;
  std::vector<motion::Pose> targets;
  std::vector<Eigen::Isometry3d> tips;
};

[[noreturn]] void Die(const std::string& message) {
  std::fprintf(stderr, "closed_form_ik_bench: %s\n", message.c_str());
  std::exit(1);
}

ArmBench& Arm(const std::string& name) {
  static std::vector<std::pair<std::string, std::unique_ptr<ArmBench>>> arms;
  for (auto& [n, a] : arms) {
    if (n == name) return *a;
  }
  std::ifstream in(std::string(MOTIOND_ROBOTS_DIR) + "/" + name + ".urdf");
  std::stringstream text;
  text << in.rdbuf();
  auto model = motion::RobotModel::FromUrdf(text.str());
  if (!model.ok()) Die(name + ": " + std::string(model.status().message()));
  auto chain = (*model)->Chain("", "");
  if (!chain.ok()) Die(name + ": " + std::string(chain.status().message()));
  auto arm = std::make_unique<ArmBench>();
  arm->chain = *chain;
  arm->cache = std::make_unique<motion::ChainDataCache>();
  arm->data = &arm->cache->For(arm->chain);
  if (!arm->data->Geometry(*arm->chain).has_closed_form()) Die(name + ": no closed form");
  motion::SplitMix64 rng(0x6d6f74696f6e64);
  Eigen::VectorXd q(arm->chain->dof());
  motion::IkOptions all;
  all.mode = motion::IkMode::kAll;
  for (std::size_t i = 0; i < kPoolSize; ++i) {
    motion::RandomConfiguration(*arm->chain, motion::MidRangeConfiguration(*arm->chain), rng, q);
    const Eigen::Isometry3d tip = motion::ForwardKinematics(*arm->chain, arm->data->kinematics, q);
    arm->tips.push_back(tip);
    arm->targets.push_back(motion::Pose::FromIsometry(tip));
    auto r = motion::SolveIk(*arm->chain, *arm->data, arm->targets.back(), motion::Pose::Identity(),
                             {}, all);
    if (!r.ok() || !r->ok) Die(name + ": target " + std::to_string(i) + " not solved");
    for (const Eigen::VectorXd& s : r->solutions) {
      const motion::PoseError e = motion::ComputePoseError(
          motion::ForwardKinematics(*arm->chain, arm->data->kinematics, s), tip);
      if (e.position > 1e-5 || e.rotation > 1e-5) Die(name + ": a solution misses its target");
    }
  }
  arms.emplace_back(name, std::move(arm));
  return *arms.back().second;
}

void ClosedFormBranches(benchmark::State& state, const std::string& name) {
  ArmBench& arm = Arm(name);
  const motion::ArmGeometry& g = arm.data->Geometry(*arm.chain);
  const Eigen::VectorXd seed = motion::MidRangeConfiguration(*arm.chain);
  motion::Vector6d out[motion::kMaxClosedFormBranches];
  bool free_angle = false;
  std::size_t i = 0, branches = 0;
  for (auto _ : state) {
    const Eigen::Isometry3d& tip = arm.tips[i++ & (kPoolSize - 1)];
    const int n = g.family == motion::ArmFamily::kUr
                      ? motion::SolveUrFamily(g, tip, seed, out, &free_angle)
                      : motion::SolveSphericalWrist(g, tip, seed, out, &free_angle);
    branches += static_cast<std::size_t>(n);
    benchmark::DoNotOptimize(out);
  }
  state.counters["branches"] =
      benchmark::Counter(static_cast<double>(branches), benchmark::Counter::kAvgIterations);
}

void Solve(benchmark::State& state, const std::string& name, const motion::IkOptions& options) {
  ArmBench& arm = Arm(name);
  std::size_t i = 0, solutions = 0, ok = 0;
  for (auto _ : state) {
    auto r = motion::SolveIk(*arm.chain, *arm.data, arm.targets[i++ & (kPoolSize - 1)],
                             motion::Pose::Identity(), {}, options);
    ok += r->ok;
    solutions += r->solutions.size();
    benchmark::DoNotOptimize(r);
  }
  state.counters["ok"] =
      benchmark::Counter(static_cast<double>(ok), benchmark::Counter::kAvgIterations);
  state.counters["solutions"] =
      benchmark::Counter(static_cast<double>(solutions), benchmark::Counter::kAvgIterations);
}

void RegisterAll() {
  for (const std::string name : {"abb_irb120", "fanuc_m10ia", "ur5"}) {
    motion::IkOptions all, first, numeric;
    all.mode = motion::IkMode::kAll;
    numeric.closed_form = false;
    benchmark::RegisterBenchmark(("ClosedFormBranches/" + name).c_str(), ClosedFormBranches, name);
    benchmark::RegisterBenchmark(("SolveIkAll/" + name).c_str(), Solve, name, all);
    benchmark::RegisterBenchmark(("SolveIkFirst/" + name).c_str(), Solve, name, first);
    benchmark::RegisterBenchmark(("SolveIkNumeric/" + name).c_str(), Solve, name, numeric);
  }
}

}  // namespace

int main(int argc, char** argv) {
  RegisterAll();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
