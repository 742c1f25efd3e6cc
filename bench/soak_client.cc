// Soak load for a running motiond: a mixed load of good and bad requests
// for as long as asked, printing every report interval the server's resident
// memory, latency percentiles per kind of call and the answers by code.
//
// Good calls: FK, Jacobian, IK, a reachability batch, a collision check
// against a small scene, PlanPath of the bundled pick-and-place program read
// to the end, a ValidatePath stream of four programs, GetRobot.
// Bad calls, each expected to end with one status code and an error message
// naming the field at fault: wrong joint counts and NaN joints, a zero
// quaternion, unknown and malformed robot ids, malformed URDFs (truncated,
// random bytes, format strings, a joint cycle), garbage STL meshes, a box
// of negative size, a sample time of zero, a plan of too many samples, an
// oversized message. Abuse that ends on the client's side: a PlanPath
// cancelled after its first chunk, an IK whose deadline has already passed.
//
// A call is "unexpected" when its code differs from the one expected or a
// bad request's message does not name its field. Exit status: 0 when every
// call was as expected and the server stayed up, 1 otherwise.

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <future>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>

#include "bench/bench_io.h"
#include "bench/latency_summary.h"
#include "clients/motionctl/program_file.h"
#include "motion/v1/kinematics.grpc.pb.h"
#include "motion/v1/motion_planner.grpc.pb.h"
#include "motion/v1/robot_registry.grpc.pb.h"
#include "proto/motion/v1/wire_constants.h"

namespace {

namespace v1 = motion::v1;
using Clock = std::chrono::steady_clock;
using motion_bench::ReadText;

struct Flags {
  std::string target;
  int server_pid = 0;      // for resident memory; 0: not reported
  double duration = 1800;  // s
  double report_every = 60;
  int threads = 4;
  double pause_ms = 0;  // between two calls of one thread
};

void Usage() {
  std::fprintf(stderr,
               "usage: soak_client --target=HOST:PORT [--server_pid=PID] [--duration=1800]\n"
               "                   [--report_every=60] [--threads=4] [--pause_ms=0]\n");
}

bool ParseFlags(int argc, char** argv, Flags& f) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const motion_bench::FlagArgument flag = motion_bench::SplitFlag(arg);
    const std::string& name = flag.name;
    const std::string& value = flag.value;
    double number = 0;
    const bool numeric = motion_bench::ParseNumber(value, number) && number >= 0;
    bool ok = true;
    if (name == "--target") {
      f.target = value;
      ok = !value.empty();
    } else if (name == "--server_pid") {
      f.server_pid = static_cast<int>(number);
      ok = numeric;
    } else if (name == "--duration") {
      f.duration = number;
      ok = numeric && number > 0;
    } else if (name == "--report_every") {
      f.report_every = number;
      ok = numeric && number > 0;
    } else if (name == "--threads") {
      f.threads = static_cast<int>(number);
      ok = numeric && f.threads > 0 && f.threads <= 256;
    } else if (name == "--pause_ms") {
      f.pause_ms = number;
      ok = numeric;
    } else {
      ok = false;
    }
    if (!ok) {
      std::fprintf(stderr, "soak_client: bad flag '%s'\n", arg.c_str());
      Usage();
      return false;
    }
  }
  if (f.target.empty()) {
    Usage();
    return false;
  }
  return true;
}

// VmRSS of `pid` in MiB; negative when the process is gone.
double ResidentMiB(int pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmRSS:", 0) == 0) return std::atof(line.c_str() + 6) / 1024.0;
  }
  return -1;
}

// ------------------------------------------------------------- the calls --

// What one call is expected to end with.
struct Expectation {
  grpc::StatusCode code = grpc::StatusCode::OK;
  std::string names;  // a bad request's message must contain this
};

// How one call ended.
struct Answer {
  grpc::Status status;
  // For calls whose errors come inside an OK stream (ValidatePath): the
  // first per-request error, as a status.
  bool ok_but_wrong = false;  // OK, yet the answer contradicts the request
};

struct CallKind {
  std::string name;
  int weight = 1;
  Expectation expected;
  std::function<Answer(std::mt19937_64&)> call;
};

// Everything the calls share: stubs and the inputs built once.
struct Inputs {
  std::shared_ptr<grpc::Channel> channel;
  std::unique_ptr<v1::Kinematics::Stub> kinematics;
  std::unique_ptr<v1::MotionPlanner::Stub> planner;
  std::unique_ptr<v1::RobotRegistry::Stub> registry;
  std::string ur5_urdf, ur5_id, panda_urdf, panda_id;
  std::vector<v1::PlanPathRequest> programs;  // robot: ur5 by id
};

std::unique_ptr<grpc::ClientContext> ContextWithDeadline(double seconds) {
  auto context = std::make_unique<grpc::ClientContext>();
  context->set_deadline(std::chrono::system_clock::now() +
                        std::chrono::microseconds(static_cast<long>(seconds * 1e6)));
  return context;
}

std::vector<double> RandomJoints(std::mt19937_64& rng, int n) {
  std::uniform_real_distribution<double> angle(-2.0, 2.0);
  std::vector<double> q(n);
  for (double& v : q) v = angle(rng);
  return q;
}

template <typename Request>
void SetJoints(Request& request, const std::vector<double>& q) {
  for (double v : q) request.add_joints(v);
}

// Reads a PlanPath stream to its end.
grpc::Status DrainPlan(Inputs& in, const v1::PlanPathRequest& request, bool cancel_after_chunk) {
  auto context = ContextWithDeadline(60);
  auto stream = in.planner->PlanPath(context.get(), request);
  v1::PlanPathResponse response;
  while (stream->Read(&response)) {
    if (cancel_after_chunk && response.has_chunk()) {
      context->TryCancel();
      break;
    }
  }
  if (cancel_after_chunk) {
    while (stream->Read(&response)) {
    }
  }
  return stream->Finish();
}

std::string RegisterUrdf(Inputs& in, const std::string& urdf) {
  auto context = ContextWithDeadline(30);
  v1::RegisterRobotRequest request;
  request.set_urdf(urdf);
  v1::RegisterRobotResponse response;
  const grpc::Status status = in.registry->RegisterRobot(context.get(), request, &response);
  if (!status.ok()) {
    std::fprintf(stderr, "soak_client: RegisterRobot: %s\n", status.error_message().c_str());
    std::exit(1);
  }
  return response.robot_id();
}

// A unary call of `method` whose request is `bytes` as they are.
grpc::Status RawUnaryCall(Inputs& in, const std::string& method, const std::string& bytes) {
  grpc::GenericStub stub(in.channel);
  auto context = ContextWithDeadline(10);
  grpc::Slice slice(bytes);
  const grpc::ByteBuffer request(&slice, 1);
  grpc::ByteBuffer response;
  std::promise<grpc::Status> done;
  stub.UnaryCall(context.get(), method, grpc::StubOptions(), &request, &response,
                 [&done](grpc::Status status) { done.set_value(std::move(status)); });
  return done.get_future().get();
}

v1::Pose ZeroQuaternionPose() {
  v1::Pose pose;
  pose.mutable_position()->set_x(0.4);
  pose.mutable_orientation()->set_w(0);
  return pose;
}

std::vector<CallKind> MakeCalls(Inputs& in) {
  using grpc::StatusCode;
  std::vector<CallKind> calls;
  auto fk = [&in](const v1::ComputeFkRequest& request) {
    auto context = ContextWithDeadline(10);
    v1::ComputeFkResponse response;
    return Answer{in.kinematics->ComputeFk(context.get(), request, &response)};
  };
  auto register_urdf = [&in](const std::string& urdf) {
    auto context = ContextWithDeadline(10);
    v1::RegisterRobotRequest request;
    request.set_urdf(urdf);
    v1::RegisterRobotResponse response;
    return Answer{in.registry->RegisterRobot(context.get(), request, &response)};
  };

  // ---- good ----
  calls.push_back({"fk", 20, {}, [&in, fk](std::mt19937_64& rng) {
                     v1::ComputeFkRequest request;
                     request.mutable_robot()->set_robot_id(in.ur5_id);
                     SetJoints(request, RandomJoints(rng, 6));
                     return fk(request);
                   }});
  calls.push_back({"jacobian", 5, {}, [&in](std::mt19937_64& rng) {
                     v1::ComputeJacobianRequest request;
                     request.mutable_robot()->set_robot_id(in.panda_id);
                     SetJoints(request, RandomJoints(rng, 7));
                     auto context = ContextWithDeadline(10);
                     v1::ComputeJacobianResponse response;
                     return Answer{
                         in.kinematics->ComputeJacobian(context.get(), request, &response)};
                   }});
  calls.push_back({"ik", 10, {}, [&in](std::mt19937_64& rng) {
                     v1::ComputeFkRequest fk_request;
                     fk_request.mutable_robot()->set_robot_id(in.ur5_id);
                     SetJoints(fk_request, RandomJoints(rng, 6));
                     v1::ComputeFkResponse pose;
                     auto fk_context = ContextWithDeadline(10);
                     grpc::Status status =
                         in.kinematics->ComputeFk(fk_context.get(), fk_request, &pose);
                     if (!status.ok()) return Answer{status};
                     v1::ComputeIkRequest request;
                     request.mutable_robot()->set_robot_id(in.ur5_id);
                     *request.mutable_target() = pose.tcp();
                     auto context = ContextWithDeadline(10);
                     v1::IkResult result;
                     status = in.kinematics->ComputeIk(context.get(), request, &result);
                     // A target made by FK is reachable: not finding it is wrong.
                     return Answer{status, status.ok() && !result.ok()};
                   }});
  calls.push_back({"reachability", 2, {}, [&in](std::mt19937_64& rng) {
                     v1::CheckReachabilityRequest request;
                     request.mutable_robot()->set_robot_id(in.ur5_id);
                     std::uniform_real_distribution<double> coordinate(-0.6, 0.6);
                     for (int i = 0; i < 16; ++i) {
                       v1::Pose* target = request.add_targets();
                       target->mutable_position()->set_x(coordinate(rng));
                       target->mutable_position()->set_y(coordinate(rng));
                       target->mutable_position()->set_z(0.3);
                       target->mutable_orientation()->set_w(1);
                     }
                     auto context = ContextWithDeadline(30);
                     v1::CheckReachabilityResponse response;
                     return Answer{
                         in.kinematics->CheckReachability(context.get(), request, &response)};
                   }});
  calls.push_back(
      {"collision", 4, {}, [&in](std::mt19937_64& rng) {
         v1::CheckCollisionRequest request;
         request.mutable_robot()->set_robot_id(in.panda_id);
         v1::CollisionObject* box = request.mutable_scene()->mutable_scene()->add_objects();
         box->set_id("table");
         box->mutable_pose()->mutable_position()->set_z(-0.05);
         box->mutable_pose()->mutable_orientation()->set_w(1);
         auto* size = box->mutable_shape()->mutable_box()->mutable_size();
         size->set_x(1.0);
         size->set_y(1.0);
         size->set_z(0.1);
         for (int i = 0; i < 4; ++i) {
           v1::JointTarget* q = request.add_configurations();
           for (double v : RandomJoints(rng, 7)) q->add_values(0.5 * v);
         }
         request.set_compute_distance(true);
         auto context = ContextWithDeadline(30);
         v1::CheckCollisionResponse response;
         return Answer{in.kinematics->CheckCollision(context.get(), request, &response)};
       }});
  calls.push_back({"plan", 3, {}, [&in](std::mt19937_64& rng) {
                     const auto& program = in.programs[rng() % in.programs.size()];
                     return Answer{DrainPlan(in, program, false)};
                   }});
  calls.push_back({"validate", 2, {}, [&in](std::mt19937_64&) {
                     auto context = ContextWithDeadline(60);
                     auto stream = in.planner->ValidatePath(context.get());
                     for (int i = 0; i < 4; ++i) {
                       v1::ValidatePathRequest request;
                       request.set_request_id(std::to_string(i));
                       *request.mutable_path() = in.programs[i % in.programs.size()];
                       if (!stream->Write(request)) break;
                     }
                     stream->WritesDone();
                     v1::ValidatePathResponse response;
                     int answers = 0;
                     bool wrong = false;
                     while (stream->Read(&response)) {
                       ++answers;
                       wrong = wrong || response.error_code() != 0;
                     }
                     const grpc::Status status = stream->Finish();
                     return Answer{status, status.ok() && (wrong || answers != 4)};
                   }});
  calls.push_back({"get_robot", 2, {}, [&in](std::mt19937_64&) {
                     v1::GetRobotRequest request;
                     request.set_robot_id(in.ur5_id);
                     auto context = ContextWithDeadline(10);
                     v1::RobotInfo info;
                     return Answer{in.registry->GetRobot(context.get(), request, &info)};
                   }});

  // ---- bad ----
  const Expectation invalid_joints{StatusCode::INVALID_ARGUMENT, "joints"};
  calls.push_back({"bad_joint_count", 3, invalid_joints, [&in, fk](std::mt19937_64& rng) {
                     v1::ComputeFkRequest request;
                     request.mutable_robot()->set_robot_id(in.ur5_id);
                     SetJoints(request, RandomJoints(rng, 1 + rng() % 5));
                     return fk(request);
                   }});
  calls.push_back({"nan_joint", 2, invalid_joints, [&in, fk](std::mt19937_64& rng) {
                     v1::ComputeFkRequest request;
                     request.mutable_robot()->set_robot_id(in.ur5_id);
                     std::vector<double> q = RandomJoints(rng, 6);
                     q[rng() % 6] = std::numeric_limits<double>::quiet_NaN();
                     SetJoints(request, q);
                     return fk(request);
                   }});
  calls.push_back(
      {"zero_quaternion", 2, {StatusCode::INVALID_ARGUMENT, "target"}, [&in](std::mt19937_64&) {
         v1::ComputeIkRequest request;
         request.mutable_robot()->set_robot_id(in.ur5_id);
         *request.mutable_target() = ZeroQuaternionPose();
         auto context = ContextWithDeadline(10);
         v1::IkResult result;
         return Answer{in.kinematics->ComputeIk(context.get(), request, &result)};
       }});
  calls.push_back(
      {"unknown_robot", 2, {StatusCode::NOT_FOUND, "robot_id"}, [fk](std::mt19937_64& rng) {
         v1::ComputeFkRequest request;
         char id[65];
         for (int i = 0; i < 64; ++i) id[i] = "0123456789abcdef"[rng() % 16];
         id[64] = '\0';
         request.mutable_robot()->set_robot_id(std::string("sha256:") + id);
         SetJoints(request, RandomJoints(rng, 6));
         return fk(request);
       }});
  calls.push_back({"malformed_robot_id",
                   2,
                   {StatusCode::INVALID_ARGUMENT, "robot_id"},
                   [fk](std::mt19937_64& rng) {
                     v1::ComputeFkRequest request;
                     request.mutable_robot()->set_robot_id("%s%n\x01" + std::to_string(rng()));
                     SetJoints(request, RandomJoints(rng, 6));
                     return fk(request);
                   }});
  calls.push_back({"truncated_urdf",
                   2,
                   {StatusCode::INVALID_ARGUMENT, "urdf"},
                   [&in, register_urdf](std::mt19937_64& rng) {
                     // Cut inside the robot element, so the text can never be whole.
                     const std::size_t open = in.ur5_urdf.find("<robot");
                     const std::size_t cut =
                         open + 8 + rng() % (in.ur5_urdf.rfind("</robot>") - open - 8);
                     return register_urdf(in.ur5_urdf.substr(0, cut));
                   }});
  calls.push_back({"random_bytes_urdf",
                   1,
                   {StatusCode::INVALID_ARGUMENT, "urdf"},
                   [register_urdf](std::mt19937_64& rng) {
                     // Printable ASCII: a proto3 string must be UTF-8, and invalid
                     // UTF-8 is the unparsable_message kind's.
                     std::string bytes(1 + rng() % 4096, '\0');
                     for (char& c : bytes) c = static_cast<char>(32 + rng() % 95);
                     return register_urdf(bytes);
                   }});
  calls.push_back({"format_string_urdf",
                   1,
                   {StatusCode::INVALID_ARGUMENT, "urdf"},
                   [register_urdf](std::mt19937_64&) {
                     return register_urdf(
                         "<robot name=\"%n%s%x\"><link name=\"%s%s%s\"/><joint name=\"%n\" "
                         "type=\"revolute\"><parent link=\"%s\"/><child link=\"%n\"/></joint>"
                         "</robot>");
                   }});
  calls.push_back(
      {"cyclic_urdf", 1, {StatusCode::INVALID_ARGUMENT, "urdf"}, [register_urdf](std::mt19937_64&) {
         return register_urdf(
             "<robot name=\"loop\"><link name=\"a\"/><link name=\"b\"/>"
             "<joint name=\"ab\" type=\"fixed\"><parent link=\"a\"/><child "
             "link=\"b\"/></joint><joint name=\"ba\" type=\"fixed\"><parent "
             "link=\"b\"/><child link=\"a\"/></joint></robot>");
       }});
  calls.push_back(
      {"garbage_mesh", 1, {StatusCode::INVALID_ARGUMENT, "meshes"}, [&in](std::mt19937_64& rng) {
         // Panda's URDF names STL meshes; these bytes are none.
         v1::RegisterRobotRequest request;
         request.set_urdf(in.panda_urdf);
         const std::size_t at = in.panda_urdf.find("package://", in.panda_urdf.find("<collision"));
         const std::size_t end = in.panda_urdf.find('"', at);
         v1::MeshFile* mesh = request.add_meshes();
         mesh->set_filename(in.panda_urdf.substr(at, end - at));
         std::string bytes(84 + rng() % 200, '\0');
         for (char& c : bytes) c = static_cast<char>(rng());
         mesh->set_data(bytes);
         auto context = ContextWithDeadline(10);
         v1::RegisterRobotResponse response;
         return Answer{in.registry->RegisterRobot(context.get(), request, &response)};
       }});
  calls.push_back(
      {"negative_box", 2, {StatusCode::INVALID_ARGUMENT, "scene"}, [&in](std::mt19937_64&) {
         v1::CheckCollisionRequest request;
         request.mutable_robot()->set_robot_id(in.panda_id);
         v1::CollisionObject* box = request.mutable_scene()->mutable_scene()->add_objects();
         box->set_id("box");
         box->mutable_pose()->mutable_orientation()->set_w(1);
         box->mutable_shape()->mutable_box()->mutable_size()->set_x(-1);
         request.add_configurations()->mutable_values()->Resize(7, 0.0);
         auto context = ContextWithDeadline(10);
         v1::CheckCollisionResponse response;
         return Answer{in.kinematics->CheckCollision(context.get(), request, &response)};
       }});
  calls.push_back({"zero_sample_time",
                   1,
                   {StatusCode::INVALID_ARGUMENT, "sample_time"},
                   [&in](std::mt19937_64&) {
                     v1::PlanPathRequest request = in.programs[0];
                     request.set_sample_time(-1);
                     return Answer{DrainPlan(in, request, false)};
                   }});
  calls.push_back({"too_many_samples",
                   1,
                   {StatusCode::INVALID_ARGUMENT, "sample_time"},
                   [&in](std::mt19937_64&) {
                     // The program at 0.1 ms and a slow override: far beyond the
                     // points limit of one plan.
                     v1::PlanPathRequest request = in.programs[0];
                     request.set_sample_time(1e-4);
                     request.set_speed_override(0.01);
                     return Answer{DrainPlan(in, request, false)};
                   }});
  calls.push_back(
      {"oversized_message", 1, {StatusCode::RESOURCE_EXHAUSTED, ""}, [&in](std::mt19937_64&) {
         v1::RegisterRobotRequest request;
         // Beyond motiond's default 16 MiB message limit.
         request.set_urdf(std::string(20 << 20, ' '));
         auto context = ContextWithDeadline(30);
         v1::RegisterRobotResponse response;
         return Answer{in.registry->RegisterRobot(context.get(), request, &response)};
       }});
  calls.push_back(
      {"unparsable_message", 1, {StatusCode::UNIMPLEMENTED, ""}, [&in](std::mt19937_64& rng) {
         // Raw bytes as a RegisterRobotRequest: field 1 (urdf) with
         // invalid UTF-8, then random bytes. gRPC answers a request it
         // cannot parse itself, before any handler of motiond's runs.
         std::string bytes = "\x0a\x04\xff\xfe\xfd\xfc";
         for (int i = 0; i < 64; ++i) bytes += static_cast<char>(rng());
         return Answer{RawUnaryCall(in, "/motion.v1.RobotRegistry/RegisterRobot", bytes)};
       }});
  calls.push_back({"cancelled_plan", 1, {StatusCode::CANCELLED, ""}, [&in](std::mt19937_64&) {
                     v1::PlanPathRequest request = in.programs[0];
                     request.set_max_chunk_points(16);
                     return Answer{DrainPlan(in, request, true)};
                   }});
  calls.push_back(
      {"expired_deadline", 1, {StatusCode::DEADLINE_EXCEEDED, ""}, [&in](std::mt19937_64&) {
         v1::ComputeIkRequest request;
         request.mutable_robot()->set_robot_id(in.ur5_id);
         request.mutable_target()->mutable_position()->set_x(0.4);
         request.mutable_target()->mutable_orientation()->set_w(1);
         grpc::ClientContext context;
         context.set_deadline(std::chrono::system_clock::now() - std::chrono::milliseconds(1));
         v1::IkResult result;
         return Answer{in.kinematics->ComputeIk(&context, request, &result)};
       }});
  return calls;
}

// ------------------------------------------------------------ bookkeeping --

// One report interval's counts and latencies per kind.
struct Window {
  std::map<std::string, std::vector<double>> latency_ms;
  std::map<std::string, std::map<std::string, long>> codes;  // kind -> code name -> count
  long unexpected = 0;
};

class Ledger {
 public:
  void Record(const CallKind& kind, const Answer& answer, double ms) {
    const bool as_expected =
        answer.status.error_code() == kind.expected.code && !answer.ok_but_wrong &&
        answer.status.error_message().find(kind.expected.names) != std::string::npos;
    std::lock_guard<std::mutex> lock(mutex_);
    window_.latency_ms[kind.name].push_back(ms);
    ++window_.codes[kind.name][motion::v1::GrpcCodeName(answer.status.error_code())];
    if (!as_expected) {
      ++window_.unexpected;
      ++total_unexpected_;
      if (printed_unexpected_ < 20) {
        ++printed_unexpected_;
        std::printf("UNEXPECTED %s: code %s (expected %s naming '%s')%s: %s\n", kind.name.c_str(),
                    motion::v1::GrpcCodeName(answer.status.error_code()),
                    motion::v1::GrpcCodeName(kind.expected.code), kind.expected.names.c_str(),
                    answer.ok_but_wrong ? ", answer wrong" : "",
                    answer.status.error_message().substr(0, 300).c_str());
        std::fflush(stdout);
      }
    }
    ++total_calls_;
  }

  Window TakeWindow() {
    std::lock_guard<std::mutex> lock(mutex_);
    Window w = std::move(window_);
    window_ = Window{};
    return w;
  }

  long total_calls() const { return total_calls_.load(); }
  long total_unexpected() const { return total_unexpected_.load(); }

 private:
  std::mutex mutex_;
  Window window_;
  std::atomic<long> total_calls_{0}, total_unexpected_{0};
  int printed_unexpected_ = 0;
};

void PrintWindow(double at_s, double rss_mib, const Window& w, double seconds) {
  long calls = 0, errors = 0;
  for (const auto& [kind, codes] : w.codes) {
    for (const auto& [code, n] : codes) {
      calls += n;
      if (code != std::string("OK")) errors += n;
    }
  }
  std::printf(
      "\n[%6.0f s] RSS %.1f MiB | %ld calls (%.0f/s), %ld answered with an error, %ld "
      "unexpected\n",
      at_s, rss_mib, calls, calls / seconds, errors, w.unexpected);
  std::printf("  %-20s %8s %9s %9s %9s  codes\n", "kind", "calls", "p50 ms", "p99 ms", "max ms");
  for (const auto& [kind, latencies] : w.latency_ms) {
    std::vector<double> sorted = latencies;
    const motion_bench::LatencySummary s = motion_bench::Summarize(sorted);
    std::string codes;
    for (const auto& [code, n] : w.codes.at(kind)) {
      codes += (codes.empty() ? "" : " ") + code + "=" + std::to_string(n);
    }
    std::printf("  %-20s %8zu %9.3f %9.3f %9.3f  %s\n", kind.c_str(), latencies.size(), s.median,
                s.p99, s.max, codes.c_str());
  }
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  Flags flags;
  if (!ParseFlags(argc, argv, flags)) return 2;
  std::signal(SIGPIPE, SIG_IGN);

  Inputs in;
  grpc::ChannelArguments args;
  // Larger than the server's limit, so the oversized request reaches it.
  args.SetMaxSendMessageSize(128 << 20);
  args.SetMaxReceiveMessageSize(64 << 20);
  in.channel = grpc::CreateCustomChannel(flags.target, grpc::InsecureChannelCredentials(), args);
  in.kinematics = v1::Kinematics::NewStub(in.channel);
  in.planner = v1::MotionPlanner::NewStub(in.channel);
  in.registry = v1::RobotRegistry::NewStub(in.channel);
  in.ur5_urdf = ReadText(std::string(MOTIOND_ROBOTS_DIR) + "/ur5.urdf");
  in.ur5_id = RegisterUrdf(in, in.ur5_urdf);
  in.panda_urdf = ReadText(std::string(MOTIOND_ROBOTS_DIR) + "/panda.urdf");
  in.panda_id = RegisterUrdf(in, in.panda_urdf);
  for (const char* name : {"ur5_pick_and_place.json", "ur5_glue_path.json"}) {
    motionctl::ProgramFile program;
    std::string error;
    if (!motionctl::ReadProgramFile(std::string(MOTIOND_EXAMPLES_DIR) + "/" + name, &program,
                                    &error)) {
      std::fprintf(stderr, "soak_client: %s\n", error.c_str());
      return 1;
    }
    program.request.mutable_robot()->Clear();
    program.request.mutable_robot()->set_robot_id(in.ur5_id);
    in.programs.push_back(program.request);
  }

  std::vector<CallKind> calls = MakeCalls(in);
  std::vector<int> deck;  // kind indices, each as often as its weight
  for (std::size_t k = 0; k < calls.size(); ++k) {
    for (int w = 0; w < calls[k].weight; ++w) deck.push_back(static_cast<int>(k));
  }

  std::printf(
      "soak_client: %s for %.0f s, %d threads, %zu kinds of call (%zu good), report "
      "every %.0f s\n",
      flags.target.c_str(), flags.duration, flags.threads, calls.size(),
      static_cast<std::size_t>(
          std::count_if(calls.begin(), calls.end(),
                        [](const CallKind& c) { return c.expected.code == grpc::StatusCode::OK; })),
      flags.report_every);
  const auto start = Clock::now();
  const auto end = start + std::chrono::microseconds(static_cast<long>(flags.duration * 1e6));
  Ledger ledger;
  std::atomic<bool> server_gone{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < flags.threads; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937_64 rng(1000 + t);
      while (Clock::now() < end && !server_gone) {
        const CallKind& kind = calls[deck[rng() % deck.size()]];
        const auto sent = Clock::now();
        const Answer answer = kind.call(rng);
        ledger.Record(kind, answer,
                      std::chrono::duration<double, std::milli>(Clock::now() - sent).count());
        if (flags.pause_ms > 0) {
          std::this_thread::sleep_for(
              std::chrono::microseconds(static_cast<long>(flags.pause_ms * 1e3)));
        }
      }
    });
  }

  std::vector<double> rss;
  auto last = start;
  while (Clock::now() < end && !server_gone) {
    std::this_thread::sleep_until(std::min(
        end, last + std::chrono::microseconds(static_cast<long>(flags.report_every * 1e6))));
    const auto now = Clock::now();
    const double resident = flags.server_pid > 0 ? ResidentMiB(flags.server_pid) : 0;
    if (flags.server_pid > 0 && resident < 0) {
      std::printf("soak_client: the server (pid %d) is gone\n", flags.server_pid);
      server_gone = true;
    }
    rss.push_back(resident);
    PrintWindow(std::chrono::duration<double>(now - start).count(), resident, ledger.TakeWindow(),
                std::chrono::duration<double>(now - last).count());
    last = now;
  }
  for (auto& t : threads) t.join();

  std::printf("\nsoak_client: %ld calls, %ld unexpected", ledger.total_calls(),
              ledger.total_unexpected());
  if (rss.size() >= 2) {
    // Warm-up: the first report. Flat: what the rest adds to it.
    const double warm = rss[std::min<std::size_t>(1, rss.size() - 1) - 1];
    const double peak = *std::max_element(rss.begin(), rss.end());
    std::printf("; RSS after the first interval %.1f MiB, last %.1f MiB, peak %.1f MiB", warm,
                rss.back(), peak);
  }
  std::printf("\n");
  return server_gone || ledger.total_unexpected() > 0 ? 1 : 0;
}
