// Clients that open maximum-size PlanPath streams and never read cannot
// make the server's memory grow: 16 of them against the real motiond
// binary, each asking for a ~90 000-sample UR5 path (~14 MB planned). The
// streams that fit in --max_unsent_trajectory_mb hold their trajectory, the
// rest are RESOURCE_EXHAUSTED with a retry hint; motiond's resident memory
// stays under 256 MB; other clients are still served meanwhile; and once
// the unread streams are cancelled the budget is free again.

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

constexpr long kRssBoundKb = 256 * 1024;

struct UnreadStream {
  std::shared_ptr<grpc::Channel> channel;
  std::unique_ptr<v1::MotionPlanner::Stub> stub;
  grpc::ClientContext context;
  std::unique_ptr<grpc::ClientReader<v1::PlanPathResponse>> reader;
};

TEST(UnreadStreamsTest, SixteenClientsThatNeverReadCannotGrowMemory) {
  auto server = MotiondProcess::Start("unread", {"--workers=2", "--max_unsent_trajectory_mb=96"});
  Stubs stubs(grpc::CreateChannel(server->address(), grpc::InsecureChannelCredentials()));
  v1::RegisterRobotResponse registered;
  ASSERT_TRUE(stubs.RegisterRobot(ReadRobot("ur5.urdf"), &registered).ok());
  const std::string id = registered.robot_id();
  const long idle_kb = server->RssKb();

  // Each on its own connection, as separate cell controllers would be.
  std::vector<std::unique_ptr<UnreadStream>> streams;
  for (int i = 0; i < 16; ++i) {
    auto s = std::make_unique<UnreadStream>();
    s->channel = grpc::CreateChannel(server->address(), grpc::InsecureChannelCredentials());
    s->stub = v1::MotionPlanner::NewStub(s->channel);
    s->context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(80));
    s->reader = s->stub->PlanPath(&s->context, SlowUr5MoveJ(id, 0.0003));
    streams.push_back(std::move(s));
  }
  // Every plan done: the pool is idle and nothing is queued.
  const auto deadline = Clock::now() + std::chrono::seconds(60);
  long peak_kb = 0;
  for (;;) {
    peak_kb = std::max(peak_kb, server->RssKb());
    const auto page = server->Metrics();
    ASSERT_TRUE(page.has_value());
    const double started =
        SumOfMetric(*page, "grpc_server_started_total", {{"grpc_method", "PlanPath"}});
    if (started >= 16 && SumOfMetric(*page, "motiond_solver_busy_workers") == 0 &&
        SumOfMetric(*page, "motiond_solver_queue_depth") == 0) {
      break;
    }
    ASSERT_LT(Clock::now(), deadline) << "the 16 plans did not finish";
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  const long held_kb = server->RssKb();
  peak_kb = std::max(peak_kb, held_kb);

  // Others are still served: an FK, and a short plan (whole, or refused
  // with a retry hint when the budget is full).
  v1::ComputeFkRequest fk;
  fk.mutable_robot()->set_robot_id(id);
  for (int i = 0; i < 6; ++i) fk.add_joints(0.1);
  v1::ComputeFkResponse fk_response;
  EXPECT_TRUE(stubs.ComputeFk(fk, &fk_response).ok());
  PlanPathCall small = CallPlanPath(stubs.planner(), SlowUr5MoveJ(id, 0.05));
  if (!small.status.ok()) {
    EXPECT_EQ(small.status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED)
        << Describe(small.status);
  }

  // The unread streams, read at last: some hold a trajectory, the others
  // were refused with a retry hint and the budget in the message.
  int holding = 0, refused = 0;
  for (auto& s : streams) {
    v1::PlanPathResponse first;
    if (s->reader->Read(&first)) {
      ++holding;
      s->context.TryCancel();
      while (s->reader->Read(&first)) {
      }
    }
    const grpc::Status status = s->reader->Finish();
    if (status.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED) {
      ++refused;
      EXPECT_NE(status.error_message().find("max_unsent_trajectory_mb"), std::string::npos)
          << status.error_message();
      const auto rich = RichStatus(status);
      ASSERT_TRUE(rich.has_value());
      bool retry_hint = false;
      for (const auto& any : rich->details()) {
        retry_hint |= any.type_url() == "type.googleapis.com/google.rpc.RetryInfo";
      }
      EXPECT_TRUE(retry_hint);
    }
  }
  streams.clear();
  std::printf(
      "motiond RSS: idle %ld MB, holding %d unread streams (%d refused) %ld MB, peak "
      "%ld MB\n",
      idle_kb >> 10, holding, refused, held_kb >> 10, peak_kb >> 10);
  EXPECT_GT(holding, 0);
  EXPECT_GT(refused, 0) << "16 x ~14 MB does not fit in 96 MB";
  EXPECT_LT(peak_kb, kRssBoundKb);

  // Every reservation was released with its stream: a large plan fits again.
  const auto free_again = Clock::now() + std::chrono::seconds(10);
  PlanPathCall big;
  do {
    big = CallPlanPath(stubs.planner(), SlowUr5MoveJ(id, 0.0003));
  } while (!big.status.ok() && Clock::now() < free_again);
  EXPECT_TRUE(big.status.ok()) << Describe(big.status);
}

}  // namespace
}  // namespace motiond_test
