// Overload and shutdown over real gRPC. Slow work is made by sending each
// call a distinct inline URDF of a 500-link chain (a comment makes the
// bytes, hence the robot id, unique), so every call parses and builds a
// model on the solver pool instead of hitting the registry cache.

#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "service_test_support.h"

namespace motiond_test {
namespace {

using Clock = std::chrono::steady_clock;

bool EveryHundredth(int i) { return i % 100 == 0; }

// `count` FK requests on distinct 500-link robots (4 DOF each).
std::vector<v1::ComputeFkRequest> SlowRequests(int count) {
  std::vector<v1::ComputeFkRequest> requests(count);
  for (int i = 0; i < count; ++i) {
    requests[i].mutable_robot()->set_urdf(
        SerialChainUrdf(500, 0.01, EveryHundredth, "request " + std::to_string(i)));
    for (int k = 0; k < 4; ++k) requests[i].add_joints(0.1 * k);
  }
  return requests;
}

// Many ComputeFk calls in flight at once through the callback API.
class AsyncCalls {
 public:
  AsyncCalls(const std::shared_ptr<grpc::Channel>& channel,
             std::vector<v1::ComputeFkRequest> requests)
      : stub_(v1::Kinematics::NewStub(channel)), calls_(requests.size()) {
    for (std::size_t i = 0; i < calls_.size(); ++i) {
      calls_[i] = std::make_unique<Call>();
      calls_[i]->request = std::move(requests[i]);
    }
  }

  void StartAll() {
    for (auto& call : calls_) {
      Call* c = call.get();
      c->context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
      stub_->async()->ComputeFk(&c->context, &c->request, &c->response,
                                [this, c](grpc::Status status) {
                                  std::lock_guard<std::mutex> lock(mutex_);
                                  c->status = std::move(status);
                                  ++finished_;
                                  cv_.notify_all();
                                });
    }
  }

  /// True when every call finished within `timeout`.
  bool AwaitAll(std::chrono::milliseconds timeout) {
    std::unique_lock<std::mutex> lock(mutex_);
    return cv_.wait_for(lock, timeout, [this] { return finished_ == calls_.size(); });
  }

  std::size_t finished() {
    std::lock_guard<std::mutex> lock(mutex_);
    return finished_;
  }

  /// Status code -> how many calls ended with it (after AwaitAll).
  std::map<grpc::StatusCode, int> CountByCode() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::map<grpc::StatusCode, int> counts;
    for (const auto& call : calls_) ++counts[call->status.error_code()];
    return counts;
  }

  std::vector<grpc::Status> Statuses() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<grpc::Status> out;
    for (const auto& call : calls_) out.push_back(call->status);
    return out;
  }

 private:
  struct Call {
    grpc::ClientContext context;
    v1::ComputeFkRequest request;
    v1::ComputeFkResponse response;
    grpc::Status status;
  };
  std::unique_ptr<v1::Kinematics::Stub> stub_;
  std::vector<std::unique_ptr<Call>> calls_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::size_t finished_ = 0;
};

::testing::AssertionResult AnswersAGoodFkRequest(TestServer& server) {
  Stubs stubs(server.NewChannel());
  v1::ComputeFkRequest request;
  request.mutable_robot()->set_urdf(ReadRobot("planar_2r.urdf"));
  request.add_joints(0.0);
  request.add_joints(0.0);
  v1::ComputeFkResponse response;
  const grpc::Status status = stubs.ComputeFk(request, &response);
  if (!status.ok()) return ::testing::AssertionFailure() << Describe(status);
  if (std::abs(response.flange().position().x() - 0.3) > 1e-12) {
    return ::testing::AssertionFailure() << response.flange().ShortDebugString();
  }
  return ::testing::AssertionSuccess();
}

// Polls `condition` every millisecond for up to `timeout`.
template <typename Condition>
bool WaitFor(Condition condition, std::chrono::milliseconds timeout) {
  const auto end = Clock::now() + timeout;
  while (Clock::now() < end) {
    if (condition()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return condition();
}

TEST(OverloadTest, AFullQueueRefusesWithResourceExhaustedAndNothingElse) {
  auto options = TestServer::DefaultOptions();
  options.workers = 1;
  options.max_queue = 2;
  TestServer server(options);

  constexpr int kCalls = 200;
  AsyncCalls calls(server.NewChannel(), SlowRequests(kCalls));
  calls.StartAll();
  ASSERT_TRUE(calls.AwaitAll(std::chrono::seconds(60))) << calls.finished() << " finished";

  const auto counts = calls.CountByCode();
  int ok = 0, refused = 0;
  for (const auto& [code, n] : counts) {
    if (code == grpc::StatusCode::OK) {
      ok = n;
    } else if (code == grpc::StatusCode::RESOURCE_EXHAUSTED) {
      refused = n;
    } else {
      ADD_FAILURE() << n << " call(s) ended with code " << static_cast<int>(code);
    }
  }
  for (const grpc::Status& status : calls.Statuses()) {
    if (status.error_code() != grpc::StatusCode::RESOURCE_EXHAUSTED) continue;
    EXPECT_NE(status.error_message().find("queue"), std::string::npos) << status.error_message();
    break;
  }
  std::printf("overload: %d of %d calls OK, %d refused with RESOURCE_EXHAUSTED\n", ok, kCalls,
              refused);
  RecordProperty("ok", ok);
  RecordProperty("refused", refused);
  EXPECT_GT(refused, 0) << "one worker and a queue of 2 never filled up";
  EXPECT_GE(ok, 1);
  EXPECT_EQ(ok + refused, kCalls);

  // The server recovers at once.
  EXPECT_TRUE(AnswersAGoodFkRequest(server));
}

TEST(ShutdownTest, ReturnsPromptlyWithCallsInFlight) {
  auto options = TestServer::DefaultOptions();
  options.workers = 1;
  TestServer server(options);

  constexpr int kCalls = 30;
  AsyncCalls calls(server.NewChannel(), SlowRequests(kCalls));
  calls.StartAll();
  ASSERT_TRUE(
      WaitFor([&] { return server.server().pool().queue_depth() >= 3; }, std::chrono::seconds(10)))
      << "calls never queued up";

  const auto start = Clock::now();
  server.server().Shutdown(std::chrono::milliseconds(200));
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  std::printf("shutdown with calls in flight took %.3f s\n", seconds);
  EXPECT_LT(seconds, 3.0);

  // Every call completes (with whatever status), none hangs to its deadline.
  ASSERT_TRUE(calls.AwaitAll(std::chrono::seconds(10))) << calls.finished() << " finished";
  for (const auto& [code, n] : calls.CountByCode()) {
    std::printf("  code %d: %d call(s)\n", static_cast<int>(code), n);
    EXPECT_NE(code, grpc::StatusCode::DEADLINE_EXCEEDED);
    EXPECT_NE(code, grpc::StatusCode::UNKNOWN);
    EXPECT_NE(code, grpc::StatusCode::INTERNAL);
  }
}

TEST(ShutdownTest, GracefulShutdownFinishesTheQueuedCalls) {
  auto options = TestServer::DefaultOptions();
  options.workers = 1;
  TestServer server(options);

  constexpr int kCalls = 10;
  AsyncCalls calls(server.NewChannel(), SlowRequests(kCalls));
  calls.StartAll();
  // Wait until the server holds every call (queued, running or answered).
  auto& pool = server.server().pool();
  ASSERT_TRUE(WaitFor(
      [&] {
        return calls.finished() + pool.queue_depth() +
                   static_cast<std::size_t>(pool.busy_workers()) >=
               static_cast<std::size_t>(kCalls);
      },
      std::chrono::seconds(10)));
  const std::size_t held = pool.queue_depth() + pool.busy_workers();

  const auto start = Clock::now();
  server.server().Shutdown(std::chrono::seconds(5));
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  std::printf("graceful shutdown with %zu call(s) held took %.3f s\n", held, seconds);
  EXPECT_LT(seconds, 4.0) << "should return once the calls are done, not at the deadline";

  ASSERT_TRUE(calls.AwaitAll(std::chrono::seconds(10)));
  const auto counts = calls.CountByCode();
  int ok = 0;
  for (const auto& [code, n] : counts) {
    if (code == grpc::StatusCode::OK) ok = n;
    // A call that had not reached the server yet may be refused as UNAVAILABLE.
    EXPECT_TRUE(code == grpc::StatusCode::OK || code == grpc::StatusCode::UNAVAILABLE)
        << n << " call(s) ended with code " << static_cast<int>(code);
  }
  EXPECT_GE(ok, static_cast<int>(held)) << "calls the server held must finish OK";
}

TEST(ShutdownTest, ShutdownTwiceAndDestroyAreSafe) {
  TestServer server;
  EXPECT_TRUE(AnswersAGoodFkRequest(server));
  server.server().Shutdown(std::chrono::milliseconds(100));
  server.server().Shutdown(std::chrono::milliseconds(100));
  // After shutdown nobody answers; the call fails fast instead of hanging.
  Stubs stubs(server.NewChannel(), std::chrono::seconds(5));
  v1::ListRobotsResponse list;
  const grpc::Status status = stubs.ListRobots(&list);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAVAILABLE) << Describe(status);
}

}  // namespace
}  // namespace motiond_test
