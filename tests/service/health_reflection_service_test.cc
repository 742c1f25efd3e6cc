// grpc.health.v1.Health and grpc.reflection.v1alpha.ServerReflection over
// real gRPC. Debian ships neither health.proto nor reflection.proto (nor
// generated client stubs), so the calls go through grpc::GenericStub with
// the messages written and read in protobuf wire format by hand; the field
// numbers are those of grpc/health/v1/health.proto and
// grpc/reflection/v1alpha/reflection.proto.

#include <condition_variable>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/unknown_field_set.h>
#include <grpcpp/generic/generic_stub.h>
#include <gtest/gtest.h>

#include "service_test_support.h"

namespace motiond_test {
namespace {

using google::protobuf::UnknownField;
using google::protobuf::UnknownFieldSet;

// ------------------------------------------------------- wire format --

// A length-delimited field (string, bytes or message).
std::string LengthDelimited(int field, const std::string& value) {
  std::string out;
  {
    google::protobuf::io::StringOutputStream stream(&out);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.WriteTag(static_cast<uint32_t>(field << 3 | 2));
    coded.WriteVarint32(static_cast<uint32_t>(value.size()));
    coded.WriteString(value);
  }
  return out;
}

// UnknownFieldSet is not copyable; the fields found in it point into it.
std::unique_ptr<UnknownFieldSet> Parse(const std::string& bytes) {
  auto fields = std::make_unique<UnknownFieldSet>();
  EXPECT_TRUE(fields->ParseFromString(bytes)) << "not protobuf wire format";
  return fields;
}

std::vector<const UnknownField*> Fields(const UnknownFieldSet& set, int number) {
  std::vector<const UnknownField*> out;
  for (int i = 0; i < set.field_count(); ++i) {
    if (set.field(i).number() == number) out.push_back(&set.field(i));
  }
  return out;
}

grpc::ByteBuffer ToByteBuffer(const std::string& bytes) {
  grpc::Slice slice(bytes);
  return grpc::ByteBuffer(&slice, 1);
}

std::string ToString(const grpc::ByteBuffer& buffer) {
  std::vector<grpc::Slice> slices;
  EXPECT_TRUE(buffer.Dump(&slices).ok());
  std::string out;
  for (const auto& s : slices) out.append(reinterpret_cast<const char*>(s.begin()), s.size());
  return out;
}

// ------------------------------------------------------------- health --

struct HealthReply {
  grpc::Status status;
  std::string bytes;
};

HealthReply CheckHealth(const std::shared_ptr<grpc::Channel>& channel, const std::string& service) {
  grpc::GenericStub stub(channel);
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
  // HealthCheckRequest { string service = 1; } (empty string: not encoded)
  const grpc::ByteBuffer request =
      ToByteBuffer(service.empty() ? std::string() : LengthDelimited(1, service));
  grpc::ByteBuffer response;
  std::mutex mutex;
  std::condition_variable done;
  bool finished = false;
  HealthReply reply;
  stub.UnaryCall(&context, "/grpc.health.v1.Health/Check", grpc::StubOptions(), &request, &response,
                 [&](grpc::Status status) {
                   std::lock_guard<std::mutex> lock(mutex);
                   reply.status = std::move(status);
                   finished = true;
                   done.notify_one();
                 });
  std::unique_lock<std::mutex> lock(mutex);
  done.wait(lock, [&] { return finished; });
  if (reply.status.ok()) reply.bytes = ToString(response);
  return reply;
}

TEST(HealthTest, OverallHealthIsServing) {
  TestServer server;
  const HealthReply reply = CheckHealth(server.NewChannel(), "");
  ASSERT_TRUE(reply.status.ok()) << Describe(reply.status);
  // HealthCheckResponse { ServingStatus status = 1; } SERVING = 1.
  const auto fields = Parse(reply.bytes);
  const auto status = Fields(*fields, 1);
  ASSERT_EQ(status.size(), 1u);
  ASSERT_EQ(status[0]->type(), UnknownField::TYPE_VARINT);
  EXPECT_EQ(status[0]->varint(), 1u) << "1 = SERVING";
}

TEST(HealthTest, AnUnknownServiceIsNotFound) {
  TestServer server;
  const HealthReply reply = CheckHealth(server.NewChannel(), "no.such.Service");
  EXPECT_EQ(reply.status.error_code(), grpc::StatusCode::NOT_FOUND) << Describe(reply.status);
}

// --------------------------------------------------------- reflection --

// One ServerReflectionInfo stream: sends each request, half-closes, and
// collects every response until the server ends the stream.
class ReflectionCall : public grpc::ClientBidiReactor<grpc::ByteBuffer, grpc::ByteBuffer> {
 public:
  ReflectionCall(const std::shared_ptr<grpc::Channel>& channel, std::vector<std::string> requests)
      : stub_(channel), requests_(std::move(requests)) {
    context_.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    stub_.PrepareBidiStreamingCall(&context_,
                                   "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
                                   grpc::StubOptions(), this);
    StartRead(&incoming_);
    WriteNext();
    StartCall();
  }

  grpc::Status Await(std::vector<std::string>* responses) {
    std::unique_lock<std::mutex> lock(mutex_);
    done_cv_.wait(lock, [this] { return done_; });
    *responses = responses_;
    return status_;
  }

  void OnWriteDone(bool ok) override {
    if (ok) WriteNext();
  }
  void OnReadDone(bool ok) override {
    if (!ok) return;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      responses_.push_back(ToString(incoming_));
    }
    StartRead(&incoming_);
  }
  void OnDone(const grpc::Status& status) override {
    std::lock_guard<std::mutex> lock(mutex_);
    status_ = status;
    done_ = true;
    done_cv_.notify_one();
  }

 private:
  void WriteNext() {
    if (next_ == requests_.size()) {
      StartWritesDone();
      return;
    }
    outgoing_ = ToByteBuffer(requests_[next_++]);
    StartWrite(&outgoing_);
  }

  grpc::GenericStub stub_;
  grpc::ClientContext context_;
  std::vector<std::string> requests_;
  std::size_t next_ = 0;
  grpc::ByteBuffer outgoing_;
  grpc::ByteBuffer incoming_;
  std::mutex mutex_;
  std::condition_variable done_cv_;
  bool done_ = false;
  grpc::Status status_;
  std::vector<std::string> responses_;
};

// ServerReflectionRequest fields.
constexpr int kFileContainingSymbol = 4;
constexpr int kListServices = 7;
// ServerReflectionResponse fields.
constexpr int kFileDescriptorResponse = 4;
constexpr int kListServicesResponse = 6;
constexpr int kErrorResponse = 7;

TEST(ReflectionTest, ListsTheMotionServices) {
  TestServer server;
  ReflectionCall call(server.NewChannel(), {LengthDelimited(kListServices, "")});
  std::vector<std::string> responses;
  const grpc::Status status = call.Await(&responses);
  ASSERT_TRUE(status.ok()) << Describe(status);
  ASSERT_EQ(responses.size(), 1u);

  // ListServiceResponse { repeated ServiceResponse service = 1; }
  // ServiceResponse { string name = 1; }
  const auto response = Parse(responses[0]);
  const auto list = Fields(*response, kListServicesResponse);
  ASSERT_EQ(list.size(), 1u) << "no list_services_response";
  const auto services = Parse(list[0]->length_delimited());
  std::set<std::string> names;
  for (const UnknownField* service : Fields(*services, 1)) {
    const auto service_fields = Parse(service->length_delimited());
    const auto name = Fields(*service_fields, 1);
    ASSERT_EQ(name.size(), 1u);
    names.insert(name[0]->length_delimited());
  }
  EXPECT_EQ(names.count("motion.v1.Kinematics"), 1u);
  EXPECT_EQ(names.count("motion.v1.RobotRegistry"), 1u);
  EXPECT_EQ(names.count("motion.v1.MotionPlanner"), 1u);
  EXPECT_EQ(names.count("grpc.health.v1.Health"), 1u);
}

TEST(ReflectionTest, DescribesKinematicsWithItsMethods) {
  TestServer server;
  ReflectionCall call(server.NewChannel(),
                      {LengthDelimited(kFileContainingSymbol, "motion.v1.Kinematics")});
  std::vector<std::string> responses;
  const grpc::Status status = call.Await(&responses);
  ASSERT_TRUE(status.ok()) << Describe(status);
  ASSERT_EQ(responses.size(), 1u);
  const auto response = Parse(responses[0]);
  ASSERT_TRUE(Fields(*response, kErrorResponse).empty()) << "reflection answered an error";
  const auto files = Fields(*response, kFileDescriptorResponse);
  ASSERT_EQ(files.size(), 1u);

  // FileDescriptorResponse { repeated bytes file_descriptor_proto = 1; }
  const auto descriptor_response = Parse(files[0]->length_delimited());
  std::set<std::string> methods;
  for (const UnknownField* bytes : Fields(*descriptor_response, 1)) {
    google::protobuf::FileDescriptorProto file;
    ASSERT_TRUE(file.ParseFromString(bytes->length_delimited()));
    if (file.package() != "motion.v1") continue;
    for (const auto& service : file.service()) {
      if (service.name() != "Kinematics") continue;
      for (const auto& method : service.method()) methods.insert(method.name());
    }
  }
  EXPECT_EQ(methods, (std::set<std::string>{"ComputeFk", "ComputeIk", "ComputeJacobian",
                                            "CheckReachability", "CheckCollision"}));
}

}  // namespace
}  // namespace motiond_test
