#include "clients/motion_client.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "core/identity/robot_id.h"
#include "proto/motion/v1/content_ids.h"
#include "proto/motion/v1/wire_constants.h"

namespace motion::client {

bool IsRobotNotRegistered(const grpc::Status& status) {
  return status.error_code() == grpc::StatusCode::NOT_FOUND &&
         v1::HasErrorReason(status.error_details(), v1::kRobotNotRegistered);
}

bool IsSceneNotRegistered(const grpc::Status& status) {
  return status.error_code() == grpc::StatusCode::NOT_FOUND &&
         v1::HasErrorReason(status.error_details(), v1::kSceneNotRegistered);
}

MotionClient::MotionClient(std::shared_ptr<grpc::Channel> channel, ClientOptions options)
    : options_(std::move(options)),
      channel_(std::move(channel)),
      registry_(v1::RobotRegistry::NewStub(channel_)),
      kinematics_(v1::Kinematics::NewStub(channel_)),
      planner_(v1::MotionPlanner::NewStub(channel_)),
      geometry_(v1::Geometry::NewStub(channel_)),
      info_(v1::Info::NewStub(channel_)) {}

namespace {

// A ValidatePath stream with requests outstanding and no answer for this
// many call timeouts is taken for a replica that stopped without closing
// its connection (ValidatePaths).
constexpr int kStallTimeouts = 3;

std::string ReadFileOrEmpty(const std::string& path) {
  if (path.empty()) return "";
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Round robin over every resolved address, and gRPC's own retries of
// UNAVAILABLE (a replica going away) for every motion.v1 method: all are
// idempotent (robots are content-addressed, computations are pure).
std::string ServiceConfig(int max_attempts) {
  std::string names;
  for (const char* service :
       {v1::RobotRegistry::service_full_name(), v1::Kinematics::service_full_name(),
        v1::MotionPlanner::service_full_name()}) {
    if (!names.empty()) names += ",";
    names += std::string("{\"service\":\"") + service + "\"}";
  }
  return std::string(R"({"loadBalancingConfig":[{"round_robin":{}}],"methodConfig":[{"name":[)") +
         names + R"(],"retryPolicy":{"maxAttempts":)" + std::to_string(max_attempts) +
         R"(,"initialBackoff":"0.05s","maxBackoff":"1s","backoffMultiplier":2,)"
         R"("retryableStatusCodes":["UNAVAILABLE"]}}]})";
}

}  // namespace

std::string ResolveTarget(const std::string& target) {
  // "a:1,b:2" -> "ipv4:a:1,b:2": gRPC's static multi-address resolver.
  if (target.find(',') != std::string::npos && target.find("://") == std::string::npos &&
      target.find(':') != 0 && target.rfind("ipv4:", 0) != 0 && target.rfind("ipv6:", 0) != 0) {
    return "ipv4:" + target;
  }
  return target;
}

std::shared_ptr<grpc::ChannelCredentials> ChannelCredentialsFor(const ClientOptions& options) {
  if (!options.tls && options.ca_file.empty() && options.cert_file.empty()) {
    return grpc::InsecureChannelCredentials();
  }
  grpc::SslCredentialsOptions ssl;
  ssl.pem_root_certs = ReadFileOrEmpty(options.ca_file);
  ssl.pem_cert_chain = ReadFileOrEmpty(options.cert_file);
  ssl.pem_private_key = ReadFileOrEmpty(options.key_file);
  return grpc::SslCredentials(ssl);
}

std::unique_ptr<MotionClient> MotionClient::Connect(const ClientOptions& options) {
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(64 << 20);
  args.SetServiceConfigJSON(ServiceConfig(std::max(1, options.max_attempts)));
  if (!options.server_name.empty()) args.SetSslTargetNameOverride(options.server_name);
  auto channel = grpc::CreateCustomChannel(ResolveTarget(options.target),
                                           ChannelCredentialsFor(options), args);
  return std::make_unique<MotionClient>(std::move(channel), options);
}

std::string MotionClient::AddRobot(const std::string& urdf, std::vector<v1::MeshFile> meshes) {
  std::vector<std::pair<absl::string_view, absl::string_view>> hashed;
  for (const v1::MeshFile& m : meshes) hashed.emplace_back(m.filename(), m.data());
  std::string id = RobotIdForUrdfAndMeshes(urdf, std::move(hashed));
  std::lock_guard<std::mutex> lock(mutex_);
  robots_by_id_.emplace(id, KnownRobot{urdf, std::move(meshes)});
  return id;
}

std::string MotionClient::AddScene(const v1::Scene& scene) {
  std::string id = v1::SceneIdFor(scene);
  std::lock_guard<std::mutex> lock(mutex_);
  scenes_by_id_.emplace(id, scene);
  return id;
}

bool MotionClient::AttachRobot(v1::RobotRef* ref) {
  if (!ref->urdf().empty()) return false;
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = robots_by_id_.find(ref->robot_id());
  if (it == robots_by_id_.end()) return false;
  ref->set_urdf(it->second.urdf);
  for (const v1::MeshFile& m : it->second.meshes) *ref->add_meshes() = m;
  return true;
}

bool MotionClient::AttachScene(v1::SceneRef* ref) {
  if (ref->has_scene()) return false;
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = scenes_by_id_.find(ref->scene_id());
  if (it == scenes_by_id_.end()) return false;
  *ref->mutable_scene() = it->second;
  return true;
}

void MotionClient::SetJointLimits(const std::string& robot_id,
                                  std::vector<v1::JointLimitOverride> joint_limits) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (joint_limits.empty()) {
    limits_by_id_.erase(robot_id);
  } else {
    limits_by_id_[robot_id] = std::move(joint_limits);
  }
}

void MotionClient::AttachJointLimits(v1::RobotRef* robot) {
  if (robot->joint_limits_size() > 0) return;
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = limits_by_id_.find(robot->robot_id());
  if (it == limits_by_id_.end()) return;
  for (const v1::JointLimitOverride& o : it->second) *robot->add_joint_limits() = o;
}

void MotionClient::SetDeadline(grpc::ClientContext& context) const {
  context.set_deadline(std::chrono::system_clock::now() + options_.timeout);
}

namespace {

// The request's SceneRef, for the requests that have one.
template <typename Request>
auto SceneRefOf(Request& request, int) -> decltype(request.mutable_scene()) {
  return request.mutable_scene();
}
template <typename Request>
v1::SceneRef* SceneRefOf(Request&, long) {
  return nullptr;
}

}  // namespace

bool MotionClient::SendInline(const std::string& id) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = inline_until_.find(id);
  if (it == inline_until_.end()) return false;
  if (std::chrono::steady_clock::now() < it->second) return true;
  inline_until_.erase(it);
  return false;
}

void MotionClient::RefusedNow(const std::string& id) {
  std::lock_guard<std::mutex> lock(mutex_);
  inline_until_[id] = std::chrono::steady_clock::now() + options_.inline_after_refusal;
}

template <typename Request, typename Response, typename Call>
grpc::Status MotionClient::CallWithRobot(Request& request, Response* response, Call call) {
  v1::RobotRef* robot = request.mutable_robot();
  v1::SceneRef* scene = SceneRefOf(request, 0);
  // Inline from the start while a recent refusal says replicas may lack it.
  bool robot_attached = SendInline(robot->robot_id()) && AttachRobot(robot);
  bool scene_attached = scene != nullptr && SendInline(scene->scene_id()) && AttachScene(scene);
  grpc::Status status;
  // At most three sends: as given, with the robot, with the scene too.
  for (;;) {
    {
      grpc::ClientContext context;
      SetDeadline(context);
      status = call(&context, request, response);
    }
    if (!robot_attached && IsRobotNotRegistered(status) && AttachRobot(robot)) {
      robot_attached = true;
      RefusedNow(robot->robot_id());
      continue;
    }
    if (!scene_attached && scene != nullptr && IsSceneNotRegistered(status) && AttachScene(scene)) {
      scene_attached = true;
      RefusedNow(scene->scene_id());
      continue;
    }
    break;
  }
  if (robot_attached) {
    robot->clear_urdf();
    robot->clear_meshes();
  }
  if (scene_attached) scene->clear_scene();
  return status;
}

grpc::Status MotionClient::RegisterRobot(const std::string& urdf,
                                         v1::RegisterRobotResponse* response,
                                         std::vector<v1::MeshFile> meshes) {
  AddRobot(urdf, meshes);
  v1::RegisterRobotRequest request;
  request.set_urdf(urdf);
  for (v1::MeshFile& m : meshes) *request.add_meshes() = std::move(m);
  grpc::ClientContext context;
  SetDeadline(context);
  return registry_->RegisterRobot(&context, request, response);
}

grpc::Status MotionClient::RegisterScene(const v1::Scene& scene,
                                         v1::RegisterSceneResponse* response) {
  AddScene(scene);
  v1::RegisterSceneRequest request;
  *request.mutable_scene() = scene;
  grpc::ClientContext context;
  SetDeadline(context);
  return registry_->RegisterScene(&context, request, response);
}

grpc::Status MotionClient::GetRobot(const v1::GetRobotRequest& request, v1::RobotInfo* response) {
  grpc::ClientContext context;
  SetDeadline(context);
  grpc::Status status = registry_->GetRobot(&context, request, response);
  KnownRobot known;
  if (IsRobotNotRegistered(status)) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = robots_by_id_.find(request.robot_id()); it != robots_by_id_.end()) {
      known = it->second;
    }
  }
  if (known.urdf.empty()) return status;
  v1::RegisterRobotResponse registered;
  status = RegisterRobot(known.urdf, &registered, std::move(known.meshes));
  if (!status.ok()) return status;
  grpc::ClientContext retry;
  SetDeadline(retry);
  return registry_->GetRobot(&retry, request, response);
}

grpc::Status MotionClient::ListRobots(v1::ListRobotsResponse* response) {
  grpc::ClientContext context;
  SetDeadline(context);
  return registry_->ListRobots(&context, v1::ListRobotsRequest(), response);
}

grpc::Status MotionClient::ComputeFk(v1::ComputeFkRequest request,
                                     v1::ComputeFkResponse* response) {
  return CallWithRobot(request, response, [this](auto* context, const auto& r, auto* out) {
    return kinematics_->ComputeFk(context, r, out);
  });
}

grpc::Status MotionClient::ComputeJacobian(v1::ComputeJacobianRequest request,
                                           v1::ComputeJacobianResponse* response) {
  return CallWithRobot(request, response, [this](auto* context, const auto& r, auto* out) {
    return kinematics_->ComputeJacobian(context, r, out);
  });
}

grpc::Status MotionClient::ComputeIk(v1::ComputeIkRequest request, v1::IkResult* response) {
  return CallWithRobot(request, response, [this](auto* context, const auto& r, auto* out) {
    return kinematics_->ComputeIk(context, r, out);
  });
}

grpc::Status MotionClient::CheckCollision(v1::CheckCollisionRequest request,
                                          v1::CheckCollisionResponse* response) {
  return CallWithRobot(request, response, [this](auto* context, const auto& r, auto* out) {
    return kinematics_->CheckCollision(context, r, out);
  });
}

grpc::Status MotionClient::ValidateCell(v1::ValidateCellRequest request,
                                        v1::ValidateCellResponse* response) {
  auto call = [&] {
    grpc::ClientContext context;
    SetDeadline(context);
    response->Clear();
    return planner_->ValidateCell(&context, request, response);
  };
  grpc::Status status = call();
  if (IsRobotNotRegistered(status) || IsSceneNotRegistered(status)) {
    bool attached = false;
    for (v1::CellRobot& r : *request.mutable_robots()) attached |= AttachRobot(r.mutable_robot());
    if (request.has_scene()) attached |= AttachScene(request.mutable_scene());
    if (attached) status = call();
  }
  return status;
}

grpc::Status MotionClient::CheckReachability(v1::CheckReachabilityRequest request,
                                             v1::CheckReachabilityResponse* response) {
  return CallWithRobot(request, response, [this](auto* context, const auto& r, auto* out) {
    return kinematics_->CheckReachability(context, r, out);
  });
}

grpc::Status MotionClient::CheckTrajectory(v1::CheckTrajectoryRequest request,
                                           v1::CheckTrajectoryResponse* response) {
  AttachJointLimits(request.mutable_robot());
  return CallWithRobot(request, response, [this](auto* context, const auto& r, auto* out) {
    return geometry_->CheckTrajectory(context, r, out);
  });
}

grpc::Status MotionClient::ResampleTrajectory(v1::ResampleTrajectoryRequest request,
                                              v1::ResampleTrajectoryResponse* response) {
  return CallWithRobot(request, response, [this](auto* context, const auto& r, auto* out) {
    return geometry_->ResampleTrajectory(context, r, out);
  });
}

grpc::Status MotionClient::ConvertPose(const v1::ConvertPoseRequest& request,
                                       v1::ConvertPoseResponse* response) {
  grpc::ClientContext context;
  SetDeadline(context);
  return geometry_->ConvertPose(&context, request, response);
}

grpc::Status MotionClient::GetServerInfo(v1::GetServerInfoResponse* response) {
  grpc::ClientContext context;
  SetDeadline(context);
  return info_->GetServerInfo(&context, v1::GetServerInfoRequest(), response);
}

grpc::Status MotionClient::PlanPath(
    v1::PlanPathRequest request,
    const std::function<void(const v1::PlanPathResponse&)>& on_message) {
  AttachJointLimits(request.mutable_robot());
  bool received = false;
  auto stream_once = [&](grpc::ClientContext* context, const v1::PlanPathRequest& r,
                         v1::PlanPathResponse* message) {
    auto reader = planner_->PlanPath(context, r);
    while (reader->Read(message)) {
      received = true;
      on_message(*message);
    }
    return reader->Finish();
  };
  v1::PlanPathResponse message;
  return CallWithRobot(request, &message, [&](auto* context, const auto& r, auto* out) {
    if (received) return grpc::Status(grpc::StatusCode::ABORTED, "already streamed");
    return stream_once(context, r, out);
  });
}

grpc::Status MotionClient::ValidatePaths(
    const std::vector<v1::ValidatePathRequest>& requests_as_given,
    const std::function<void(const v1::ValidatePathResponse&)>& on_response, int max_in_flight,
    int max_streams) {
  std::vector<v1::ValidatePathRequest> requests = requests_as_given;
  for (v1::ValidatePathRequest& r : requests) AttachJointLimits(r.mutable_path()->mutable_robot());
  std::map<std::string, std::size_t> index_of;  // request_id -> position in `requests`
  for (std::size_t i = 0; i < requests.size(); ++i) {
    if (!index_of.emplace(requests[i].request_id(), i).second) {
      return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                          "request_id '" + requests[i].request_id() + "' is used twice");
    }
  }
  // What a replica lacks, put inline (false: not known here, or inline already).
  auto attach = [this](v1::PlanPathRequest* path, const std::string& reason) {
    if (reason == v1::kRobotNotRegistered) return AttachRobot(path->mutable_robot());
    if (reason == v1::kSceneNotRegistered) return AttachScene(path->mutable_scene());
    return false;
  };
  std::set<std::string> unanswered;
  for (const auto& r : requests) unanswered.insert(r.request_id());
  grpc::Status last = grpc::Status::OK;
  auto backoff = std::chrono::milliseconds(50);

  for (int stream_number = 0; stream_number < max_streams && !unanswered.empty(); ++stream_number) {
    std::vector<const v1::ValidatePathRequest*> round;  // unanswered, in the caller's order
    for (const auto& r : requests) {
      if (unanswered.count(r.request_id())) round.push_back(&r);
    }
    grpc::ClientContext context;
    context.set_wait_for_ready(true);  // a replica may be (re)starting
    auto stream = planner_->ValidatePath(&context);

    // Shared between this thread (reads) and the writer. Each stream talks
    // to one replica: robots it lacks get their URDF on every later request
    // of this stream, and the refused requests are re-sent here at once.
    std::mutex mutex;
    std::condition_variable changed;
    int outstanding = 0;
    std::size_t next = 0;
    bool stop = false;
    std::set<std::string> missing_here;  // robot and scene ids this replica lacks
    // Puts inline whatever of `path` this replica was found to lack.
    auto attach_missing_here = [&](v1::PlanPathRequest* path) {
      if (missing_here.count(path->robot().robot_id())) {
        attach(path, std::string(v1::kRobotNotRegistered));
      }
      const std::string& scene_id = path->scene().scene_id();
      if (!scene_id.empty() && missing_here.count(scene_id)) {
        attach(path, std::string(v1::kSceneNotRegistered));
      }
    };
    std::deque<v1::ValidatePathRequest> resend;
    std::thread writer([&] {
      for (;;) {
        v1::ValidatePathRequest request;
        {
          std::unique_lock<std::mutex> lock(mutex);
          changed.wait(lock, [&] {
            const bool more = !resend.empty() || next < round.size();
            return stop || (more && outstanding < max_in_flight) || (!more && outstanding == 0);
          });
          if (stop) break;
          if (!resend.empty()) {
            request = std::move(resend.front());
            resend.pop_front();
          } else if (next < round.size()) {
            request = *round[next++];
            attach_missing_here(request.mutable_path());
          } else {
            break;  // everything sent and answered
          }
          ++outstanding;
        }
        if (!stream->Write(request)) break;  // the stream broke; Read will say so
      }
      stream->WritesDone();
    });

    // A replica that stops answering without closing its connection (a
    // stopped process, a dropped network) would hold this stream open for
    // ever: with requests outstanding and no answer for kStallTimeouts x
    // the call timeout, the stream is cancelled and its unanswered requests
    // go to a new one.
    auto last_answer = std::chrono::steady_clock::now();
    const auto stall = kStallTimeouts * options_.timeout;
    std::thread watchdog([&] {
      std::unique_lock<std::mutex> lock(mutex);
      while (!stop) {
        const auto due = last_answer + stall;
        if (changed.wait_until(lock, due, [&] { return stop || last_answer + stall > due; })) {
          continue;
        }
        if (outstanding > 0) {
          context.TryCancel();
          return;
        }
        last_answer = std::chrono::steady_clock::now();  // idle, not stalled
      }
    });

    bool progress = false;
    v1::ValidatePathResponse response;
    while (stream->Read(&response)) {
      const std::string& id = response.request_id();
      bool deliver = unanswered.count(id) > 0;
      {
        std::lock_guard<std::mutex> lock(mutex);
        last_answer = std::chrono::steady_clock::now();
        --outstanding;
        if (deliver && !response.error_reason().empty()) {
          // The re-send carries everything this replica was found to lack.
          v1::ValidatePathRequest again = requests[index_of[id]];
          if (attach(again.mutable_path(), response.error_reason())) {
            missing_here.insert(response.error_reason() == v1::kRobotNotRegistered
                                    ? again.path().robot().robot_id()
                                    : again.path().scene().scene_id());
            attach_missing_here(again.mutable_path());
            resend.push_back(std::move(again));
            deliver = false;  // its real answer comes with the re-send
          }
        }
      }
      changed.notify_all();
      if (!deliver) continue;  // or a late duplicate from an earlier stream
      unanswered.erase(id);
      progress = true;
      on_response(response);
    }
    {
      std::lock_guard<std::mutex> lock(mutex);
      stop = true;
    }
    changed.notify_all();
    context.TryCancel();  // unblocks a writer stuck on a dead stream
    writer.join();
    watchdog.join();
    last = stream->Finish();
    if (!unanswered.empty() && !progress) {
      std::this_thread::sleep_for(backoff);
      backoff = std::min(backoff * 2, std::chrono::milliseconds(2000));
    }
  }
  if (unanswered.empty()) return grpc::Status::OK;
  return last.ok() ? grpc::Status(grpc::StatusCode::UNAVAILABLE,
                                  std::to_string(unanswered.size()) + " requests unanswered")
                   : last;
}

}  // namespace motion::client
