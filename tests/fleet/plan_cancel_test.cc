// Cancelling a maximum-size PlanPath frees the only solver worker at once.
//
// motiond runs with --workers=1 --max_trajectory_points=200000 and is asked
// for a slow MoveL sampled into just under 200 000 points (one IK per
// sample). The client cancels and at once sends a one-FK follow-up on the
// same channel; that follow-up can only run when the worker is free, so
// "cancel -> follow-up answered" minus the follow-up's own time on an idle
// server is how long the cancelled call kept the worker.
//
// PlanPath plans the whole path before it streams (plan_path_stream.h), so
//  - cancelled after its first chunk, the worker was already free: the
//    figure is the cancel's and the follow-up's trip, nothing else;
//  - cancelled while planning, the planner must notice: it polls the cancel
//    flag every 64 samples (core/motion/segment_sampling.cc), i.e. within
//    64 IK solves.
// Both must be < 50 ms + the follow-up's own time; each is measured up to 5
// times and the best kept, with motiond at nice -10 where permitted (on a
// 2-core machine at load 9 the unprivileged figure was 230-560 ms: every
// thread hand-off waits for a time slice).
//
// motiond's exit after SIGTERM sometimes takes 10 s more here (about 1 run
// in 8): grpc::Server::~Server -> grpc_shutdown -> Executor::ShutdownAll
// joins gRPC's "default-executor" thread, which sits in epoll_wait with a
// ~10 s timeout and is not woken. TearDown prints how long the exit took.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "motiond_process.h"
#include "service_test_support.h"

namespace motiond_test {
namespace {

using motiond_fleet::MotiondProcess;
using motiond_fleet::SumOfMetric;
using Clock = std::chrono::steady_clock;

constexpr long kMaxPoints = 200000;
constexpr double kBudgetMs = 50.0;
constexpr int kAttempts = 5;  // the best counts: a loaded CI machine preempts anything

double MsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

class PlanCancelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::vector<std::string> flags = {"--workers=1",
                                      "--max_trajectory_points=" + std::to_string(kMaxPoints)};
    // /metrics only where it is read: its exporter adds ~1.6 s to every exit.
    if (!with_metrics_) flags.push_back("--metrics_listen=");
    // Nice -10 where permitted: the figure is the server's, not how long a
    // busy machine's scheduler makes its threads wait.
    server_ = MotiondProcess::Start("cancel", flags, 0, std::chrono::seconds(20), -10);
    channel_ = grpc::CreateChannel(server_->address(), grpc::InsecureChannelCredentials());
    stubs_ = std::make_unique<Stubs>(channel_);
    const std::string urdf = ReadRobot("ur5.urdf");
    v1::RegisterRobotResponse registered;
    ASSERT_TRUE(stubs_->RegisterRobot(urdf, &registered).ok());
    robot_.set_robot_id(registered.robot_id());

    // A 0.2 m line at 5 mm/s (~40 s). Its duration D at 4 ms, planned here
    // by core, gives the sample time for just under kMaxPoints samples.
    CoreRobot ur5(urdf);
    const std::vector<double> start = {0.3, -1.2, 1.5, -1.8, -1.5, 0.4};
    Eigen::Isometry3d target = ur5.Fk(start);
    target.translation() += Eigen::Vector3d(0.0, 0.2, 0.0);
    Program program(start);
    program.MoveL("slow_line", WirePose(target), 0.005);
    auto coarse = ur5.Plan(program.Core());
    ASSERT_TRUE(coarse.ok()) << coarse.status();
    ASSERT_TRUE(coarse->ok);
    sample_time_ = coarse->duration / static_cast<double>(kMaxPoints - 1000);
    ASSERT_GE(sample_time_, 1e-4);
    program.SampleTime(sample_time_);
    request_ = program.Request(robot_);
    request_.set_max_chunk_points(256);

    follow_up_.mutable_robot()->set_robot_id(registered.robot_id());
    for (int i = 0; i < 6; ++i) follow_up_.add_joints(0.1 * (i + 1));
    // The follow-up's own time on the idle server (best of 5).
    follow_up_ms_ = 1e9;
    for (int i = 0; i < 5; ++i) {
      const auto t = Clock::now();
      ASSERT_TRUE(FollowUp().ok());
      follow_up_ms_ = std::min(follow_up_ms_, MsSince(t));
    }
  }

  void TearDown() override {
    // Close the connection first: motiond's drain waits for open client
    // connections until its 5 s grace runs out.
    stubs_.reset();
    channel_.reset();
    if (server_) {
      const auto start = Clock::now();
      EXPECT_EQ(server_->Terminate(), 0) << server_->Log();
      std::printf("motiond exited %.0f ms after SIGTERM\n", MsSince(start));
    }
  }

  grpc::Status FollowUp() {
    v1::ComputeFkResponse response;
    return stubs_->ComputeFk(follow_up_, &response);
  }

  // One PlanPath whose messages a reader thread collects.
  struct Call {
    grpc::ClientContext context;
    std::unique_ptr<grpc::ClientReader<v1::PlanPathResponse>> reader;
    std::thread thread;
    std::atomic<int> messages{0};
    std::atomic<int> chunks{0};
    std::atomic<long> point_count{-1};
    std::atomic<bool> first_chunk{false};
    Clock::time_point started, first_chunk_at;
    grpc::Status status;
  };

  std::unique_ptr<Call> StartPlan() {
    auto call = std::make_unique<Call>();
    call->context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
    call->started = Clock::now();
    call->reader = stubs_->planner().PlanPath(&call->context, request_);
    Call* c = call.get();
    c->thread = std::thread([c] {
      v1::PlanPathResponse message;
      while (c->reader->Read(&message)) {
        ++c->messages;
        if (message.has_header()) c->point_count = message.header().point_count();
        if (message.has_chunk() && !c->first_chunk) {
          c->first_chunk_at = Clock::now();
          ++c->chunks;
          c->first_chunk = true;
        } else if (message.has_chunk()) {
          ++c->chunks;
        }
      }
      c->status = c->reader->Finish();
    });
    return call;
  }

  // Cancels `call`, sends the follow-up at once; ms from cancel to answer.
  double CancelAndFollowUp(Call& call) {
    const auto cancelled_at = Clock::now();
    call.context.TryCancel();
    const grpc::Status status = FollowUp();
    const double ms = MsSince(cancelled_at);
    EXPECT_TRUE(status.ok()) << Describe(status);
    call.thread.join();
    EXPECT_EQ(call.status.error_code(), grpc::StatusCode::CANCELLED) << Describe(call.status);
    return ms;
  }

  bool with_metrics_ = false;
  std::unique_ptr<MotiondProcess> server_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<Stubs> stubs_;
  v1::RobotRef robot_;
  v1::PlanPathRequest request_;
  double sample_time_ = 0;
  v1::ComputeFkRequest follow_up_;
  double follow_up_ms_ = 0;
};

TEST_F(PlanCancelTest, CancelAfterTheFirstChunkFreesTheWorkerAtOnce) {
  std::vector<double> figures;
  double planning_ms = 0;
  long points = 0;
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    auto call = StartPlan();
    const auto end = Clock::now() + std::chrono::seconds(30);
    while (!call->first_chunk && Clock::now() < end) {
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    ASSERT_TRUE(call->first_chunk) << "no chunk within 30 s\n" << server_->Log();
    planning_ms =
        std::chrono::duration<double, std::milli>(call->first_chunk_at - call->started).count();
    points = call->point_count;
    const double ms = CancelAndFollowUp(*call);
    figures.push_back(ms);
    std::printf(
        "attempt %d: %ld points (limit %ld, sample time %.3g s), first chunk after %.0f ms, "
        "%d chunks read; cancel -> follow-up answered %.2f ms (follow-up alone %.2f ms)\n",
        attempt + 1, points, kMaxPoints, sample_time_, planning_ms, call->chunks.load(), ms,
        follow_up_ms_);
    EXPECT_LT(call->chunks.load(), 200000 / 256) << "the cancel did not stop the stream";
    if (ms < kBudgetMs + follow_up_ms_) break;
  }
  EXPECT_GT(points, kMaxPoints - 2000);
  EXPECT_LE(points, kMaxPoints);
  const double best = *std::min_element(figures.begin(), figures.end());
  RecordProperty("cancel_after_chunk_ms", std::to_string(best));
  EXPECT_LT(best, kBudgetMs + follow_up_ms_);
}

// Reads motiond_solver_busy_workers from /metrics.
class PlanCancelWithMetricsTest : public PlanCancelTest {
 protected:
  PlanCancelWithMetricsTest() { with_metrics_ = true; }
};

TEST_F(PlanCancelWithMetricsTest, CancelWhilePlanningFreesTheWorkerWithin64Samples) {
  std::vector<double> figures;
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    auto call = StartPlan();
    // Cancel once the worker is busy planning: /metrics says so, and no
    // message (the header comes only after planning) has arrived.
    const auto end = Clock::now() + std::chrono::seconds(5);
    double busy = 0;
    while (Clock::now() < end && busy < 1) {
      auto page = server_->Metrics();
      if (page) busy = SumOfMetric(*page, "motiond_solver_busy_workers");
    }
    ASSERT_EQ(busy, 1) << "the worker never got busy";
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    const int before = call->messages;
    const double since_start = MsSince(call->started);
    const double ms = CancelAndFollowUp(*call);
    if (before > 0) {
      std::printf("attempt %d: planning was over before the cancel (%.0f ms); not counted\n",
                  attempt + 1, since_start);
      continue;
    }
    EXPECT_EQ(call->chunks.load(), 0);
    figures.push_back(ms);
    std::printf(
        "attempt %d: cancelled %.0f ms into planning; cancel -> follow-up answered %.2f ms "
        "(follow-up alone %.2f ms)\n",
        attempt + 1, since_start, ms, follow_up_ms_);
    if (ms < kBudgetMs + follow_up_ms_) break;
  }
  ASSERT_FALSE(figures.empty()) << "planning never lasted long enough to cancel it";
  const double best = *std::min_element(figures.begin(), figures.end());
  RecordProperty("cancel_while_planning_ms", std::to_string(best));
  EXPECT_LT(best, kBudgetMs + follow_up_ms_);
}

// The path really is at the limit: 1 % more samples is refused up front.
TEST_F(PlanCancelTest, OnePercentMoreSamplesIsRefused) {
  v1::PlanPathRequest bigger = request_;
  bigger.set_sample_time(sample_time_ * 0.99);
  const PlanPathCall call = CallPlanPath(stubs_->planner(), bigger);
  EXPECT_EQ(call.status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << Describe(call.status);
  EXPECT_NE(call.status.error_message().find(std::to_string(kMaxPoints)), std::string::npos)
      << call.status.error_message();
}

}  // namespace
}  // namespace motiond_test
