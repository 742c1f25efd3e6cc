// Collision checking cost, the own narrowphase (kFast) beside FCL 0.7 from
// Debian (kFcl) on the same configurations and scene: CheckCollision per
// joint vector, FK included, on a 6-DOF (UR5) and a 7-DOF (Panda) arm whose
// links are capsules (their meshes are not sent), self-collision on, in a
// scene of 20 boxes around the arm; verdict only (every contact) and with
// the minimum distance. And a 2 700-sample path planned with and without
// checking every sample and the motion between samples against that scene,
// and that path's check alone by either engine.
#include <benchmark/benchmark.h>

#include <random>

#include "bench/ur5_bench_programs.h"
#include "core/collision/collision_checker.h"
#include "core/collision/trajectory_collisions.h"
#include "core/ik/ik_data.h"
#include "core/model/robot_model.h"
#include "core/motion/path_planner.h"

namespace {

using bench_programs::ReadRobot;

// 20 boxes 10-30 cm on a shell 0.6-1.0 m from the base: some configurations
// reach them, most do not.
std::shared_ptr<const motion::CollisionScene> TwentyBoxes() {
  std::mt19937_64 rng(20);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<motion::CollisionObject> boxes;
  for (int i = 0; i < 20; ++i) {
    const double angle = 2 * M_PI * unit(rng), r = 0.6 + 0.4 * unit(rng);
    motion::CollisionObject o;
    o.id = "box" + std::to_string(i);
    o.pose.position = Eigen::Vector3d(r * std::cos(angle), r * std::sin(angle), unit(rng));
    o.shape = motion::CollisionShape::Box(
        Eigen::Vector3d(0.1 + 0.2 * unit(rng), 0.1 + 0.2 * unit(rng), 0.1 + 0.2 * unit(rng)));
    boxes.push_back(o);
  }
  return *motion::CollisionScene::Build(boxes);
}

void CheckConfigurations(benchmark::State& state, const std::string& file, bool distance,
                         motion::CollisionEngine engine) {
  auto model = *motion::RobotModel::FromUrdf(ReadRobot(file));
  auto chain = *model->Chain();
  auto robot = motion::RobotCollisionModel::Build(*chain, model->link_collisions());
  auto scene = TwentyBoxes();
  motion::ChainData data(*chain);
  std::mt19937_64 rng(5);
  std::vector<Eigen::VectorXd> configurations;
  for (int i = 0; i < 1024; ++i) {
    Eigen::VectorXd q(chain->dof());
    for (int j = 0; j < chain->dof(); ++j) {
      const motion::JointLimits& l = chain->dof_limits[j];
      q[j] = std::uniform_real_distribution<double>(std::max(l.lower, -M_PI),
                                                    std::min(l.upper, M_PI))(rng);
    }
    configurations.push_back(q);
  }
  motion::CollisionQuery query;
  query.compute_distance = distance;
  query.engine = engine;
  std::size_t i = 0;
  long hits = 0;
  for (auto _ : state) {
    const motion::CollisionVerdict v =
        motion::CheckCollision(*chain, data, *robot, *scene, configurations[i++ % 1024], query);
    hits += v.in_collision;
    benchmark::DoNotOptimize(v.min_distance);
  }
  state.counters["in_collision_share"] =
      static_cast<double>(hits) / static_cast<double>(state.iterations());
}

// The 2 468-sample MoveL of planning_bench (0.3 m at 0.0305 m/s), planned
// with and without the scene.
void PlanLongLine(benchmark::State& state, bool with_scene) {
  auto model = *motion::RobotModel::FromUrdf(ReadRobot("ur5.urdf"));
  auto chain = *model->Chain();
  motion::PathRequest r = bench_programs::LongMoveL();
  if (with_scene) {
    r.collision_model = motion::RobotCollisionModel::Build(*chain, model->link_collisions());
    r.scene = TwentyBoxes();
  }
  motion::IkData data(*chain);
  bool free = false;
  std::size_t points = 0;
  for (auto _ : state) {
    auto result = motion::PlanPath(*chain, data, r, motion::PathLimits());
    free = result.ok() && result->collision_free;
    points = result.ok() ? result->trajectory.size() : 0;
  }
  state.counters["points"] = static_cast<double>(points);
  state.counters["collision_free"] = free;
}

// The check of that path alone (PlanPath's options: self-collision on).
void CheckLongLine(benchmark::State& state, motion::CollisionEngine engine) {
  auto model = *motion::RobotModel::FromUrdf(ReadRobot("ur5.urdf"));
  auto chain = *model->Chain();
  auto robot = motion::RobotCollisionModel::Build(*chain, model->link_collisions());
  auto scene = TwentyBoxes();
  motion::IkData ik(*chain);
  const motion::Trajectory path =
      motion::PlanPath(*chain, ik, bench_programs::LongMoveL(), motion::PathLimits())->trajectory;
  motion::ChainData data(*chain);
  motion::TrajectoryCollisionOptions options;
  options.engine = engine;
  std::size_t contacts = 0;
  for (auto _ : state) {
    contacts = motion::FindTrajectoryCollisions(*chain, data, *robot, *scene, path.time,
                                                path.positions, options)
                   .size();
  }
  state.counters["contacts"] = static_cast<double>(contacts);
}

constexpr motion::CollisionEngine kFast = motion::CollisionEngine::kFast;
constexpr motion::CollisionEngine kFcl = motion::CollisionEngine::kFcl;

BENCHMARK_CAPTURE(CheckConfigurations, ur5_verdict_fcl, "ur5.urdf", false, kFcl);
BENCHMARK_CAPTURE(CheckConfigurations, ur5_verdict_fast, "ur5.urdf", false, kFast);
BENCHMARK_CAPTURE(CheckConfigurations, ur5_distance_fcl, "ur5.urdf", true, kFcl);
BENCHMARK_CAPTURE(CheckConfigurations, ur5_distance_fast, "ur5.urdf", true, kFast);
BENCHMARK_CAPTURE(CheckConfigurations, panda_verdict_fcl, "panda.urdf", false, kFcl);
BENCHMARK_CAPTURE(CheckConfigurations, panda_verdict_fast, "panda.urdf", false, kFast);
BENCHMARK_CAPTURE(CheckConfigurations, panda_distance_fcl, "panda.urdf", true, kFcl);
BENCHMARK_CAPTURE(CheckConfigurations, panda_distance_fast, "panda.urdf", true, kFast);
BENCHMARK_CAPTURE(PlanLongLine, without_collision_checking, false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(PlanLongLine, with_20_box_scene, true)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(CheckLongLine, fcl, kFcl)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(CheckLongLine, fast, kFast)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
