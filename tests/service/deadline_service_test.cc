// Deadlines bound the work, not only the answer: an IK whose own budget is
// far longer than the call's deadline stops soon after the deadline, so a
// client that gives up (or a deadline that passes) frees its solver worker.
// Before the solver polled its call, the worker kept searching for the whole
// budget (here 10 s of CPU) after the client had its DEADLINE_EXCEEDED.

#include <chrono>
#include <limits>
#include <thread>

#include <gtest/gtest.h>

#include "service_test_support.h"

namespace motiond_test {
namespace {

using Clock = std::chrono::steady_clock;

// Panda (7 DOF, no closed form), a reachable target and a position
// tolerance no double arithmetic can meet: the numeric search restarts
// until its budget is spent.
class DeadlineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto options = TestServer::DefaultOptions();
    options.workers = 1;
    server_ = std::make_unique<TestServer>(options);
    auto robot = server_->server().registry().Register(ReadRobot("panda.urdf"));
    ASSERT_TRUE(robot.ok());
    robot_id_ = robot->robot_id;
  }

  v1::IkOptions HugeBudget() const {
    v1::IkOptions options;
    options.set_timeout(10.0);
    options.set_max_iterations(std::numeric_limits<int32_t>::max());
    options.set_position_tolerance(1e-300);
    return options;
  }

  static v1::Pose Reachable() {
    v1::Pose pose;
    pose.mutable_position()->set_x(0.4);
    pose.mutable_position()->set_z(0.4);
    pose.mutable_orientation()->set_x(1.0);  // tool pointing down
    return pose;
  }

  // Milliseconds until no solver worker is busy, or -1 after `limit`.
  double MillisecondsUntilIdle(std::chrono::milliseconds limit) {
    const auto start = Clock::now();
    while (Clock::now() - start < limit) {
      if (server_->server().pool().busy_workers() == 0 &&
          server_->server().pool().queue_depth() == 0)
        return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return -1;
  }

  std::unique_ptr<TestServer> server_;
  std::string robot_id_;
};

TEST_F(DeadlineTest, ComputeIkStopsSearchingWhenItsDeadlinePasses) {
  v1::ComputeIkRequest request;
  request.mutable_robot()->set_robot_id(robot_id_);
  *request.mutable_target() = Reachable();
  *request.mutable_options() = HugeBudget();
  Stubs stubs(server_->NewChannel(), std::chrono::milliseconds(300));
  v1::IkResult result;
  const auto sent = Clock::now();
  const grpc::Status status = stubs.ComputeIk(request, &result);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::DEADLINE_EXCEEDED) << Describe(status);
  EXPECT_LT(Clock::now() - sent, std::chrono::seconds(2));
  // The search itself ends within a restart or two of the deadline.
  const double idle_after_ms = MillisecondsUntilIdle(std::chrono::seconds(3));
  std::printf("worker idle %.1f ms after the client's DEADLINE_EXCEEDED\n", idle_after_ms);
  EXPECT_GE(idle_after_ms, 0) << "the worker was still solving 3 s after the deadline";
  EXPECT_LT(idle_after_ms, 500);
}

TEST_F(DeadlineTest, CheckReachabilityStopsSearchingWhenItsDeadlinePasses) {
  v1::CheckReachabilityRequest request;
  request.mutable_robot()->set_robot_id(robot_id_);
  for (int i = 0; i < 8; ++i) *request.add_targets() = Reachable();
  *request.mutable_options() = HugeBudget();
  Stubs stubs(server_->NewChannel(), std::chrono::milliseconds(300));
  v1::CheckReachabilityResponse response;
  const grpc::Status status = stubs.CheckReachability(request, &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::DEADLINE_EXCEEDED) << Describe(status);
  const double idle_after_ms = MillisecondsUntilIdle(std::chrono::seconds(3));
  EXPECT_GE(idle_after_ms, 0) << "the worker was still solving 3 s after the deadline";
  EXPECT_LT(idle_after_ms, 500);
}

TEST_F(DeadlineTest, AnIkBudgetBeyondTheLimitIsRefusedNamingTheField) {
  v1::ComputeIkRequest request;
  request.mutable_robot()->set_robot_id(robot_id_);
  *request.mutable_target() = Reachable();
  request.mutable_options()->set_timeout(10.5);
  Stubs stubs(server_->NewChannel());
  v1::IkResult result;
  const grpc::Status status = stubs.ComputeIk(request, &result);
  EXPECT_TRUE(IsInvalidArgument(status, "options.timeout", {"limit", "10"})) << Describe(status);
}

}  // namespace
}  // namespace motiond_test
