// Hostile URDFs against the real motiond binary, over its gRPC port.
//
// Debian 12's urdfdom 3.0.1 passed parse-error text to printf as a format
// string (one RegisterRobot with "%s%s..." in an origin killed the process;
// "%p" copied addresses into the reply), and never freed its link tree when
// the joints formed a cycle (~690 bytes a request, for good). These tests
// send those inputs to a running server and watch the process: it must stay
// up and answer, refuse each input with INVALID_ARGUMENT naming the field,
// never echo a directive or an address, and keep its resident memory flat.

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include "hostile_urdf.h"
#include "motiond_process.h"
#include "service_test_support.h"

namespace motiond_test {
namespace {

using motiond_fleet::MotiondProcess;

// The acceptance bound for 20 000 cyclic URDFs; today's figure is printed.
constexpr long kCyclicGrowthBoundKb = 2 * 1024;
constexpr int kCyclicRequests = 20000;

std::string Lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

class HostileUrdfTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = MotiondProcess::Start("hostile_urdf", {"--workers=2"});
    channel_ = grpc::CreateChannel(server_->address(), grpc::InsecureChannelCredentials());
    stubs_ = std::make_unique<Stubs>(channel_);
  }

  // Refused with INVALID_ARGUMENT on the urdf field, naming `words`, with
  // no directive or address in the message; the process is still running.
  void ExpectRefused(const HostileUrdf& input) {
    SCOPED_TRACE(input.label);
    v1::RegisterRobotResponse response;
    const grpc::Status status = stubs_->RegisterRobot(input.urdf, &response);
    ASSERT_TRUE(server_->Running()) << "motiond died on: " << input.label << "\n" << server_->Log();
    ASSERT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << Describe(status);
    const std::string message = status.error_message();
    EXPECT_EQ(message.rfind("urdf: ", 0), 0u) << message;
    EXPECT_FALSE(LooksLikeFormatOutput(message)) << message;
    for (const std::string& word : input.field_words) {
      EXPECT_NE(Lower(message).find(word), std::string::npos)
          << "message does not name '" << word << "': " << message;
    }
  }

  // A normal request still works: the bundled UR5 registers and answers FK.
  void ExpectStillServing() {
    v1::RegisterRobotResponse registered;
    ASSERT_TRUE(stubs_->RegisterRobot(ReadRobot("ur5.urdf"), &registered).ok());
    v1::ComputeFkRequest fk;
    fk.mutable_robot()->set_robot_id(registered.robot_id());
    for (int i = 0; i < 6; ++i) fk.add_joints(0.0);
    v1::ComputeFkResponse pose;
    const grpc::Status status = stubs_->ComputeFk(fk, &pose);
    ASSERT_TRUE(status.ok()) << Describe(status);
    EXPECT_NEAR(pose.flange().position().x(), 0.81725, 1e-6);  // UR5 DH zero pose
  }

  std::unique_ptr<MotiondProcess> server_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<Stubs> stubs_;
};

TEST_F(HostileUrdfTest, FormatDirectivesInEveryAttributeAreRefusedAndTheServerStaysUp) {
  int sent = 0;
  for (const std::string& payload : FormatDirectivePayloads()) {
    for (const HostileUrdf& input : FormatDirectiveUrdfs(payload)) {
      ExpectRefused(input);
      ++sent;
      if (HasFatalFailure()) return;
    }
  }
  // The exact 120-byte input of the report, without geometry.
  ExpectRefused({"report's crash input",
                 "<robot name=\"r\"><link name=\"a\"><visual><origin "
                 "xyz=\"%s%s%s%s%s%s%s%s%s%s%s%s%s%s%s%s%s%s%s%s\"/></visual></link></robot>",
                 {"visual", "xyz"}});
  std::printf("[ figures  ] %d hostile URDFs refused, motiond still up\n", sent + 1);
  ExpectStillServing();
}

TEST_F(HostileUrdfTest, InlineUrdfsInOtherRequestsAreRefusedTheSameWay) {
  // Every request may carry its URDF inline (RobotRef.urdf): same guard.
  for (const HostileUrdf& input : FormatDirectiveUrdfs(FormatDirectivePayloads()[1])) {
    SCOPED_TRACE(input.label);
    v1::ComputeFkRequest fk;
    fk.mutable_robot()->set_urdf(input.urdf);
    fk.add_joints(0.0);
    v1::ComputeFkResponse pose;
    const grpc::Status status = stubs_->ComputeFk(fk, &pose);
    ASSERT_TRUE(server_->Running()) << server_->Log();
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << Describe(status);
    EXPECT_EQ(status.error_message().rfind("robot.urdf: ", 0), 0u) << status.error_message();
    EXPECT_FALSE(LooksLikeFormatOutput(status.error_message())) << status.error_message();
  }
  ExpectStillServing();
}

TEST(HostileUrdfPreloadTest, RobotsDirWithHostileFilesStartsAndSkipsThem) {
  motiond_fleet::TempDir dir("motiond_hostile_robots");
  auto write = [&](const std::string& name, const std::string& text) {
    std::FILE* file = std::fopen(dir.File(name).c_str(), "wb");
    ASSERT_NE(file, nullptr);
    std::fwrite(text.data(), 1, text.size(), file);
    std::fclose(file);
  };
  write("crash.urdf", FormatDirectiveUrdfs(FormatDirectivePayloads()[0])[0].urdf);
  write("self_loop.urdf", CyclicUrdfs()[0].urdf);
  write("ur5.urdf", ReadRobot("ur5.urdf"));
  auto server = MotiondProcess::Start("hostile_preload", {"--robots_dir=" + dir.path()});
  ASSERT_TRUE(server->Running()) << server->Log();
  Stubs stubs(grpc::CreateChannel(server->address(), grpc::InsecureChannelCredentials()));
  v1::ListRobotsResponse robots;
  ASSERT_TRUE(stubs.ListRobots(&robots).ok());
  ASSERT_EQ(robots.robots_size(), 1);
  EXPECT_EQ(robots.robots(0).name(), "ur5");
  const std::string log = server->Log();
  EXPECT_NE(log.find("crash.urdf not loaded"), std::string::npos) << log;
  EXPECT_NE(log.find("self_loop.urdf not loaded"), std::string::npos) << log;
}

TEST_F(HostileUrdfTest, DirectivesInNamesAreDataNotFormats) {
  v1::RegisterRobotResponse registered;
  const grpc::Status status = stubs_->RegisterRobot(ValidUrdfWithDirectivesInNames(), &registered);
  ASSERT_TRUE(server_->Running()) << server_->Log();
  ASSERT_TRUE(status.ok()) << Describe(status);
  EXPECT_EQ(registered.info().base_link(), kDirectiveBaseLink);
  EXPECT_EQ(registered.info().tip_link(), kDirectiveTipLink);
  ASSERT_EQ(registered.info().joints_size(), 1);
  EXPECT_EQ(registered.info().joints(0).name(), kDirectiveJoint);

  // A chain request naming a link that does not exist, with directives in
  // the name: refused, the name not echoed as a directive.
  v1::ComputeFkRequest fk;
  fk.mutable_robot()->set_robot_id(registered.robot_id());
  fk.mutable_robot()->set_tip_link("nowhere%n%n%s");
  fk.add_joints(0.0);
  v1::ComputeFkResponse pose;
  const grpc::Status refused = stubs_->ComputeFk(fk, &pose);
  ASSERT_TRUE(server_->Running()) << server_->Log();
  EXPECT_EQ(refused.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << Describe(refused);
  EXPECT_FALSE(LooksLikeFormatOutput(refused.error_message())) << refused.error_message();
  ExpectStillServing();
}

TEST_F(HostileUrdfTest, CyclicJointGraphsLeaveResidentMemoryFlat) {
  const std::vector<HostileUrdf> inputs = CyclicUrdfs();
  for (const HostileUrdf& input : inputs) ExpectRefused(input);
  if (HasFailure()) return;

  // Warm-up: gRPC's buffers, the allocator's arenas and the registry reach
  // their working size first; then the same load must not grow the process.
  auto send = [&](int count) {
    int refused = 0;
    for (int i = 0; i < count; ++i) {
      v1::RegisterRobotResponse response;
      const auto& input = inputs[static_cast<std::size_t>(i) % inputs.size()];
      if (stubs_->RegisterRobot(input.urdf, &response).error_code() ==
          grpc::StatusCode::INVALID_ARGUMENT) {
        ++refused;
      }
    }
    return refused;
  };
  ASSERT_EQ(send(2000), 2000);
  const long before_kb = server_->RssKb();
  const auto start = std::chrono::steady_clock::now();
  ASSERT_EQ(send(kCyclicRequests), kCyclicRequests);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const long after_kb = server_->RssKb();
  ASSERT_GT(before_kb, 0);
  std::printf(
      "[ figures  ] %d cyclic URDFs in %.1f s: RSS %ld -> %ld kB (%+ld kB, %.1f B/request)\n",
      kCyclicRequests, seconds, before_kb, after_kb, after_kb - before_kb,
      1024.0 * static_cast<double>(after_kb - before_kb) / kCyclicRequests);
  EXPECT_LT(after_kb - before_kb, kCyclicGrowthBoundKb);
  ExpectStillServing();
}

TEST_F(HostileUrdfTest, LargeCyclicFileLeavesResidentMemoryFlat) {
  // 2 000 links (under the link limit, so the cycle is what is refused) in
  // one ring, names padded to make a ~4 MB file: urdfdom's leaked tree was
  // ~5 MB a request.
  const std::string ring = LargeCyclicUrdf(2000, 4000000);
  ASSERT_GT(ring.size(), 3900000u);
  const HostileUrdf input{"4 MB ring of links", ring, {"cycle"}};
  constexpr int kWarmUp = 10;
  constexpr int kMeasured = 40;
  for (int i = 0; i < kWarmUp; ++i) ExpectRefused(input);
  if (HasFailure()) return;
  const long before_kb = server_->RssKb();
  for (int i = 0; i < kMeasured; ++i) {
    v1::RegisterRobotResponse response;
    ASSERT_EQ(stubs_->RegisterRobot(ring, &response).error_code(),
              grpc::StatusCode::INVALID_ARGUMENT);
  }
  const long after_kb = server_->RssKb();
  std::printf("[ figures  ] %d x %.1f MB cyclic URDF: RSS %ld -> %ld kB (%+ld kB)\n", kMeasured,
              static_cast<double>(ring.size()) / 1e6, before_kb, after_kb, after_kb - before_kb);
  // urdfdom's leaked tree was 5.3 MB a request (212 MB for these 40). Not
  // leaking, RSS still swings by ~16 MB between requests of this size (which
  // thread's malloc arena holds the 4 MB copies and the XML tree), without a
  // trend: over 200 requests it stayed within 88-104 MB.
  EXPECT_LT(after_kb - before_kb, 32 * 1024);
  ExpectStillServing();
}

}  // namespace
}  // namespace motiond_test
