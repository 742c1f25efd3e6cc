// The server's shared state hammered from many threads, for TSan (the
// sanitizer job runs this label in a TSan build; the normal build runs it
// too). These classes synchronise with their own locks and atomics only, so
// TSan sees everything they do; gRPC from Debian is not instrumented, which
// makes a TSan run over the RPC tests report its hand-offs as races.
// Each test also checks its own invariant: every task run once, a budget
// never over its capacity, one model per chain, ids stable under eviction.

#include <atomic>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "core/collision/collision_scene.h"
#include "server/runtime/byte_budget.h"
#include "server/runtime/collision_model_cache.h"
#include "server/runtime/robot_registry.h"
#include "server/runtime/scene_registry.h"
#include "server/runtime/solver_pool.h"

namespace {

using motion::server::Lane;

std::string ReadRobot(const std::string& name) {
  std::ifstream in(std::string(MOTIOND_ROBOTS_DIR) + "/" + name, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void InParallel(int threads, const std::function<void(int)>& body) {
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) pool.emplace_back(body, t);
  for (std::thread& t : pool) t.join();
}

TEST(SharedStateTest, EveryTaskOfBothLanesRunsExactlyOnce) {
  constexpr int kSubmitters = 4, kTasks = 2000;
  std::vector<std::atomic<int>> runs(kSubmitters * kTasks);
  std::atomic<int> refused{0};
  {
    motion::server::SolverPool pool(2, 1 << 20, 1);
    InParallel(kSubmitters, [&](int s) {
      for (int i = 0; i < kTasks; ++i) {
        const int slot = s * kTasks + i;
        const Lane lane = i % 3 == 0 ? Lane::kShort : Lane::kLong;
        if (!pool.TrySubmit([&runs, slot](motion::ChainDataCache&) { ++runs[slot]; }, lane)) {
          ++refused;
        }
      }
    });
    pool.Stop();  // runs what is queued, then joins
  }
  EXPECT_EQ(refused.load(), 0);
  for (std::size_t i = 0; i < runs.size(); ++i) ASSERT_EQ(runs[i].load(), 1) << i;
}

TEST(SharedStateTest, AByteBudgetIsNeverExceededAndEndsEmpty) {
  motion::server::ByteBudget budget(1000);
  std::atomic<bool> over{false};
  InParallel(8, [&](int t) {
    std::mt19937 rng(t);
    std::uniform_int_distribution<int> size(1, 300);
    for (int i = 0; i < 20000; ++i) {
      const std::size_t bytes = size(rng);
      if (!budget.TryReserve(bytes)) continue;
      if (budget.used() > budget.capacity()) over = true;
      budget.Release(bytes);
    }
  });
  EXPECT_FALSE(over.load());
  EXPECT_EQ(budget.used(), 0u);
}

TEST(SharedStateTest, TheRegistryServesConcurrentRegistersFindsAndEvictions) {
  motion::server::RegistryOptions options;
  options.max_robots = 2;  // three robots: eviction on almost every miss
  motion::server::RobotRegistry registry(options);
  const std::vector<std::string> urdfs = {ReadRobot("planar_2r.urdf"), ReadRobot("ur5.urdf"),
                                          ReadRobot("quirks.urdf")};
  std::vector<std::string> ids(urdfs.size());
  for (std::size_t i = 0; i < urdfs.size(); ++i) ids[i] = registry.Register(urdfs[i])->robot_id;
  std::atomic<int> failures{0};
  InParallel(4, [&](int t) {
    for (int i = 0; i < 150; ++i) {
      const std::size_t r = (t + i) % urdfs.size();
      auto registered = registry.Register(urdfs[r]);
      if (!registered.ok() || registered->robot_id != ids[r]) ++failures;
      auto found = registry.Find(ids[(r + 1) % ids.size()]);  // may be evicted meanwhile
      if (found.ok() && found->model == nullptr) ++failures;
      registry.List();
    }
  });
  EXPECT_EQ(failures.load(), 0);
  EXPECT_LE(registry.Stats().robots, 2u);
}

TEST(SharedStateTest, OneCollisionModelPerChainWhoeverAsksFirst) {
  motion::server::RobotRegistry registry(motion::server::RegistryOptions{});
  auto robot = registry.Register(ReadRobot("ur5.urdf"));
  ASSERT_TRUE(robot.ok());
  auto chain = robot->model->Chain();
  ASSERT_TRUE(chain.ok());
  motion::server::CollisionModelCache cache(4);
  // Every model any thread was given, from the very first call on.
  std::vector<std::set<const motion::RobotCollisionModel*>> seen(4);
  InParallel(4, [&](int t) {
    for (int i = 0; i < 20; ++i)
      seen[t].insert(cache.For(*robot->model, *robot->meshes, *chain).get());
  });
  // Concurrent first calls may each build one, but only the first stored is
  // ever handed out.
  const auto* kept = cache.For(*robot->model, *robot->meshes, *chain).get();
  for (int t = 0; t < 4; ++t) {
    EXPECT_EQ(seen[t], std::set<const motion::RobotCollisionModel*>{kept}) << "thread " << t;
  }
}

TEST(SharedStateTest, TheSceneRegistryKeepsTheFirstOfRacingInsertsAndEvicts) {
  motion::server::SceneRegistryOptions options;
  options.max_scenes = 3;
  motion::server::SceneRegistry scenes(options);
  std::atomic<int> mismatches{0}, stored_own{0};
  InParallel(6, [&](int t) {
    for (int i = 0; i < 300; ++i) {
      const std::string id = "scene" + std::to_string((t + i) % 5);
      // A scene object of this call's own: what is stored is either it (and
      // then it was not there already) or the one stored before.
      auto own = std::make_shared<const motion::CollisionScene>(*motion::CollisionScene::Empty());
      bool already = false;
      auto stored = scenes.Insert(id, own, 100, &already);
      if (already == (stored == own)) ++mismatches;
      stored_own += stored == own;
      auto found = scenes.Find(id);
      // Found is what was stored, unless another thread evicted it since.
      if (found != nullptr && found != stored && scenes.Stats().evictions == 0) ++mismatches;
    }
  });
  EXPECT_EQ(mismatches.load(), 0);
  EXPECT_GT(stored_own.load(), 5) << "every id was stored at least once";
  EXPECT_LE(scenes.Stats().scenes, 3u);
  const auto stats = scenes.Stats();
  EXPECT_EQ(static_cast<long>(stats.evictions + stats.scenes), stored_own.load())
      << "every scene stored is either still kept or was evicted once";
}

TEST(SharedStateTest, ChainsAreBuiltOnceAndSharedAcrossThreads) {
  auto model = motion::RobotModel::FromUrdf(ReadRobot("panda.urdf"));
  ASSERT_TRUE(model.ok());
  std::vector<const motion::ChainModel*> chains(4);
  InParallel(4, [&](int t) {
    for (int i = 0; i < 50; ++i) {
      auto chain = (*model)->Chain("panda_link0", i % 2 ? "panda_hand_tcp" : "panda_link8");
      if (chain.ok() && i % 2 == 0) chains[t] = chain->get();
    }
  });
  for (int t = 1; t < 4; ++t) EXPECT_EQ(chains[t], chains[0]);
}

}  // namespace
