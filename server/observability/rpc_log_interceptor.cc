#include "server/observability/rpc_log_interceptor.h"

#include <chrono>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>

#include <spdlog/spdlog.h>

#include "motion/v1/common.pb.h"
#include "motion/v1/kinematics.pb.h"
#include "motion/v1/motion_planner.pb.h"
#include "motion/v1/robot_registry.pb.h"
#include "proto/motion/v1/wire_constants.h"
#include "server/observability/log_format.h"

namespace motion::server {
namespace {

using Hook = grpc::experimental::InterceptionHookPoints;

// The motion.v1 methods whose messages the log summarises; their message
// types are known from the method, so the interceptor's void* messages are
// cast to exactly the type gRPC stored. Anything else (health, reflection)
// is logged by name and status only.
enum class Method {
  kOther,
  kComputeFk,
  kComputeIk,
  kComputeJacobian,
  kCheckReachability,
  kPlanPath,
  kValidatePath,
  kRegisterRobot,
  kGetRobot,
  kListRobots,
};

struct KnownMethod {
  const char* path;
  Method method;
};
constexpr KnownMethod kKnownMethods[] = {
    {"/motion.v1.Kinematics/ComputeFk", Method::kComputeFk},
    {"/motion.v1.Kinematics/ComputeIk", Method::kComputeIk},
    {"/motion.v1.Kinematics/ComputeJacobian", Method::kComputeJacobian},
    {"/motion.v1.Kinematics/CheckReachability", Method::kCheckReachability},
    {"/motion.v1.MotionPlanner/PlanPath", Method::kPlanPath},
    {"/motion.v1.MotionPlanner/ValidatePath", Method::kValidatePath},
    {"/motion.v1.RobotRegistry/RegisterRobot", Method::kRegisterRobot},
    {"/motion.v1.RobotRegistry/GetRobot", Method::kGetRobot},
    {"/motion.v1.RobotRegistry/ListRobots", Method::kListRobots},
};

// The grpc_code label's names, so a log line and a metric series match.
const char* CodeName(int code) { return v1::GrpcCodeName(static_cast<grpc::StatusCode>(code)); }

// "sha256:" + 12 hex digits: enough to tell robots apart in a log, short
// enough to read (the full id is 71 characters).
constexpr std::size_t kRobotIdPrefix = 7 + 12;

std::string RobotIdPrefix(const std::string& robot_id) {
  return robot_id.substr(0, kRobotIdPrefix);
}

// What one call carried, filled from its messages as they pass; -1 = not
// applicable to this method.
struct CallSummary {
  std::string robot;            // robot_id prefix; "inline" when only a URDF was sent
  int64_t urdf_bytes = -1;      // inline URDF size
  int64_t joints = -1;          // ComputeFk, ComputeJacobian
  int64_t targets = -1;         // ComputeIk (1), CheckReachability
  int64_t solved = -1;          // targets with an IK solution
  std::string outcome;          // ComputeIk
  int64_t segments = -1;        // PlanPath; ValidatePath: over all its paths
  int64_t points = -1;          // PlanPath trajectory samples
  int ok = -1;                  // PlanPath summary
  int64_t paths = -1;           // ValidatePath requests read
  int64_t paths_ok = -1;        // ValidatePath answers with ok = true
  int64_t paths_rejected = -1;  // ValidatePath answers with an error_code
  int64_t robots = -1;          // ListRobots
};

void NoteRobot(const v1::RobotRef& ref, CallSummary& s) {
  if (!s.robot.empty()) return;
  if (!ref.robot_id().empty()) {
    s.robot = RobotIdPrefix(ref.robot_id());
  } else if (!ref.urdf().empty()) {
    s.robot = "inline";
  }
  if (!ref.urdf().empty()) s.urdf_bytes = static_cast<int64_t>(ref.urdf().size());
}

void AddSummary(const CallSummary& s, LogFields& fields) {
  if (!s.robot.empty()) fields.Add("robot", s.robot);
  const std::pair<const char*, int64_t> counts[] = {
      {"urdf_bytes", s.urdf_bytes}, {"joints", s.joints},     {"targets", s.targets},
      {"solved", s.solved},         {"segments", s.segments}, {"points", s.points},
      {"paths", s.paths},           {"paths_ok", s.paths_ok}, {"paths_rejected", s.paths_rejected},
      {"robots", s.robots}};
  for (const auto& [key, value] : counts) {
    if (value >= 0) fields.Add(key, value);
  }
  if (!s.outcome.empty()) fields.Add("outcome", s.outcome);
  if (s.ok >= 0) fields.Add("ok", s.ok == 1);
}

bool IsRejectedInput(int code) {
  return code == grpc::StatusCode::INVALID_ARGUMENT || code == grpc::StatusCode::NOT_FOUND ||
         code == grpc::StatusCode::OUT_OF_RANGE || code == grpc::StatusCode::FAILED_PRECONDITION;
}

// Warning for rejected input or refused work, error for a bug, info for an
// unknown robot_id (the normal first contact of a client with a replica).
void LogUnsuccessful(const std::string& method, int code, const std::string& reason,
                     bool robot_not_registered, const std::string& robot,
                     const std::string* request_id) {
  spdlog::level::level_enum level;
  const char* what;
  if (code == grpc::StatusCode::NOT_FOUND && robot_not_registered) {
    level = spdlog::level::info;
    what = "robot not registered";
  } else if (IsRejectedInput(code)) {
    level = spdlog::level::warn;
    what = "rejected";
  } else if (code == grpc::StatusCode::RESOURCE_EXHAUSTED) {
    level = spdlog::level::warn;
    what = "refused";
  } else if (code == grpc::StatusCode::INTERNAL || code == grpc::StatusCode::UNKNOWN ||
             code == grpc::StatusCode::DATA_LOSS) {
    level = spdlog::level::err;
    what = "failed";
  } else {
    return;  // OK, cancelled, deadline exceeded: the debug line is enough
  }
  LogFields fields;
  fields.Add("method", method).Add("code", CodeName(code));
  if (request_id != nullptr) fields.Add("request_id", *request_id);
  if (!robot.empty()) fields.Add("robot", robot);
  fields.Add("reason", reason);
  LogWithFields(level, what, fields);
}

class RpcLogInterceptor : public grpc::experimental::Interceptor {
 public:
  explicit RpcLogInterceptor(grpc::experimental::ServerRpcInfo* info)
      : start_(std::chrono::steady_clock::now()),
        debug_(spdlog::default_logger_raw()->should_log(spdlog::level::debug)) {
    const char* path = info->method() ? info->method() : "";
    for (const KnownMethod& known : kKnownMethods) {
      if (std::strcmp(path, known.path) == 0) method_ = known.method;
    }
    // motion.v1 methods by their short name, others (health, reflection) in full.
    const std::string full = path;
    const auto slash = full.rfind('/');
    const bool motion_v1 = full.rfind("/motion.v1.", 0) == 0;
    name_ = motion_v1 && slash != std::string::npos ? full.substr(slash + 1)
            : !full.empty() && full[0] == '/'       ? full.substr(1)
                                                    : full;
    if (method_ == Method::kValidatePath) {
      summary_.paths = summary_.paths_ok = summary_.paths_rejected = summary_.segments = 0;
    }
  }

  ~RpcLogInterceptor() override {
    // The call ended without a status (the client went away first).
    Finish(grpc::Status(grpc::StatusCode::CANCELLED, "ended without a status"));
  }

  void Intercept(grpc::experimental::InterceptorBatchMethods* methods) override {
    // Messages of other services (health, reflection) are not looked at: their
    // types are unknown here, and some are sent as serialized ByteBuffers.
    if (method_ != Method::kOther && methods->QueryInterceptionHookPoint(Hook::POST_RECV_MESSAGE)) {
      if (const void* message = methods->GetRecvMessage()) OnRequest(message);
    }
    if (method_ != Method::kOther && methods->QueryInterceptionHookPoint(Hook::PRE_SEND_MESSAGE)) {
      if (const void* message = methods->GetSendMessage()) OnResponse(message);
    }
    if (methods->QueryInterceptionHookPoint(Hook::PRE_SEND_STATUS)) {
      Finish(methods->GetSendStatus());
    }
    methods->Proceed();
  }

 private:
  void OnRequest(const void* message) {
    std::lock_guard<std::mutex> lock(mutex_);
    CallSummary& s = summary_;
    switch (method_) {
      case Method::kComputeFk: {
        const auto& r = *static_cast<const v1::ComputeFkRequest*>(message);
        NoteRobot(r.robot(), s);
        s.joints = r.joints_size();
        break;
      }
      case Method::kComputeJacobian: {
        const auto& r = *static_cast<const v1::ComputeJacobianRequest*>(message);
        NoteRobot(r.robot(), s);
        s.joints = r.joints_size();
        break;
      }
      case Method::kComputeIk: {
        NoteRobot(static_cast<const v1::ComputeIkRequest*>(message)->robot(), s);
        s.targets = 1;
        break;
      }
      case Method::kCheckReachability: {
        const auto& r = *static_cast<const v1::CheckReachabilityRequest*>(message);
        NoteRobot(r.robot(), s);
        s.targets = r.targets_size();
        break;
      }
      case Method::kPlanPath: {
        const auto& r = *static_cast<const v1::PlanPathRequest*>(message);
        NoteRobot(r.robot(), s);
        s.segments = r.segments_size();
        break;
      }
      case Method::kValidatePath: {
        const auto& r = *static_cast<const v1::ValidatePathRequest*>(message);
        NoteRobot(r.path().robot(), s);
        ++s.paths;
        s.segments += r.path().segments_size();
        break;
      }
      case Method::kRegisterRobot:
        s.urdf_bytes = static_cast<int64_t>(
            static_cast<const v1::RegisterRobotRequest*>(message)->urdf().size());
        break;
      case Method::kGetRobot:
        s.robot = RobotIdPrefix(static_cast<const v1::GetRobotRequest*>(message)->robot_id());
        break;
      case Method::kListRobots:
      case Method::kOther:
        break;
    }
  }

  void OnResponse(const void* message) {
    if (method_ == Method::kValidatePath) {
      OnValidatePathAnswer(*static_cast<const v1::ValidatePathResponse*>(message));
      return;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    CallSummary& s = summary_;
    switch (method_) {
      case Method::kComputeIk: {
        const auto& r = *static_cast<const v1::IkResult*>(message);
        s.solved = r.ok() ? 1 : 0;
        s.outcome = r.outcome();
        break;
      }
      case Method::kCheckReachability: {
        const auto& r = *static_cast<const v1::CheckReachabilityResponse*>(message);
        s.solved = 0;
        for (const auto& result : r.results()) s.solved += result.ok() ? 1 : 0;
        break;
      }
      case Method::kPlanPath: {
        const auto& r = *static_cast<const v1::PlanPathResponse*>(message);
        if (r.has_header()) {
          s.robot = RobotIdPrefix(r.header().robot_id());
          s.points = r.header().point_count();
        } else if (r.has_summary()) {
          s.ok = r.summary().ok() ? 1 : 0;
        }
        break;
      }
      case Method::kRegisterRobot:
        s.robot = RobotIdPrefix(static_cast<const v1::RegisterRobotResponse*>(message)->robot_id());
        break;
      case Method::kListRobots:
        s.robots = static_cast<const v1::ListRobotsResponse*>(message)->robots_size();
        break;
      default:
        break;
    }
  }

  // One answer on a ValidatePath stream: counted, and a request rejected
  // inside the stream (the stream itself goes on) gets its own warning.
  void OnValidatePathAnswer(const v1::ValidatePathResponse& answer) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (answer.error_code() != 0) {
        ++summary_.paths_rejected;
      } else if (answer.ok()) {
        ++summary_.paths_ok;
      }
    }
    if (answer.error_code() != 0) {
      LogUnsuccessful(name_, answer.error_code(), answer.error_message(),
                      answer.error_reason() == v1::kRobotNotRegistered, "", &answer.request_id());
    }
  }

  void Finish(const grpc::Status& status) {
    CallSummary summary;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (finished_) return;
      finished_ = true;
      summary = std::move(summary_);
    }
    const int code = static_cast<int>(status.error_code());
    if (!status.ok()) {
      const bool not_registered =
          v1::HasErrorReason(status.error_details(), v1::kRobotNotRegistered);
      LogUnsuccessful(name_, code, status.error_message(), not_registered, summary.robot, nullptr);
    }
    if (!debug_) return;
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_)
            .count();
    LogFields fields;
    fields.Add("method", name_).Add("code", CodeName(code)).Add("duration_ms", ms);
    AddSummary(summary, fields);
    if (!status.ok()) fields.Add("error", status.error_message());
    LogWithFields(spdlog::level::debug, "rpc", fields);
  }

  const std::chrono::steady_clock::time_point start_;
  const bool debug_;
  Method method_ = Method::kOther;
  std::string name_;
  std::mutex mutex_;  // a bidi stream reads and writes on different threads
  CallSummary summary_;
  bool finished_ = false;
};

}  // namespace

grpc::experimental::Interceptor* RpcLogInterceptorFactory::CreateServerInterceptor(
    grpc::experimental::ServerRpcInfo* info) {
  // Nothing this interceptor logs is below warn except the debug line and
  // the info for unknown robots: at error/critical/off it is not created.
  if (!spdlog::default_logger_raw()->should_log(spdlog::level::warn)) return nullptr;
  return new RpcLogInterceptor(info);
}

}  // namespace motion::server
