// ValidatePath over real gRPC: many paths for two robots on one stream,
// each answered exactly once under its request_id with the verdict core's
// PlanPath (run in the test on the same program) gives, and with what
// PlanPath over gRPC says for a sample of them; per-request errors that do
// not end the stream (duplicate id, malformed path, unknown robot);
// half-close; and flow control.
//
// Races are made deterministic instead of timed: a PoolGate occupies the
// only solver worker, so the test decides when queued paths may run.

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "../common/test_scale.h"
#include "core/model/joint_limit_overrides.h"
#include "server/runtime/solver_pool.h"
#include "service_test_support.h"

namespace motiond_test {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

using Stream = grpc::ClientReaderWriter<v1::ValidatePathRequest, v1::ValidatePathResponse>;

// Blocks one solver worker until opened (or destroyed), so that work queued
// behind it waits for the test.
class PoolGate {
 public:
  explicit PoolGate(motion::server::SolverPool& pool) {
    const bool queued = pool.TrySubmit([this](motion::ChainDataCache&) {
      std::unique_lock<std::mutex> lock(mutex_);
      running_ = true;
      cv_.notify_all();
      cv_.wait(lock, [this] { return open_; });
      running_ = false;
      done_ = true;
      cv_.notify_all();
    });
    if (!queued) throw std::runtime_error("PoolGate: the pool refused the task");
    std::unique_lock<std::mutex> lock(mutex_);
    cv_.wait(lock, [this] { return running_; });
  }
  ~PoolGate() {
    Open();
    std::unique_lock<std::mutex> lock(mutex_);
    cv_.wait(lock, [this] { return done_; });
  }
  void Open() {
    std::lock_guard<std::mutex> lock(mutex_);
    open_ = true;
    cv_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool running_ = false, open_ = false, done_ = false;
};

// One robot of the test: its id on the server and core in the test.
struct Robot {
  std::string name;
  std::string robot_id;
  std::unique_ptr<CoreRobot> core;
  std::vector<double> start;
};

// Seven program shapes; `variant` changes lengths so programs differ.
// 0-2 are good on both robots; 3-5 cannot be done (unreachable target, via
// at the start, collinear arc); 6 can, but breaks acceleration limits (a
// 15 mm arc at 0.5 m/s).
constexpr int kShapes = 7;
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
          .MoveL("up", shifted(2 * d, 0, 0.05));
      break;
    case 2: {
      std::vector<double> swung = robot.start;
      swung[0] += 0.2 + 0.01 * variant;
      Eigen::Isometry3d after = robot.core->Fk(swung);
      after.translation().z() += 0.02;
      program.MoveJ("swing", swung, 0.3).MoveL("nudge", WirePose(after));
      break;
    }
    case 3: {
      Eigen::Isometry3d far = start;
      far.translation() = Eigen::Vector3d(2.0 + d, 0.5, 0.3);
      program.MoveL("line", shifted(d, 0, 0)).MoveL("too_far", WirePose(far));
      break;
    }
    case 4:
      program.MoveC("via_at_start", WirePose(start), shifted(d, 0, 0));
      break;
    case 5:
      program.MoveC("collinear", shifted(d, 0, 0), shifted(2 * d, 0, 0));
      break;
    default:
      program.MoveC("tight_arc", shifted(0.015, 0.015, 0), shifted(0.03, 0, 0), 0.5);
      break;
  }
  return program;
}

v1::ValidatePathRequest Request(const std::string& id, const v1::PlanPathRequest& path) {
  v1::ValidatePathRequest request;
  request.set_request_id(id);
  *request.mutable_path() = path;
  return request;
}

// The verdict ValidatePath must give: what core's PlanPath says.
::testing::AssertionResult SameVerdict(const v1::ValidatePathResponse& got,
                                       const motion::PathResult& core) {
  std::string diff;
  if (got.error_code() != 0) diff += " error_code " + std::to_string(got.error_code());
  if (got.ok() != core.ok) diff += " ok";
  if (got.reachable() != ReachableVerdict(core)) diff += " reachable";
  if (got.cycle_time() != core.duration) diff += " cycle_time";
  if (got.segment_reports_size() != static_cast<int>(core.segments.size())) {
    diff += " segment count";
  } else {
    for (std::size_t i = 0; i < core.segments.size(); ++i) {
      const auto& r = got.segment_reports(static_cast<int>(i));
      const motion::SegmentReport& c = core.segments[i];
      if (r.segment_id() != c.segment_id || r.ok() != c.ok || r.point_count() != c.point_count ||
          CodesOf(r.diagnostics()) != CodesOf(c.diagnostics)) {
        diff += " segment_reports[" + std::to_string(i) + "]";
      }
    }
  }
  if (CodesOf(got.diagnostics()) != CodesOf(core.diagnostics)) diff += " diagnostic codes";
  if (!diff.empty()) {
    return ::testing::AssertionFailure()
           << "'" << got.request_id() << "' differs from core in:" << diff
           << "\n  got: " << got.ShortDebugString();
  }
  return ::testing::AssertionSuccess();
}

struct StreamOutcome {
  grpc::Status status;
  std::vector<v1::ValidatePathResponse> answers;  // in arrival order
  bool all_written = false;
};

// Writes every request from a second thread (as fast as the stream takes
// them), half-closes, and reads every answer on this one.
StreamOutcome RunStream(v1::MotionPlanner::Stub& stub,
                        const std::vector<v1::ValidatePathRequest>& requests,
                        std::chrono::seconds deadline = std::chrono::seconds(60)) {
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + deadline);
  std::unique_ptr<Stream> stream = stub.ValidatePath(&context);
  StreamOutcome outcome;
  std::thread writer([&] {
    bool ok = true;
    for (const auto& request : requests) {
      if (!(ok = stream->Write(request))) break;
    }
    outcome.all_written = ok && stream->WritesDone();
  });
  v1::ValidatePathResponse answer;
  while (stream->Read(&answer)) outcome.answers.push_back(answer);
  writer.join();
  outcome.status = stream->Finish();
  return outcome;
}

// request_id -> answers with that id.
std::map<std::string, std::vector<v1::ValidatePathResponse>> ById(
    const std::vector<v1::ValidatePathResponse>& answers) {
  std::map<std::string, std::vector<v1::ValidatePathResponse>> out;
  for (const auto& a : answers) out[a.request_id()].push_back(a);
  return out;
}

class ValidatePathServiceTest : public ::testing::Test {
 protected:
  explicit ValidatePathServiceTest(
      motion::server::ServerOptions options = TestServer::DefaultOptions())
      : server_(options) {
    ur5_ = MakeRobot("ur5.urdf", {0.3, -1.2, 1.5, -1.8, -1.5, 0.4});
    panda_ = MakeRobot("panda.urdf", {0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785});
  }

  Robot MakeRobot(const std::string& file, std::vector<double> start) {
    Robot robot;
    robot.name = file;
    v1::RegisterRobotResponse response;
    const grpc::Status status = stubs_.RegisterRobot(ReadRobot(file), &response);
    EXPECT_TRUE(status.ok()) << file << ": " << Describe(status);
    robot.robot_id = response.robot_id();
    robot.core = std::make_unique<CoreRobot>(ReadRobot(file));
    robot.start = std::move(start);
    return robot;
  }

  static v1::RobotRef Ref(const Robot& robot) {
    v1::RobotRef ref;
    ref.set_robot_id(robot.robot_id);
    return ref;
  }

  motion::PathResult CorePlan(Robot& robot, const Program& program,
                              const std::vector<motion::JointLimitOverride>& overrides = {}) {
    motion::PathRequest request = program.Core();
    if (!overrides.empty()) {
      auto limits = motion::ApplyJointLimitOverrides(robot.core->chain(), overrides, "limits");
      EXPECT_TRUE(limits.ok()) << limits.status();
      if (limits.ok()) request.joint_limits = *limits;
    }
    absl::StatusOr<motion::PathResult> result = robot.core->Plan(request);
    EXPECT_TRUE(result.ok()) << result.status();
    return result.ok() ? *std::move(result) : motion::PathResult{};
  }

  // Every joint at the documented default acceleration, 2 x its velocity per second, and jerk,
  // 10 x that, asked for explicitly: the arms' own (from their efforts) follow the tight arc.
  static std::vector<motion::JointLimitOverride> DefaultAccelerations(const Robot& robot) {
    std::vector<motion::JointLimitOverride> overrides;
    const motion::ChainModel& chain = robot.core->chain();
    for (int i = 0; i < chain.dof(); ++i) {
      const double a = motion::kDefaultAccelerationPerVelocity * chain.dof_limits[i].max_velocity;
      overrides.push_back(
          {chain.dof_names[i], 0.0, a, motion::kDefaultJerkPerAcceleration * a, 0.0});
    }
    return overrides;
  }

  static v1::RobotRef RefWith(const Robot& robot,
                              const std::vector<motion::JointLimitOverride>& overrides) {
    v1::RobotRef ref = Ref(robot);
    for (const motion::JointLimitOverride& o : overrides) {
      v1::JointLimitOverride* wire = ref.add_joint_limits();
      wire->set_joint_name(o.joint_name);
      wire->set_max_acceleration(o.max_acceleration);
      wire->set_max_jerk(o.max_jerk);
    }
    return ref;
  }

  TestServer server_;
  Stubs stubs_{server_.NewChannel()};
  Robot ur5_, panda_;
};

motion::server::ServerOptions WithStreamLimit(int workers, int max_in_flight) {
  auto options = TestServer::DefaultOptions();
  options.workers = workers;
  options.limits.stream_max_in_flight = max_in_flight;
  return options;
}

class SingleWorkerTest : public ValidatePathServiceTest {
 protected:
  SingleWorkerTest() : ValidatePathServiceTest(WithStreamLimit(1, 16)) {}
};

class InFlightLimitTwoTest : public ValidatePathServiceTest {
 protected:
  InFlightLimitTwoTest() : ValidatePathServiceTest(WithStreamLimit(1, 2)) {}
};

// ------------------------------------------------------------ many paths --

TEST_F(ValidatePathServiceTest, FiveHundredPathsForTwoRobotsEachAnsweredOnceAsCoreSays) {
  const int kPaths = motiond_test_scale::ScaledCount(500);
  std::vector<v1::ValidatePathRequest> requests;
  std::map<std::string, motion::PathResult> expected;
  for (int i = 0; i < kPaths; ++i) {
    Robot& robot = i % 2 == 0 ? ur5_ : panda_;
    const int shape = (i / 2) % kShapes;
    const Program program = MakeProgram(robot, shape, (i / (2 * kShapes)) % 25);
    const std::string id = "path-" + std::to_string(i);
    const std::vector<motion::JointLimitOverride> overrides =
        shape >= 6 ? DefaultAccelerations(robot) : std::vector<motion::JointLimitOverride>{};
    requests.push_back(Request(id, program.Request(RefWith(robot, overrides))));
    const motion::PathResult& core = expected[id] = CorePlan(robot, program, overrides);
    // The mix really mixes (checked on core, which the answers must equal).
    if (shape < 3) {
      EXPECT_TRUE(core.ok) << id << " should be a good program";
    } else if (shape < 6) {
      EXPECT_FALSE(ReachableVerdict(core)) << id << " should not be doable";
    } else {
      // Too fast for the joints (at the default accelerations) as programmed:
      // planned slower, with a SPEED_REDUCED warning instead of a limit error.
      EXPECT_TRUE(core.ok) << id << ": "
                           << (core.diagnostics.empty() ? "" : core.diagnostics[0].message);
      const std::vector<int> codes = CodesOf(core.diagnostics);
      EXPECT_NE(std::find(codes.begin(), codes.end(), static_cast<int>(v1::SPEED_REDUCED)),
                codes.end())
          << id;
    }
  }

  const StreamOutcome outcome = RunStream(stubs_.planner(), requests);
  ASSERT_TRUE(outcome.status.ok()) << Describe(outcome.status);
  EXPECT_TRUE(outcome.all_written);
  ASSERT_EQ(outcome.answers.size(), static_cast<std::size_t>(kPaths));
  const auto by_id = ById(outcome.answers);
  ASSERT_EQ(by_id.size(), static_cast<std::size_t>(kPaths)) << "an id answered twice";
  for (const auto& [id, core] : expected) {
    const auto it = by_id.find(id);
    ASSERT_NE(it, by_id.end()) << id << " never answered";
    ASSERT_EQ(it->second.size(), 1u) << id;
    EXPECT_TRUE(SameVerdict(it->second.front(), core));
  }
  // PlanPath over gRPC agrees on a sample (every shape on both robots).
  for (int i = 0; i < 2 * kShapes; ++i) {
    const PlanPathCall call = CallPlanPath(stubs_.planner(), requests[i].path());
    ASSERT_TRUE(call.status.ok()) << Describe(call.status);
    ASSERT_NE(call.summary(), nullptr);
    const auto& answer = by_id.at(requests[i].request_id()).front();
    EXPECT_EQ(answer.ok(), call.summary()->ok()) << answer.request_id();
    EXPECT_EQ(answer.cycle_time(), call.summary()->duration()) << answer.request_id();
    EXPECT_EQ(answer.segment_reports_size(), static_cast<int>(call.reports().size()));
    EXPECT_EQ(CodesOf(answer.diagnostics()), CodesOf(call.summary()->diagnostics()));
  }
}

// ------------------------------------------------------ per-request errors --

TEST_F(SingleWorkerTest, DuplicateRequestIdInFlightIsRefusedAndTheStreamGoesOn) {
  const Program program = MakeProgram(ur5_, 0, 3);
  const Program other = MakeProgram(panda_, 1, 4);
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
  std::unique_ptr<Stream> stream = stubs_.planner().ValidatePath(&context);
  v1::ValidatePathResponse answer;
  {
    // The one worker is busy: "first" stays in flight until the gate opens.
    PoolGate gate(server_.server().pool());
    ASSERT_TRUE(stream->Write(Request("first", program.Request(Ref(ur5_)))));
    ASSERT_TRUE(stream->Write(Request("first", other.Request(Ref(panda_)))));
    ASSERT_TRUE(stream->Read(&answer));
    EXPECT_EQ(answer.request_id(), "first");
    EXPECT_EQ(answer.error_code(), static_cast<int>(grpc::StatusCode::INVALID_ARGUMENT));
    EXPECT_NE(answer.error_message().find("first"), std::string::npos) << answer.error_message();
    EXPECT_FALSE(answer.ok());
  }
  // The original still gets its verdict, and it is the original's.
  ASSERT_TRUE(stream->Read(&answer));
  EXPECT_EQ(answer.request_id(), "first");
  EXPECT_TRUE(SameVerdict(answer, CorePlan(ur5_, program)));
  // The stream goes on.
  ASSERT_TRUE(stream->Write(Request("second", other.Request(Ref(panda_)))));
  ASSERT_TRUE(stream->Read(&answer));
  EXPECT_EQ(answer.request_id(), "second");
  EXPECT_TRUE(SameVerdict(answer, CorePlan(panda_, other)));
  ASSERT_TRUE(stream->WritesDone());
  EXPECT_FALSE(stream->Read(&answer));
  const grpc::Status status = stream->Finish();
  EXPECT_TRUE(status.ok()) << Describe(status);
}

TEST_F(ValidatePathServiceTest, AnIdIsFreeAgainOnceItsAnswerArrived) {
  // A client that has its answer may reuse the id at once: the request is no
  // longer in flight for it, so the server must not call the reuse a
  // duplicate (whatever its own write bookkeeping still has to do).
  const Program program = MakeProgram(panda_, 0, 7);
  const motion::PathResult core = CorePlan(panda_, program);
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
  std::unique_ptr<Stream> stream = stubs_.planner().ValidatePath(&context);
  v1::ValidatePathResponse answer;
  for (int round = 0; round < 30; ++round) {
    ASSERT_TRUE(stream->Write(Request("again", program.Request(Ref(panda_)))));
    ASSERT_TRUE(stream->Read(&answer));
    ASSERT_EQ(answer.request_id(), "again");
    ASSERT_TRUE(SameVerdict(answer, core)) << "round " << round;
  }
  ASSERT_TRUE(stream->WritesDone());
  EXPECT_FALSE(stream->Read(&answer));
  const grpc::Status status = stream->Finish();
  EXPECT_TRUE(status.ok()) << Describe(status);
}

TEST_F(ValidatePathServiceTest, MalformedPathGetsAnErrorCodeForItsIdOnly) {
  const Program good = MakeProgram(ur5_, 0, 1);
  v1::PlanPathRequest malformed = good.Request(Ref(ur5_));
  malformed.mutable_segments(0)->mutable_movel()->mutable_target()->mutable_position()->set_x(kNaN);
  const StreamOutcome outcome = RunStream(
      stubs_.planner(), {Request("good-1", good.Request(Ref(ur5_))), Request("nan", malformed),
                         Request("good-2", good.Request(Ref(ur5_)))});
  ASSERT_TRUE(outcome.status.ok()) << Describe(outcome.status);
  const auto by_id = ById(outcome.answers);
  ASSERT_EQ(outcome.answers.size(), 3u);
  ASSERT_EQ(by_id.size(), 3u);
  const auto& nan = by_id.at("nan").front();
  EXPECT_EQ(nan.error_code(), static_cast<int>(grpc::StatusCode::INVALID_ARGUMENT));
  EXPECT_NE(nan.error_message().find("segments[0].movel.target.position"), std::string::npos)
      << nan.error_message();
  EXPECT_FALSE(nan.ok());
  const motion::PathResult core = CorePlan(ur5_, good);
  EXPECT_TRUE(SameVerdict(by_id.at("good-1").front(), core));
  EXPECT_TRUE(SameVerdict(by_id.at("good-2").front(), core));
}

TEST_F(ValidatePathServiceTest, UnknownRobotIdIsNotFoundAndTheUrdfResendWorks) {
  // UR10 is bundled but not registered on this server.
  const std::string urdf = ReadRobot("ur10.urdf");
  v1::RobotRef unknown;
  unknown.set_robot_id(Sha256sumId(RobotPath("ur10.urdf")));
  Program program(std::vector<double>(6, 0.0));
  program.MoveJ("nudge", {0.1, -0.2, 0.3, -0.1, 0.2, 0.1});
  v1::RobotRef with_urdf = unknown;
  with_urdf.set_urdf(urdf);
  const StreamOutcome outcome =
      RunStream(stubs_.planner(), {Request("unknown", program.Request(unknown)),
                                   Request("ur5", MakeProgram(ur5_, 0, 0).Request(Ref(ur5_)))});
  ASSERT_TRUE(outcome.status.ok()) << Describe(outcome.status);
  const auto by_id = ById(outcome.answers);
  ASSERT_EQ(by_id.size(), 2u);
  const auto& missing = by_id.at("unknown").front();
  EXPECT_EQ(missing.error_code(), static_cast<int>(grpc::StatusCode::NOT_FOUND));
  EXPECT_EQ(missing.error_reason(), "ROBOT_NOT_REGISTERED");
  EXPECT_FALSE(missing.ok());
  EXPECT_TRUE(SameVerdict(by_id.at("ur5").front(), CorePlan(ur5_, MakeProgram(ur5_, 0, 0))));

  // What the client library does next: the same request with the URDF.
  const StreamOutcome resent =
      RunStream(stubs_.planner(), {Request("unknown", program.Request(with_urdf))});
  ASSERT_TRUE(resent.status.ok()) << Describe(resent.status);
  ASSERT_EQ(resent.answers.size(), 1u);
  CoreRobot ur10(urdf);
  const absl::StatusOr<motion::PathResult> core = ur10.Plan(program.Core());
  ASSERT_TRUE(core.ok()) << core.status();
  EXPECT_TRUE(core->ok);
  EXPECT_TRUE(SameVerdict(resent.answers.front(), *core));
}

// --------------------------------------------------------- stream ends --

TEST_F(ValidatePathServiceTest, HalfCloseEndsWithOkOnceEveryAnswerArrived) {
  std::vector<v1::ValidatePathRequest> requests;
  for (int i = 0; i < 20; ++i) {
    Robot& robot = i % 2 ? panda_ : ur5_;
    requests.push_back(
        Request("r" + std::to_string(i), MakeProgram(robot, i % kShapes, i).Request(Ref(robot))));
  }
  const StreamOutcome outcome = RunStream(stubs_.planner(), requests);
  EXPECT_TRUE(outcome.status.ok()) << Describe(outcome.status);
  EXPECT_TRUE(outcome.all_written);
  EXPECT_EQ(outcome.answers.size(), 20u);
  EXPECT_EQ(ById(outcome.answers).size(), 20u);

  // Nothing written: the half-close alone ends the stream.
  const StreamOutcome empty = RunStream(stubs_.planner(), {});
  EXPECT_TRUE(empty.status.ok()) << Describe(empty.status);
  EXPECT_TRUE(empty.answers.empty());
}

// --------------------------------------------------------- flow control --

TEST_F(InFlightLimitTwoTest, ClientKeepsWritingAndEveryAnswerArrivesOnce) {
  std::vector<v1::ValidatePathRequest> requests;
  std::map<std::string, motion::PathResult> expected;
  for (int i = 0; i < 120; ++i) {
    Robot& robot = i % 2 ? panda_ : ur5_;
    const Program program = MakeProgram(robot, (i / 2) % kShapes, i % 25);
    const std::string id = "f" + std::to_string(i);
    requests.push_back(Request(id, program.Request(Ref(robot))));
    expected[id] = CorePlan(robot, program);
  }
  const StreamOutcome outcome = RunStream(stubs_.planner(), requests);
  ASSERT_TRUE(outcome.status.ok()) << Describe(outcome.status);
  EXPECT_TRUE(outcome.all_written);
  ASSERT_EQ(outcome.answers.size(), requests.size());
  const auto by_id = ById(outcome.answers);
  ASSERT_EQ(by_id.size(), requests.size());
  for (const auto& [id, core] : expected) {
    ASSERT_EQ(by_id.at(id).size(), 1u) << id;
    EXPECT_TRUE(SameVerdict(by_id.at(id).front(), core));
  }
}

TEST_F(InFlightLimitTwoTest, NoThirdRequestIsReadWhileTwoAreUnanswered) {
  // With the worker held, "a" and "b" are read and wait on the pool. Had the
  // server read the third message ("a" again) before answering one of them,
  // it would be a duplicate of an id in flight and be refused at once. With
  // at most two unanswered, it is read only after "a" (first in the pool's
  // FIFO) has been answered, so it is planned like any other request.
  const Program a = MakeProgram(ur5_, 0, 2);
  const Program b = MakeProgram(panda_, 2, 2);
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
  std::unique_ptr<Stream> stream = stubs_.planner().ValidatePath(&context);
  {
    PoolGate gate(server_.server().pool());
    ASSERT_TRUE(stream->Write(Request("a", a.Request(Ref(ur5_)))));
    ASSERT_TRUE(stream->Write(Request("b", b.Request(Ref(panda_)))));
    ASSERT_TRUE(stream->Write(Request("a", a.Request(Ref(ur5_)))));
    ASSERT_TRUE(stream->WritesDone());
    // Both first requests reach the pool while the gate is closed.
    for (int wait = 0; wait < 500 && server_.server().pool().queue_depth() < 2; ++wait) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    EXPECT_EQ(server_.server().pool().queue_depth(), 2u);
  }
  std::vector<v1::ValidatePathResponse> answers;
  v1::ValidatePathResponse answer;
  while (stream->Read(&answer)) answers.push_back(answer);
  const grpc::Status status = stream->Finish();
  ASSERT_TRUE(status.ok()) << Describe(status);
  ASSERT_EQ(answers.size(), 3u);
  EXPECT_EQ(answers[0].request_id(), "a");
  const motion::PathResult core_a = CorePlan(ur5_, a);
  const motion::PathResult core_b = CorePlan(panda_, b);
  int a_count = 0;
  for (const auto& got : answers) {
    EXPECT_EQ(got.error_code(), 0) << got.ShortDebugString();
    EXPECT_TRUE(SameVerdict(got, got.request_id() == "a" ? core_a : core_b));
    a_count += got.request_id() == "a" ? 1 : 0;
  }
  EXPECT_EQ(a_count, 2);
}

TEST_F(ValidatePathServiceTest, LimitOfOneReadsTheNextRequestOnlyAfterAnswering) {
  // Deterministic without a gate: with one unanswered request at most, the
  // second "x" is read after the first is answered, so it is never a
  // duplicate. (The default limit, 16, refuses it: see the duplicate test.)
  TestServer single(WithStreamLimit(2, 1));
  Stubs stubs(single.NewChannel());
  const Program program = MakeProgram(ur5_, 1, 5);
  v1::RobotRef inline_ref = Ref(ur5_);
  inline_ref.set_urdf(ReadRobot("ur5.urdf"));
  const StreamOutcome outcome =
      RunStream(stubs.planner(), {Request("x", program.Request(inline_ref)),
                                  Request("x", program.Request(inline_ref)),
                                  Request("y", program.Request(inline_ref))});
  ASSERT_TRUE(outcome.status.ok()) << Describe(outcome.status);
  ASSERT_EQ(outcome.answers.size(), 3u);
  const motion::PathResult core = CorePlan(ur5_, program);
  for (const auto& got : outcome.answers) EXPECT_TRUE(SameVerdict(got, core));
  // One at a time also means in order.
  EXPECT_EQ(outcome.answers[0].request_id(), "x");
  EXPECT_EQ(outcome.answers[1].request_id(), "x");
  EXPECT_EQ(outcome.answers[2].request_id(), "y");
}

}  // namespace
}  // namespace motiond_test

namespace motiond_test {
namespace {

TEST_F(ValidatePathServiceTest, TargetOnlyReachableOutsideTheJointLimitsIsNotReachable) {
  // UR5 elbow limited to +-pi: a joint target at 3.5 rad is outside.
  Program program(ur5_.start);
  std::vector<double> outside = ur5_.start;
  outside[2] = 3.5;
  program.MoveJ("too_far_round", outside);
  const StreamOutcome outcome =
      RunStream(stubs_.planner(), {Request("limits", program.Request(Ref(ur5_)))});
  ASSERT_TRUE(outcome.status.ok()) << Describe(outcome.status);
  ASSERT_EQ(outcome.answers.size(), 1u);
  const v1::ValidatePathResponse& r = outcome.answers[0];
  EXPECT_FALSE(r.ok());
  EXPECT_FALSE(r.reachable()) << "a target outside the joint limits is not reachable";
  const std::vector<int> codes = CodesOf(r.diagnostics());
  EXPECT_NE(std::find(codes.begin(), codes.end(), static_cast<int>(v1::JOINT_LIMIT)), codes.end());
}

}  // namespace
}  // namespace motiond_test

namespace motiond_test {
namespace {

TEST_F(ValidatePathServiceTest, ABadRobotModelInAStreamRequestIsInvalidModel) {
  // An inline URDF that is refused: the answer names the field, carries an
  // INVALID_MODEL finding, and echoes no printf directive.
  Program program(ur5_.start);
  program.MoveJ("j", ur5_.start);
  v1::PlanPathRequest path = program.Request(Ref(ur5_));
  path.mutable_robot()->clear_robot_id();
  path.mutable_robot()->set_urdf(
      "<robot name=\"r\"><link name=\"a\"><visual><origin xyz=\"%s%n\"/></visual></link></robot>");
  const StreamOutcome outcome = RunStream(stubs_.planner(), {Request("bad_model", path)});
  ASSERT_TRUE(outcome.status.ok()) << Describe(outcome.status);
  ASSERT_EQ(outcome.answers.size(), 1u);
  const v1::ValidatePathResponse& r = outcome.answers[0];
  EXPECT_FALSE(r.ok());
  EXPECT_FALSE(r.reachable());
  EXPECT_EQ(r.error_code(), static_cast<int>(grpc::StatusCode::INVALID_ARGUMENT));
  EXPECT_EQ(r.error_message().rfind("path.robot.urdf: ", 0), 0u) << r.error_message();
  EXPECT_EQ(r.error_message().find('%'), std::string::npos) << r.error_message();
  const std::vector<int> codes = CodesOf(r.diagnostics());
  EXPECT_NE(std::find(codes.begin(), codes.end(), static_cast<int>(v1::INVALID_MODEL)),
            codes.end());
}

}  // namespace
}  // namespace motiond_test
