// Overload of the real binary: one solver worker, a queue of 4, and waves of
// unary IK requests that each keep the worker busy for milliseconds (a
// target inside the arm's reach sphere that no configuration reaches, with a
// large iteration budget and a 20 ms CPU budget). The excess must be refused
// at once with RESOURCE_EXHAUSTED — no deadline expiring, no other code —
// the process's RSS must stay bounded while the flood lasts, and the server
// must answer normally right after.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "motiond_process.h"
#include "service_test_support.h"

namespace motiond_test {
namespace {

using motiond_fleet::MotiondProcess;
using Clock = std::chrono::steady_clock;

constexpr int kWaves = 3;
constexpr int kCallsPerWave = 1000;

// UR5 (base_link -> tool0): 0.91 m from the shoulder, inside the reach
// bound the solver checks first (so it is not refused at once as "far
// beyond reach"), tool z pointing down: no configuration does it (the best
// residual is ~0.14 m; with the tool pointing up the same point is
// reachable), so every call spends its whole budget.
v1::Pose UnreachableTarget() { return WirePose(0.0, 0.3, 0.95, 0.0, 1.0, 0.0, 0.0); }

v1::ComputeIkRequest SlowIkRequest(const std::string& robot_id) {
  v1::ComputeIkRequest request;
  request.mutable_robot()->set_robot_id(robot_id);
  *request.mutable_target() = UnreachableTarget();
  request.mutable_options()->set_max_iterations(100000000);
  request.mutable_options()->set_timeout(0.02);  // s of solver CPU time
  return request;
}

// UR5 README reference pose (q_i = 0.1 (i + 1)): reachable.
v1::ComputeIkRequest GoodIkRequest(const std::string& robot_id) {
  v1::ComputeIkRequest request;
  request.mutable_robot()->set_robot_id(robot_id);
  CoreRobot ur5(ReadRobot("ur5.urdf"));
  *request.mutable_target() = WirePose(ur5.Fk({0.1, 0.2, 0.3, 0.4, 0.5, 0.6}));
  return request;
}

struct Wave {
  std::map<grpc::StatusCode, int> codes;
  int ok_and_solved = 0;  // OK answers with IkResult.ok (must be none)
  double slowest_refusal_ms = 0;
  double seconds = 0;
};

// Fires `count` ComputeIk calls at once (callback API) and waits for all.
Wave Flood(v1::Kinematics::Stub& stub, const v1::ComputeIkRequest& request, int count) {
  struct Call {
    grpc::ClientContext context;
    v1::IkResult response;
    grpc::Status status;
    Clock::time_point started, finished;
  };
  std::vector<std::unique_ptr<Call>> calls(count);
  std::mutex mutex;
  std::condition_variable done;
  int finished = 0;
  const auto start = Clock::now();
  for (auto& call : calls) {
    call = std::make_unique<Call>();
    Call* c = call.get();
    c->context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
    c->started = Clock::now();
    stub.async()->ComputeIk(&c->context, &request, &c->response, [&, c](grpc::Status status) {
      std::lock_guard<std::mutex> lock(mutex);
      c->status = std::move(status);
      c->finished = Clock::now();
      ++finished;
      done.notify_all();
    });
  }
  {
    std::unique_lock<std::mutex> lock(mutex);
    done.wait(lock, [&] { return finished == count; });  // each call has a deadline
  }
  Wave wave;
  wave.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  for (const auto& call : calls) {
    ++wave.codes[call->status.error_code()];
    if (call->status.ok() && call->response.ok()) ++wave.ok_and_solved;
    if (call->status.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED) {
      wave.slowest_refusal_ms = std::max(
          wave.slowest_refusal_ms,
          std::chrono::duration<double, std::milli>(call->finished - call->started).count());
    }
  }
  return wave;
}

TEST(OverloadFloodTest, ExcessIkIsRefusedWithResourceExhaustedAndRssStaysBounded) {
  auto server =
      MotiondProcess::Start("overload", {"--workers=1", "--max_queue=4", "--metrics_listen="});
  auto channel = grpc::CreateChannel(server->address(), grpc::InsecureChannelCredentials());
  auto stubs = std::make_unique<Stubs>(channel);
  v1::RegisterRobotResponse registered;
  ASSERT_TRUE(stubs->RegisterRobot(ReadRobot("ur5.urdf"), &registered).ok());
  const std::string id = registered.robot_id();
  const v1::ComputeIkRequest slow = SlowIkRequest(id);

  // The premise: one slow request occupies the worker for milliseconds and
  // fails as unreachable (not refused up front by the reach check).
  v1::IkResult result;
  auto t0 = Clock::now();
  grpc::Status status = stubs->ComputeIk(slow, &result);
  const double slow_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  ASSERT_TRUE(status.ok()) << Describe(status);
  ASSERT_FALSE(result.ok()) << result.ShortDebugString();
  ASSERT_GT(result.iterations(), 100) << "refused before iterating: " << result.ShortDebugString();
  EXPECT_GT(slow_ms, 5.0) << "the slow request is not slow";
  std::printf("one slow IK: %.1f ms, %d iterations, outcome %s\n", slow_ms, result.iterations(),
              result.outcome().c_str());
  ASSERT_TRUE(stubs->ComputeIk(GoodIkRequest(id), &result).ok());
  ASSERT_TRUE(result.ok());

  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const long idle_kb = server->RssKb();
  ASSERT_GT(idle_kb, 0);

  // RSS sampled every 2 ms while the waves run.
  std::atomic<bool> sampling{true};
  std::atomic<long> peak_kb{idle_kb};
  std::thread sampler([&] {
    while (sampling) {
      const long kb = server->RssKb();
      if (kb > peak_kb) peak_kb = kb;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  });
  int ok = 0, refused = 0, other = 0, solved = 0;
  double slowest_refusal_ms = 0, flood_seconds = 0;
  std::vector<long> peak_after_wave;  // must not keep growing wave after wave
  for (int w = 0; w < kWaves; ++w) {
    const Wave wave = Flood(stubs->kinematics(), slow, kCallsPerWave);
    peak_after_wave.push_back(peak_kb);
    flood_seconds += wave.seconds;
    solved += wave.ok_and_solved;
    slowest_refusal_ms = std::max(slowest_refusal_ms, wave.slowest_refusal_ms);
    for (const auto& [code, n] : wave.codes) {
      if (code == grpc::StatusCode::OK) {
        ok += n;
      } else if (code == grpc::StatusCode::RESOURCE_EXHAUSTED) {
        refused += n;
      } else {
        other += n;
        ADD_FAILURE() << "wave " << w << ": " << n << " call(s) ended with code "
                      << static_cast<int>(code);
      }
    }
  }
  sampling = false;
  sampler.join();
  const long after_kb = server->RssKb();
  const long bound_kb = 2 * idle_kb + 50 * 1024;
  std::printf(
      "flood: %d x %d IK calls in %.2f s: %d answered (all unreachable: %s), %d refused with "
      "RESOURCE_EXHAUSTED (slowest refusal %.1f ms), %d other\n"
      "RSS: idle %ld kB, peak %ld kB (after waves 1..3: %ld, %ld, %ld kB), after %ld kB "
      "(bound 2 x idle + 50 MB = %ld kB)\n",
      kWaves, kCallsPerWave, flood_seconds, ok, solved == 0 ? "yes" : "no", refused,
      slowest_refusal_ms, other, idle_kb, peak_kb.load(), peak_after_wave[0], peak_after_wave[1],
      peak_after_wave[2], after_kb, bound_kb);
  RecordProperty("answered", ok);
  RecordProperty("refused", refused);
  RecordProperty("rss_idle_kb", static_cast<int>(idle_kb));
  RecordProperty("rss_peak_kb", static_cast<int>(peak_kb.load()));
  EXPECT_EQ(ok + refused, kWaves * kCallsPerWave);
  EXPECT_GT(refused, kWaves * kCallsPerWave / 2) << "a queue of 4 took most of the flood";
  EXPECT_GE(ok, kWaves);
  EXPECT_EQ(solved, 0);
  EXPECT_LT(peak_kb.load(), bound_kb);
  // Bounded by the flood's size, not by how long it lasts: the third wave
  // adds at most a little over the first.
  EXPECT_LT(peak_after_wave[2] - peak_after_wave[0], 16 * 1024);

  // Right after: a normal request and a slow one are both served.
  status = stubs->ComputeIk(GoodIkRequest(id), &result);
  ASSERT_TRUE(status.ok()) << Describe(status);
  EXPECT_TRUE(result.ok()) << result.ShortDebugString();
  EXPECT_LE(result.position_error(), 1e-5);
  status = stubs->ComputeIk(slow, &result);
  EXPECT_TRUE(status.ok()) << Describe(status);

  stubs.reset();
  channel.reset();  // an open connection holds motiond's drain to its 5 s grace
  EXPECT_EQ(server->Terminate(), 0) << server->Log();
}

}  // namespace
}  // namespace motiond_test
