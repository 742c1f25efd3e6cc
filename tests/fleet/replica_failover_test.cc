// Three real motiond replicas on loopback behind the client library's
// round-robin target. The robots are known only to the client (AddRobot);
// the replicas start without --robots_dir, so every replica learns each
// robot from a URDF the client re-sends after ROBOT_NOT_REGISTERED. 1 000
// paths are validated by concurrent ValidatePaths calls (each call is one
// stream, so round robin spreads the calls over the replicas); one replica is
// SIGKILLed while it has streams open and restarted on its own port (what a
// Kubernetes pod restart looks like to a static address list). Every path
// must be answered exactly once, with the verdict core's PlanPath gives for
// it in this process, and each replica's /metrics must show it served some.
// A replica frozen with SIGSTOP (its connection open, nothing answered)
// costs the client three call timeouts, not the whole job.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "clients/motion_client.h"
#include "motiond_process.h"
#include "service_test_support.h"

namespace motiond_test {
namespace {

using motiond_fleet::MotiondProcess;
using motiond_fleet::SumOfMetric;
using Clock = std::chrono::steady_clock;

constexpr int kPaths = 1000;
constexpr int kBatch = 20;                              // paths per ValidatePaths call
constexpr int kCallers = 4;                             // concurrent calls (threads)
constexpr auto kPace = std::chrono::milliseconds(100);  // batch b starts >= b * kPace
constexpr int kKillAfterAnswers = 300;

struct Robot {
  std::string file;
  std::string robot_id;
  std::unique_ptr<CoreRobot> core;
  std::vector<double> start;
};

// Four shapes, lengths varied by `variant`: 0-2 can be done, 3 cannot (a
// target 2 m away), so the verdicts are not all alike.
Program MakeProgram(Robot& robot, int shape, int variant) {
  const double d = 0.02 + 0.002 * variant;
  const Eigen::Isometry3d start = robot.core->Fk(robot.start);
  auto shifted = [&](double x, double y, double z) {
    Eigen::Isometry3d t = start;
    t.translation() += Eigen::Vector3d(x, y, z);
    return WirePose(t);
  };
  Program program(robot.start);
  switch (shape) {
    case 0:
      program.MoveL("line", shifted(d, 0, -d)).MoveJ("back", robot.start, 0.5);
      break;
    case 1:
      program.MoveC("arc", shifted(d, d, 0), shifted(2 * d, 0, 0), 0.05)
          .MoveL("up", shifted(2 * d, 0, 0.03));
      break;
    case 2: {
      std::vector<double> swung = robot.start;
      swung[0] += 0.1 + 0.01 * variant;
      program.MoveJ("swing", swung, 0.3).MoveJ("back", robot.start, 0.3);
      break;
    }
    default: {
      Eigen::Isometry3d far = start;
      far.translation() = Eigen::Vector3d(2.0 + d, 0.5, 0.3);
      program.MoveL("line", shifted(d, 0, 0)).MoveL("too_far", WirePose(far));
      break;
    }
  }
  return program;
}

// What a replica did so far, from its /metrics: ValidatePath answers sent
// (ROBOT_NOT_REGISTERED ones included) and paths it planned.
struct Served {
  double requests = 0;
  double answers = 0;
  double planned = 0;
};
Served ServedBy(const std::string& metrics) {
  const std::map<std::string, std::string> method = {{"grpc_method", "ValidatePath"}};
  return {SumOfMetric(metrics, "grpc_server_msg_received_total", method),
          SumOfMetric(metrics, "grpc_server_msg_sent_total", method),
          SumOfMetric(metrics, "motiond_solve_seconds_count", {{"operation", "path"}})};
}

std::string MetricsOrFail(const MotiondProcess& replica) {
  std::string error;
  auto page = replica.Metrics(&error);
  EXPECT_TRUE(page.has_value()) << error << "\n" << replica.Log();
  return page.value_or("");
}

TEST(ReplicaFailoverTest, ThousandPathsOverThreeReplicasOneKilledAndRestarted) {
  // Unbuffered: if this ever hangs until ctest's timeout, what it printed
  // says how far it got (one local run timed out with its output lost).
  std::setvbuf(stdout, nullptr, _IONBF, 0);
  // --- the fleet: no preloaded robots, the solver pool small (2 cores).
  const std::vector<std::string> flags = {"--workers=1"};
  std::vector<std::unique_ptr<MotiondProcess>> replicas;
  for (int i = 0; i < 3; ++i) {
    replicas.push_back(MotiondProcess::Start("replica" + std::to_string(i), flags));
  }
  std::string target;
  for (const auto& r : replicas) target += (target.empty() ? "" : ",") + r->address();
  std::printf("fleet: %s\n", target.c_str());

  motion::client::ClientOptions options;
  options.target = target;
  // 15 s: a stream that stalls is given up after 45 s (three timeouts), so
  // that the job still ends inside the test's 90 s.
  options.timeout = std::chrono::seconds(15);
  auto client = motion::client::MotionClient::Connect(options);

  // --- robots only the client knows, and the verdicts core gives here.
  std::vector<Robot> robots(2);
  robots[0].file = "ur5.urdf";
  robots[0].start = {0.3, -1.2, 1.5, -1.8, -1.5, 0.4};
  robots[1].file = "panda.urdf";
  robots[1].start = {0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785};
  for (Robot& robot : robots) {
    const std::string urdf = ReadRobot(robot.file);
    robot.robot_id = client->AddRobot(urdf);
    robot.core = std::make_unique<CoreRobot>(urdf);
  }
  constexpr int kVariants = 10;
  std::vector<v1::PlanPathRequest> programs;  // [robot][shape][variant] flattened
  std::vector<motion::PathResult> expected;
  for (Robot& robot : robots) {
    v1::RobotRef ref;
    ref.set_robot_id(robot.robot_id);  // by id only: replicas must ask for the URDF
    for (int shape = 0; shape < 4; ++shape) {
      for (int variant = 0; variant < kVariants; ++variant) {
        const Program program = MakeProgram(robot, shape, variant);
        programs.push_back(program.Request(ref));
        absl::StatusOr<motion::PathResult> core = robot.core->Plan(program.Core());
        ASSERT_TRUE(core.ok()) << core.status();
        EXPECT_EQ(ReachableVerdict(*core), shape != 3) << robot.file << " shape " << shape;
        expected.push_back(*std::move(core));
      }
    }
  }
  std::vector<v1::ValidatePathRequest> requests(kPaths);
  for (int i = 0; i < kPaths; ++i) {
    requests[i].set_request_id("path-" + std::to_string(i));
    *requests[i].mutable_path() = programs[i % programs.size()];
  }

  // --- the load: kCallers threads take batches in order, paced so the run
  // lasts >= 50 * 100 ms, long enough for the client's channel to reconnect
  // to the restarted replica (gRPC's first reconnect backoff is 1 s).
  std::mutex mutex;
  std::map<std::string, int> deliveries;  // request_id -> on_response calls
  std::vector<v1::ValidatePathResponse> answers(kPaths);
  std::vector<grpc::Status> call_status;
  std::atomic<int> answered{0};
  std::atomic<int> next_batch{0};
  const int batches = (kPaths + kBatch - 1) / kBatch;
  const auto load_start = Clock::now();
  std::vector<std::thread> callers;
  for (int c = 0; c < kCallers; ++c) {
    callers.emplace_back([&] {
      for (int b = next_batch++; b < batches; b = next_batch++) {
        std::this_thread::sleep_until(load_start + b * kPace);
        const std::vector<v1::ValidatePathRequest> batch(
            requests.begin() + b * kBatch, requests.begin() + std::min(kPaths, (b + 1) * kBatch));
        const grpc::Status status = client->ValidatePaths(
            batch,
            [&](const v1::ValidatePathResponse& response) {
              std::lock_guard<std::mutex> lock(mutex);
              const int n = ++deliveries[response.request_id()];
              const int index = std::stoi(response.request_id().substr(5));
              if (n == 1) answers[index] = response;
              ++answered;
            },
            /*max_in_flight=*/8);
        std::lock_guard<std::mutex> lock(mutex);
        call_status.push_back(status);
      }
    });
  }

  // --- the failure: once kKillAfterAnswers paths are answered, SIGKILL
  // replica 1 while it has a ValidatePath stream open (polled on its
  // /metrics; given up on after 3 s), then restart it on the same port.
  MotiondProcess& victim = *replicas[1];
  const int victim_port = victim.port();
  while (answered < kKillAfterAnswers && Clock::now() - load_start < std::chrono::seconds(30)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  double open_streams = 0;
  Served victim_before_kill;
  const auto poll_end = Clock::now() + std::chrono::seconds(3);
  do {
    std::string error;
    auto page = victim.Metrics(&error);
    if (page) {
      open_streams =
          SumOfMetric(*page, "motiond_streams_in_flight", {{"grpc_method", "ValidatePath"}});
      victim_before_kill = ServedBy(*page);
    }
    if (open_streams > 0) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  } while (Clock::now() < poll_end);
  const int answered_at_kill = answered;
  const std::string victim_log = victim.Log();
  victim.Kill();
  const auto killed_at = Clock::now();
  std::unique_ptr<MotiondProcess> restarted;
  for (int attempt = 0; attempt < 20 && !restarted; ++attempt) {
    try {  // the port may take a moment to be free again
      restarted = MotiondProcess::Start("replica1-restarted", flags, victim_port);
    } catch (const std::exception& e) {
      if (attempt == 19) ADD_FAILURE() << e.what();
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }
  const double restart_ms =
      std::chrono::duration<double, std::milli>(Clock::now() - killed_at).count();
  std::printf(
      "killed replica1 (port %d) after %d answers, with %.0f ValidatePath stream(s) open and "
      "%.0f request(s) read but not answered at its last scrape; restarted on the same port in "
      "%.0f ms\n",
      victim_port, answered_at_kill, open_streams,
      victim_before_kill.requests - victim_before_kill.answers, restart_ms);

  for (std::thread& t : callers) t.join();
  const double run_seconds = std::chrono::duration<double>(Clock::now() - load_start).count();

  // --- every path answered exactly once, as core says.
  for (const grpc::Status& status : call_status) {
    EXPECT_TRUE(status.ok()) << "ValidatePaths: " << Describe(status);
  }
  int missing = 0, twice = 0, mismatched = 0;
  for (int i = 0; i < kPaths; ++i) {
    const std::string id = "path-" + std::to_string(i);
    const auto it = deliveries.find(id);
    if (it == deliveries.end()) {
      ++missing;
      ADD_FAILURE() << id << " never answered";
      continue;
    }
    if (it->second != 1) {
      ++twice;
      ADD_FAILURE() << id << " delivered " << it->second << " times";
    }
    const v1::ValidatePathResponse& got = answers[i];
    const motion::PathResult& core = expected[i % expected.size()];
    if (got.error_code() != 0 || got.ok() != core.ok || got.reachable() != ReachableVerdict(core) ||
        got.cycle_time() != core.duration ||
        got.segment_reports_size() != static_cast<int>(core.segments.size()) ||
        CodesOf(got.diagnostics()) != CodesOf(core.diagnostics)) {
      if (++mismatched <= 5) {
        ADD_FAILURE() << id << " differs from core (ok " << core.ok << ", cycle " << core.duration
                      << "): " << got.ShortDebugString();
      }
    }
  }
  EXPECT_EQ(mismatched, 0);
  EXPECT_EQ(static_cast<int>(deliveries.size()), kPaths);

  // --- every replica served some (the victim: before it was killed).
  std::vector<Served> served;
  served.push_back(ServedBy(MetricsOrFail(*replicas[0])));
  served.push_back(victim_before_kill);
  served.push_back(ServedBy(MetricsOrFail(*replicas[2])));
  ASSERT_NE(restarted, nullptr);
  const std::string restarted_metrics = MetricsOrFail(*restarted);
  served.push_back(ServedBy(restarted_metrics));
  const double robots_on_restart = SumOfMetric(restarted_metrics, "motiond_registry_robots");
  std::printf(
      "%d paths in %.1f s by %zu ValidatePaths calls: %d missing, %d delivered twice, "
      "%d differing from core\n",
      kPaths, run_seconds, call_status.size(), missing, twice, mismatched);
  const char* names[] = {"replica0", "replica1 (until SIGKILL)", "replica2",
                         "replica1 (restarted)"};
  for (int i = 0; i < 4; ++i) {
    std::printf("  %-26s planned %4.0f paths, sent %4.0f answers (%.0f ROBOT_NOT_REGISTERED)\n",
                names[i], served[i].planned, served[i].answers,
                served[i].answers - served[i].planned);
    EXPECT_GT(served[i].answers, 0) << names[i] << " got no ValidatePath request";
    // A replica that only ever answers ROBOT_NOT_REGISTERED serves nothing:
    // the client re-sends those requests with the URDF on a new stream,
    // i.e. to another replica, so such a replica never learns the robot.
    EXPECT_GT(served[i].planned, 0)
        << names[i] << " planned no path (answered ROBOT_NOT_REGISTERED " << served[i].answers
        << " times and never received the URDF)";
  }
  RecordProperty("answered_at_kill", answered_at_kill);
  RecordProperty("planned_replica0", static_cast<int>(served[0].planned));
  RecordProperty("planned_replica1_before_kill", static_cast<int>(served[1].planned));
  RecordProperty("planned_replica2", static_cast<int>(served[2].planned));
  RecordProperty("planned_replica1_restarted", static_cast<int>(served[3].planned));
  EXPECT_GT(open_streams, 0) << "replica1 never had a stream open when it was killed\n"
                             << victim_log;
  // The paths were sent by id only: the restarted replica knows the robots
  // because the client re-sent their URDF.
  EXPECT_GE(robots_on_restart, 1);
  EXPECT_LT(run_seconds, 60);

  client.reset();  // an open connection holds motiond's drain to its 5 s grace
  const std::vector<MotiondProcess*> running = {replicas[0].get(), replicas[2].get(),
                                                restarted.get()};
  for (MotiondProcess* replica : running) replica->SendTerminate();
  for (MotiondProcess* replica : running) {
    EXPECT_EQ(replica->AwaitExit(), 0) << replica->name() << "\n" << replica->Log();
  }
}

TEST(ReplicaFailoverTest, AFrozenReplicaCostsThreeTimeoutsThenItsPathsGoElsewhere) {
  // Two replicas; one is stopped with SIGSTOP: its connection stays open
  // and it answers nothing (a frozen process, a dropped network: no RST).
  // A stream that lands on it has requests outstanding and no answer for
  // three call timeouts, is cancelled, and its paths are re-sent on a new
  // stream, to the live replica: every path answered once, as core says.
  const std::vector<std::string> flags = {"--workers=1"};
  auto live = MotiondProcess::Start("live", flags);
  auto frozen = MotiondProcess::Start("frozen", flags);
  motion::client::ClientOptions options;
  options.target = live->address() + "," + frozen->address();
  options.timeout = std::chrono::seconds(1);
  auto client = motion::client::MotionClient::Connect(options);
  Robot robot;
  robot.file = "ur5.urdf";
  robot.start = {0.3, -1.2, 1.5, -1.8, -1.5, 0.4};
  const std::string urdf = ReadRobot(robot.file);
  robot.robot_id = client->AddRobot(urdf);
  robot.core = std::make_unique<CoreRobot>(urdf);
  v1::RobotRef ref;
  ref.set_robot_id(robot.robot_id);
  const Program program = MakeProgram(robot, 0, 3);
  absl::StatusOr<motion::PathResult> core = robot.core->Plan(program.Core());
  ASSERT_TRUE(core.ok()) << core.status();
  std::vector<v1::ValidatePathRequest> requests(20);
  for (int i = 0; i < 20; ++i) {
    requests[i].set_request_id("frozen-" + std::to_string(i));
    *requests[i].mutable_path() = program.Request(ref);
  }
  // Both connections up before the freeze (a frozen process never finishes
  // a new HTTP/2 handshake, so round robin would just skip it): calls until
  // the replica to be frozen has answered one. Under load its handshake can
  // finish after the first few calls, which then all go to the live one (one
  // CI run saw 80 paths in 1.3 s, none on the frozen replica).
  const std::map<std::string, std::string> info_method = {{"grpc_method", "GetServerInfo"}};
  for (int i = 0;; ++i) {
    v1::GetServerInfoResponse info;
    ASSERT_TRUE(client->GetServerInfo(&info).ok());
    if (i >= 3 &&
        SumOfMetric(MetricsOrFail(*frozen), "grpc_server_msg_received_total", info_method) > 0) {
      break;
    }
    ASSERT_LT(i, 200) << "the second replica never answered";
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_EQ(kill(frozen->pid(), SIGSTOP), 0);
  std::map<std::string, int> deliveries;
  const auto start = Clock::now();
  // Round robin spreads the calls over both replicas, so one of the first
  // few streams lands on the frozen one; calls go on until one has (it
  // waits three call timeouts), at most 12. Under load the picker has been
  // seen to send four calls in a row to the live replica.
  int calls = 0;
  double longest = 0.0;
  for (; calls < 12 && longest < 3.0; ++calls) {
    for (auto& r : requests) {
      r.set_request_id("call" + std::to_string(calls) + "-" + r.request_id());
    }
    const auto call_start = Clock::now();
    const grpc::Status status = client->ValidatePaths(
        requests,
        [&](const v1::ValidatePathResponse& response) {
          ++deliveries[response.request_id()];
          EXPECT_EQ(response.ok(), core->ok) << response.ShortDebugString();
          EXPECT_EQ(response.cycle_time(), core->duration);
        },
        /*max_in_flight=*/8);
    EXPECT_TRUE(status.ok()) << Describe(status);
    longest = std::max(longest, std::chrono::duration<double>(Clock::now() - call_start).count());
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  EXPECT_EQ(deliveries.size(), 20u * static_cast<std::size_t>(calls));
  for (const auto& [id, n] : deliveries) EXPECT_EQ(n, 1) << id;
  std::printf("%d paths in %.1f s with one of two replicas frozen (the slowest call %.1f s)\n",
              20 * calls, seconds, longest);
  EXPECT_GE(longest, 3.0) << "no stream ever landed on the frozen replica";
  EXPECT_LT(longest, 20.0);
  kill(frozen->pid(), SIGCONT);
  client.reset();
  live->SendTerminate();
  frozen->SendTerminate();
  EXPECT_EQ(live->AwaitExit(), 0) << live->Log();
  EXPECT_EQ(frozen->AwaitExit(), 0) << frozen->Log();
}

}  // namespace
}  // namespace motiond_test
