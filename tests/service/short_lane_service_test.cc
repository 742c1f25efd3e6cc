// Short calls are never starved by long work: with every general solver
// worker busy validating ~100 000-sample paths, ComputeFk and ComputeIk are
// answered at once. An FK of a registered robot runs on the gRPC thread it
// arrived on; an FK that brings its URDF, and every IK, runs on the thread
// reserved for short calls. Before lanes, each queued behind every
// validation already waiting (hundreds of milliseconds each). The bound
// asserted here is a starvation detector: 50 ms, or half of what one
// validation takes on a machine loaded enough to make that longer;
// bench/ measures the figure itself.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "service_test_support.h"

namespace motiond_test {
namespace {

using Clock = std::chrono::steady_clock;

TEST(ShortLaneTest, ShortCallsAreAnsweredWhileEveryWorkerPlansLongPaths) {
  auto options = TestServer::DefaultOptions();
  options.workers = 2;
  options.short_workers = 1;
  TestServer server(options);
  auto robot = server.server().registry().Register(ReadRobot("ur5.urdf"));
  ASSERT_TRUE(robot.ok());
  const std::string id = robot->robot_id;

  // Two streams keep eight long validations queued or running until told
  // to stop.
  std::atomic<bool> stop{false};
  std::atomic<long> longest{0};
  std::atomic<int> planned{0};
  // Time between two answers of one stream: about what one validation
  // takes a worker, as slow as the machine is.
  std::mutex interval_mutex;
  std::vector<double> long_ms;
  std::vector<std::thread> load;
  for (int s = 0; s < 2; ++s) {
    load.emplace_back([&, s] {
      Stubs stubs(server.NewChannel(), std::chrono::seconds(120));
      grpc::ClientContext context;
      auto stream = stubs.planner().ValidatePath(&context);
      int sent = 0, answered = 0;
      auto send = [&] {
        v1::ValidatePathRequest request;
        request.set_request_id(std::to_string(s) + "/" + std::to_string(sent++));
        *request.mutable_path() = SlowUr5MoveJ(id, 0.0003);
        return stream->Write(request);
      };
      for (int i = 0; i < 4; ++i) send();
      v1::ValidatePathResponse response;
      auto last = Clock::now();
      while (stream->Read(&response)) {
        const auto now = Clock::now();
        {
          std::lock_guard<std::mutex> lock(interval_mutex);
          long_ms.push_back(std::chrono::duration<double, std::milli>(now - last).count());
        }
        last = now;
        ++answered;
        ++planned;
        long points = 0;
        for (const v1::SegmentReport& r : response.segment_reports()) points += r.point_count();
        longest = std::max(longest.load(), points);
        if (stop || !send()) break;
      }
      stream->WritesDone();
      while (answered < sent && stream->Read(&response)) ++answered;
      stream->Finish();
    });
  }
  // Both general workers busy before measuring.
  const auto deadline = Clock::now() + std::chrono::seconds(30);
  while (server.server().pool().busy_workers() < 2 && Clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ASSERT_EQ(server.server().pool().busy_workers(), 2);

  Stubs stubs(server.NewChannel());
  v1::ComputeFkRequest fk_by_id;
  fk_by_id.mutable_robot()->set_robot_id(id);
  for (int i = 0; i < 6; ++i) fk_by_id.add_joints(0.1 * (i + 1));
  v1::ComputeFkRequest fk_with_urdf = fk_by_id;
  fk_with_urdf.mutable_robot()->set_urdf(ReadRobot("ur5.urdf"));
  v1::ComputeIkRequest ik;
  ik.mutable_robot()->set_robot_id(id);
  {
    v1::ComputeFkResponse response;
    ASSERT_TRUE(stubs.ComputeFk(fk_by_id, &response).ok());
    *ik.mutable_target() = response.tcp();
  }

  // Milliseconds per call, by kind.
  std::vector<double> fk_by_id_ms, fk_with_urdf_ms, ik_ms;
  auto time_ms = [](Clock::time_point started) {
    return std::chrono::duration<double, std::milli>(Clock::now() - started).count();
  };
  int busy_during = 0;
  for (int i = 0; i < 100; ++i) {
    v1::ComputeFkResponse fk_response;
    auto started = Clock::now();
    ASSERT_TRUE(stubs.ComputeFk(fk_by_id, &fk_response).ok());
    fk_by_id_ms.push_back(time_ms(started));
    started = Clock::now();
    ASSERT_TRUE(stubs.ComputeFk(fk_with_urdf, &fk_response).ok());
    fk_with_urdf_ms.push_back(time_ms(started));
    v1::IkResult ik_result;
    started = Clock::now();
    ASSERT_TRUE(stubs.ComputeIk(ik, &ik_result).ok());
    ASSERT_TRUE(ik_result.ok());
    ik_ms.push_back(time_ms(started));
    busy_during += server.server().pool().busy_workers() >= 2;
  }
  stop = true;
  for (std::thread& t : load) t.join();

  auto p99_of = [](std::vector<double>& ms, const char* what) {
    std::sort(ms.begin(), ms.end());
    const double p99 = ms[ms.size() * 99 / 100];
    std::printf("%s under load: p50 %.2f ms, p99 %.2f ms, max %.2f ms\n", what, ms[ms.size() / 2],
                p99, ms.back());
    return p99;
  };
  // A short call that waited for a validation would take at least one:
  // the bound is 50 ms, or half the median validation on a machine so
  // loaded that validations take longer than 100 ms.
  std::sort(long_ms.begin(), long_ms.end());
  ASSERT_FALSE(long_ms.empty());
  const double bound = std::max(50.0, 0.5 * long_ms[long_ms.size() / 2]);
  std::printf("median time between two validations' answers: %.1f ms; bound %.1f ms\n",
              long_ms[long_ms.size() / 2], bound);
  EXPECT_LT(p99_of(fk_by_id_ms, "ComputeFk by robot id"), bound);
  EXPECT_LT(p99_of(fk_with_urdf_ms, "ComputeFk with its URDF"), bound);
  EXPECT_LT(p99_of(ik_ms, "ComputeIk"), bound);
  std::printf("%d long paths of up to %ld samples planned meanwhile\n", planned.load(),
              longest.load());
  EXPECT_GT(longest.load(), 50000) << "the paths are long";
  EXPECT_GT(busy_during, 75) << "the workers were busy while the short calls were measured";
}

}  // namespace
}  // namespace motiond_test
