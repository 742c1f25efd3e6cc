// The RPC log over real gRPC: an in-process motiond on a loopback
// port, its log captured by a sink in the test. One debug line per RPC for
// unary calls, a server stream (PlanPath) and a bidi stream (ValidatePath),
// with the robot_id prefix and the counts the client itself saw; warnings
// with the reason for rejected input (also inside a ValidatePath stream),
// for a full queue, info for an unknown robot; nothing at error level; JSON
// lines that a JSON parser (protobuf's) reads back field for field, for
// hostile strings too.

#include <condition_variable>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>
#include <grpcpp/generic/generic_stub.h>
#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include "../service/service_test_support.h"
#include "server/observability/log_format.h"
#include "server/runtime/solver_pool.h"

namespace motiond_test {
namespace {

using motion::server::LogFields;
using motion::server::LogFormat;

const std::vector<double> kUr5Start = {0.0, -1.5708, 1.5708, -1.5708, -1.5708, 0.0};

// Tool pointing down (as in clients/examples).
v1::Pose Down(double x, double y, double z) { return WirePose(x, y, z, 0, 1, 0, 0); }

// Captures the default logger's lines for one test and restores it after.
class CapturedLog {
 public:
  CapturedLog(spdlog::level::level_enum level, LogFormat format)
      : previous_(spdlog::default_logger()) {
    auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(stream_, /*force_flush=*/true);
    auto logger = std::make_shared<spdlog::logger>("", sink);
    spdlog::set_default_logger(logger);
    motion::server::ConfigureLogging(level, format);
  }
  ~CapturedLog() { spdlog::set_default_logger(previous_); }

  std::vector<std::string> Lines() const {
    std::vector<std::string> lines;
    std::istringstream in(stream_.str());
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
  }
  // Lines containing every one of `parts`.
  std::vector<std::string> Matching(const std::vector<std::string>& parts) const {
    std::vector<std::string> found;
    for (const std::string& line : Lines()) {
      bool all = true;
      for (const std::string& part : parts) all = all && line.find(part) != std::string::npos;
      if (all) found.push_back(line);
    }
    return found;
  }
  std::string All() const { return stream_.str(); }

 private:
  std::shared_ptr<spdlog::logger> previous_;
  std::ostringstream stream_;
};

// A JSON log line parsed by protobuf's JSON parser (independent of ours).
google::protobuf::Struct ParseJson(const std::string& line) {
  google::protobuf::Struct object;
  const auto status = google::protobuf::util::JsonStringToMessage(line, &object);
  EXPECT_TRUE(status.ok()) << status.ToString() << "\n" << line;
  return object;
}

class RpcLogTest : public ::testing::Test {
 protected:
  RpcLogTest()
      : stubs_(server_.NewChannel()),
        ur5_urdf_(ReadRobot("ur5.urdf")),
        ur5_id_(Sha256sumIdOfText(ur5_urdf_)),
        ur5_prefix_(ur5_id_.substr(0, 19)) {
    v1::RegisterRobotResponse registered;
    EXPECT_TRUE(stubs_.RegisterRobot(ur5_urdf_, &registered).ok());
  }

  v1::RobotRef Ur5() const {
    v1::RobotRef ref;
    ref.set_robot_id(ur5_id_);
    return ref;
  }

  v1::ComputeFkRequest Fk(int joints) const {
    v1::ComputeFkRequest request;
    *request.mutable_robot() = Ur5();
    for (int i = 0; i < joints; ++i) request.add_joints(0.1 * i);
    return request;
  }

  TestServer server_;
  Stubs stubs_;
  const std::string ur5_urdf_, ur5_id_, ur5_prefix_;
};

TEST_F(RpcLogTest, OneDebugLinePerUnaryRpcWithRobotAndCounts) {
  CapturedLog log(spdlog::level::debug, LogFormat::kText);
  v1::ComputeFkResponse fk;
  ASSERT_TRUE(stubs_.ComputeFk(Fk(6), &fk).ok());
  v1::ComputeIkRequest ik;
  *ik.mutable_robot() = Ur5();
  *ik.mutable_target() = Down(0.5, 0.2, 0.3);
  v1::IkResult ik_result;
  ASSERT_TRUE(stubs_.ComputeIk(ik, &ik_result).ok());
  ASSERT_TRUE(ik_result.ok());

  // Two reachable targets (FK of joint vectors) and one 10 m away.
  CoreRobot core(ur5_urdf_);
  v1::CheckReachabilityRequest batch;
  *batch.mutable_robot() = Ur5();
  ToProto(core.Fk({0.1, -1.2, 1.3, -1.5, -1.4, 0.2}), batch.add_targets());
  ToProto(core.Fk({-0.3, -1.0, 1.1, -1.2, -1.6, 0.0}), batch.add_targets());
  *batch.add_targets() = Down(10, 0, 0);
  v1::CheckReachabilityResponse reach;
  ASSERT_TRUE(stubs_.CheckReachability(batch, &reach).ok());
  int solved = 0;
  for (const auto& r : reach.results()) solved += r.ok() ? 1 : 0;
  ASSERT_EQ(solved, 2);

  const auto rpc = log.Matching({"[debug] rpc "});
  ASSERT_EQ(rpc.size(), 3u) << log.All();
  EXPECT_NE(rpc[0].find("rpc method=ComputeFk code=OK duration_ms="), std::string::npos) << rpc[0];
  EXPECT_NE(rpc[0].find(" robot=" + ur5_prefix_ + " joints=6"), std::string::npos) << rpc[0];
  EXPECT_NE(rpc[1].find("rpc method=ComputeIk code=OK"), std::string::npos) << rpc[1];
  EXPECT_NE(rpc[1].find("robot=" + ur5_prefix_ + " targets=1 solved=1 outcome=ok"),
            std::string::npos)
      << rpc[1];
  EXPECT_NE(rpc[2].find("rpc method=CheckReachability code=OK"), std::string::npos) << rpc[2];
  EXPECT_NE(rpc[2].find("robot=" + ur5_prefix_ + " targets=3 solved=2"), std::string::npos)
      << rpc[2];
  EXPECT_TRUE(log.Matching({"[warning]"}).empty()) << log.All();
}

TEST_F(RpcLogTest, OtherServicesAreLoggedByFullName) {
  CapturedLog log(spdlog::level::debug, LogFormat::kText);
  // grpc.health.v1.Health/Check with an empty HealthCheckRequest (overall health).
  grpc::GenericStub stub(server_.NewChannel());
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
  grpc::Slice empty("");
  const grpc::ByteBuffer request(&empty, 1);
  grpc::ByteBuffer response;
  std::mutex mutex;
  std::condition_variable done;
  bool finished = false;
  grpc::Status status;
  stub.UnaryCall(&context, "/grpc.health.v1.Health/Check", grpc::StubOptions(), &request, &response,
                 [&](grpc::Status s) {
                   std::lock_guard<std::mutex> lock(mutex);
                   status = std::move(s);
                   finished = true;
                   done.notify_one();
                 });
  {
    std::unique_lock<std::mutex> lock(mutex);
    done.wait(lock, [&] { return finished; });
  }
  ASSERT_TRUE(status.ok()) << Describe(status);
  const auto rpc = log.Matching({"rpc method=grpc.health.v1.Health/Check code=OK duration_ms="});
  EXPECT_EQ(rpc.size(), 1u) << log.All();
}

TEST_F(RpcLogTest, PlanPathStreamIsOneLineWithSegmentsAndPoints) {
  CapturedLog log(spdlog::level::debug, LogFormat::kText);
  Program program(kUr5Start);
  program.MoveJPose("approach", Down(0.40, 0.0, 0.25), 0.5)
      .MoveL("down", Down(0.40, 0.10, 0.20), 0.25)
      .MoveJ("home", {0.2, -1.4, 1.4, -1.5, -1.6, 0.1}, 0.5);
  const PlanPathCall call = CallPlanPath(stubs_.planner(), program.Request(Ur5()));
  ASSERT_TRUE(call.status.ok()) << Describe(call.status);
  ASSERT_TRUE(call.messages.front().has_header());
  const auto points = call.messages.front().header().point_count();
  ASSERT_GT(points, 0);

  const auto rpc = log.Matching({"rpc method=PlanPath"});
  ASSERT_EQ(rpc.size(), 1u) << log.All();
  EXPECT_NE(rpc[0].find("code=OK"), std::string::npos) << rpc[0];
  EXPECT_NE(rpc[0].find("robot=" + ur5_prefix_ + " segments=3 points=" + std::to_string(points) +
                        " ok=true"),
            std::string::npos)
      << rpc[0];
}

TEST_F(RpcLogTest, ValidatePathStreamCountsPathsAndWarnsForTheRejectedOne) {
  CapturedLog log(spdlog::level::debug, LogFormat::kText);
  Program good(kUr5Start);
  good.MoveL("down", Down(0.40, 0.10, 0.20), 0.25);
  v1::ValidatePathRequest a, b, bad;
  a.set_request_id("a");
  *a.mutable_path() = good.Request(Ur5());
  b.set_request_id("b");
  *b.mutable_path() = good.Request(Ur5());
  bad.set_request_id("bad");
  *bad.mutable_path() = good.Request(Ur5());
  bad.mutable_path()->set_sample_time(-1);  // malformed: this request only

  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
  auto stream = stubs_.planner().ValidatePath(&context);
  for (const auto* request : {&a, &bad, &b}) ASSERT_TRUE(stream->Write(*request));
  ASSERT_TRUE(stream->WritesDone());
  int answers = 0, rejected = 0;
  v1::ValidatePathResponse response;
  while (stream->Read(&response)) {
    ++answers;
    rejected += response.error_code() != 0 ? 1 : 0;
  }
  ASSERT_TRUE(stream->Finish().ok());
  ASSERT_EQ(answers, 3);
  ASSERT_EQ(rejected, 1);

  const auto rpc = log.Matching({"rpc method=ValidatePath"});
  ASSERT_EQ(rpc.size(), 1u) << log.All();
  EXPECT_NE(rpc[0].find("code=OK"), std::string::npos) << rpc[0];
  EXPECT_NE(rpc[0].find("segments=3 paths=3 paths_ok=2 paths_rejected=1"), std::string::npos)
      << rpc[0];
  const auto warnings =
      log.Matching({"[warning] rejected method=ValidatePath code=InvalidArgument request_id=bad"});
  ASSERT_EQ(warnings.size(), 1u) << log.All();
  EXPECT_NE(warnings[0].find("reason=\"sample_time"), std::string::npos) << warnings[0];
}

TEST_F(RpcLogTest, RejectedInputIsAWarningWithTheReasonAtInfoLevel) {
  CapturedLog log(spdlog::level::info, LogFormat::kText);
  v1::ComputeFkResponse fk;
  EXPECT_TRUE(stubs_.ComputeFk(Fk(6), &fk).ok());
  EXPECT_EQ(stubs_.ComputeFk(Fk(2), &fk).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  v1::ComputeIkRequest ik;
  *ik.mutable_robot() = Ur5();
  *ik.mutable_target() = WirePose(0.5, 0, 0.3, 0, 0, 0, 0);  // zero quaternion
  v1::IkResult ik_result;
  EXPECT_EQ(stubs_.ComputeIk(ik, &ik_result).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  v1::ComputeFkRequest unknown = Fk(6);
  unknown.mutable_robot()->set_robot_id("sha256:" + std::string(64, 'a'));
  EXPECT_EQ(stubs_.ComputeFk(unknown, &fk).error_code(), grpc::StatusCode::NOT_FOUND);
  v1::RegisterRobotResponse registered;
  EXPECT_EQ(stubs_.RegisterRobot("<robot name='x'><link name='a'/>", &registered).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);

  EXPECT_TRUE(log.Matching({"rpc method="}).empty()) << "debug lines at info level\n" << log.All();
  const auto fk_warning = log.Matching({"[warning] rejected method=ComputeFk"});
  ASSERT_EQ(fk_warning.size(), 1u) << log.All();
  EXPECT_NE(fk_warning[0].find("code=InvalidArgument robot=" + ur5_prefix_ +
                               " reason=\"joints: expected 6 values"),
            std::string::npos)
      << fk_warning[0];
  const auto ik_warning = log.Matching({"[warning] rejected method=ComputeIk"});
  ASSERT_EQ(ik_warning.size(), 1u) << log.All();
  EXPECT_NE(ik_warning[0].find("reason=\"target"), std::string::npos) << ik_warning[0];
  const auto urdf_warning = log.Matching({"[warning] rejected method=RegisterRobot"});
  ASSERT_EQ(urdf_warning.size(), 1u) << log.All();
  EXPECT_NE(urdf_warning[0].find("reason=\"urdf"), std::string::npos) << urdf_warning[0];
  const auto unknown_info = log.Matching({"[info] robot not registered method=ComputeFk"});
  ASSERT_EQ(unknown_info.size(), 1u) << log.All();
  EXPECT_NE(unknown_info[0].find("code=NotFound robot=sha256:aaaaaaaaaaaa reason="),
            std::string::npos)
      << unknown_info[0];
  EXPECT_EQ(log.Matching({"[warning]"}).size(), 3u) << log.All();
}

TEST_F(RpcLogTest, NothingBelowErrorWhenTheLevelIsError) {
  CapturedLog log(spdlog::level::err, LogFormat::kText);
  v1::ComputeFkResponse fk;
  EXPECT_TRUE(stubs_.ComputeFk(Fk(6), &fk).ok());
  EXPECT_FALSE(stubs_.ComputeFk(Fk(2), &fk).ok());
  EXPECT_EQ(log.All(), "");
}

// A gate occupying a solver thread until opened.
class Gate {
 public:
  void Wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    entered_ = true;
    cv_.notify_all();
    cv_.wait(lock, [this] { return open_; });
  }
  void AwaitEntered() {
    std::unique_lock<std::mutex> lock(mutex_);
    cv_.wait(lock, [this] { return entered_; });
  }
  void Open() {
    std::lock_guard<std::mutex> lock(mutex_);
    open_ = true;
    cv_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool entered_ = false, open_ = false;
};

TEST(RpcLogOverloadTest, AFullQueueIsAWarning) {
  auto options = TestServer::DefaultOptions();
  options.workers = 1;
  options.short_workers = 0;
  options.max_queue = 1;
  TestServer server(options);
  Stubs stubs(server.NewChannel());
  CapturedLog log(spdlog::level::info, LogFormat::kText);
  // One task runs (blocked), one waits in the short lane, where ComputeFk
  // goes: that lane is full.
  Gate running, queued;
  ASSERT_TRUE(server.server().pool().TrySubmit([&](motion::ChainDataCache&) { running.Wait(); }));
  running.AwaitEntered();
  ASSERT_TRUE(server.server().pool().TrySubmit([&](motion::ChainDataCache&) { queued.Wait(); },
                                               motion::server::Lane::kShort));
  v1::ComputeFkRequest request;
  request.mutable_robot()->set_urdf(ReadRobot("planar_2r.urdf"));
  request.add_joints(0);
  request.add_joints(0);
  v1::ComputeFkResponse response;
  const grpc::Status status = stubs.ComputeFk(request, &response);
  running.Open();
  queued.Open();
  ASSERT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << Describe(status);
  const auto refused = log.Matching({"[warning] refused method=ComputeFk code=ResourceExhausted"});
  ASSERT_EQ(refused.size(), 1u) << log.All();
  EXPECT_NE(refused[0].find("robot=inline"), std::string::npos) << refused[0];
  EXPECT_NE(refused[0].find("queue"), std::string::npos) << refused[0];
}

TEST_F(RpcLogTest, JsonLinesParseBackFieldForField) {
  CapturedLog log(spdlog::level::debug, LogFormat::kJson);
  v1::ComputeFkResponse fk;
  ASSERT_TRUE(stubs_.ComputeFk(Fk(6), &fk).ok());
  ASSERT_FALSE(stubs_.ComputeFk(Fk(3), &fk).ok());

  const auto lines = log.Lines();
  ASSERT_EQ(lines.size(), 3u) << log.All();  // rpc OK, warning, rpc InvalidArgument
  const auto ok = ParseJson(lines[0]).fields();
  EXPECT_EQ(ok.at("level").string_value(), "debug");
  EXPECT_EQ(ok.at("msg").string_value(), "rpc");
  EXPECT_EQ(ok.at("method").string_value(), "ComputeFk");
  EXPECT_EQ(ok.at("code").string_value(), "OK");
  EXPECT_EQ(ok.at("robot").string_value(), ur5_prefix_);
  EXPECT_EQ(ok.at("joints").number_value(), 6);
  EXPECT_GT(ok.at("duration_ms").number_value(), 0);
  EXPECT_TRUE(ok.at("thread").has_number_value());
  EXPECT_EQ(ok.at("time").string_value().size(), std::string("2026-01-02T03:04:05.678901Z").size())
      << ok.at("time").string_value();
  const auto warning = ParseJson(lines[1]).fields();
  EXPECT_EQ(warning.at("level").string_value(), "warning");
  EXPECT_EQ(warning.at("msg").string_value(), "rejected");
  EXPECT_EQ(warning.at("code").string_value(), "InvalidArgument");
  EXPECT_EQ(warning.at("reason").string_value().rfind("joints: expected 6 values", 0), 0u)
      << lines[1];
  const auto failed = ParseJson(lines[2]).fields();
  EXPECT_EQ(failed.at("joints").number_value(), 3);
  EXPECT_EQ(failed.at("error").string_value(), warning.at("reason").string_value());
}

TEST(LogFormatTest, HostileStringsStayOneValidJsonLine) {
  CapturedLog log(spdlog::level::info, LogFormat::kJson);
  // Quotes, backslash, newline, a control byte, valid UTF-8 and a byte that
  // is not UTF-8 (as a URDF fragment in an error message could be).
  const std::string hostile = "a \"b\" \\ c\nd\x01 é 中 \xff end";
  motion::server::LogWithFields(
      spdlog::level::warn, hostile,
      LogFields().Add("reason", hostile).Add("n", 42).Add("x", 0.5).Add("flag", true));
  const auto lines = log.Lines();
  ASSERT_EQ(lines.size(), 1u) << log.All();
  const auto object = ParseJson(lines[0]).fields();
  const std::string expected = "a \"b\" \\ c\nd\x01 é 中 \xEF\xBF\xBD end";  // U+FFFD
  EXPECT_EQ(object.at("msg").string_value(), expected);
  EXPECT_EQ(object.at("reason").string_value(), expected);
  EXPECT_EQ(object.at("n").number_value(), 42);
  EXPECT_EQ(object.at("x").number_value(), 0.5);
  EXPECT_TRUE(object.at("flag").bool_value());
}

TEST(LogFormatTest, TextLinesAreLogfmt) {
  CapturedLog log(spdlog::level::info, LogFormat::kText);
  motion::server::LogWithFields(spdlog::level::info, "event",
                                LogFields()
                                    .Add("plain", "value")
                                    .Add("spaced", "two words")
                                    .Add("quoted", "say \"hi\"")
                                    .Add("empty", "")
                                    .Add("n", 7));
  const auto lines = log.Lines();
  ASSERT_EQ(lines.size(), 1u);
  const std::string tail =
      "] [info] event plain=value spaced=\"two words\" "
      "quoted=\"say \\\"hi\\\"\" empty=\"\" n=7";
  ASSERT_GE(lines[0].size(), tail.size());
  EXPECT_EQ(lines[0].substr(lines[0].size() - tail.size()), tail) << lines[0];
  EXPECT_EQ(lines[0][0], '[');
}

}  // namespace
}  // namespace motiond_test
