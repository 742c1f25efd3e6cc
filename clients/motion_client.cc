#include "clients/motion_client.h"

#include "core/identity/robot_id.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"

namespace motion::client {

bool IsRobotNotRegistered(const grpc::Status& status) {
  if (status.error_code() != grpc::StatusCode::NOT_FOUND) return false;
  google::rpc::Status details;
  if (!details.ParseFromString(status.error_details())) return false;
  for (const auto& any : details.details()) {
    google::rpc::ErrorInfo info;
    if (any.UnpackTo(&info) && info.reason() == "ROBOT_NOT_REGISTERED" &&
        info.domain() == "motion.v1") {
      return true;
    }
  }
  return false;
}

MotionClient::MotionClient(std::shared_ptr<grpc::Channel> channel, ClientOptions options)
    : options_(std::move(options)),
      channel_(std::move(channel)),
      registry_(v1::RobotRegistry::NewStub(channel_)),
      kinematics_(v1::Kinematics::NewStub(channel_)),
      planner_(v1::MotionPlanner::NewStub(channel_)) {}

std::unique_ptr<MotionClient> MotionClient::Connect(const ClientOptions& options) {
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(64 << 20);
  auto channel =
      grpc::CreateCustomChannel(options.target, grpc::InsecureChannelCredentials(), args);
  return std::make_unique<MotionClient>(std::move(channel), options);
}

std::string MotionClient::AddRobot(const std::string& urdf) {
  std::string id = RobotIdForUrdf(urdf);
  std::lock_guard<std::mutex> lock(mutex_);
  urdf_by_id_.emplace(id, urdf);
  return id;
}

void MotionClient::SetDeadline(grpc::ClientContext& context) const {
  context.set_deadline(std::chrono::system_clock::now() + options_.timeout);
}

template <typename Request, typename Response, typename Call>
grpc::Status MotionClient::CallWithRobot(Request& request, Response* response, Call call) {
  auto* robot = request.mutable_robot();
  std::string known_urdf;
  if (!robot->robot_id().empty() && robot->urdf().empty()) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = urdf_by_id_.find(robot->robot_id()); it != urdf_by_id_.end()) {
      known_urdf = it->second;
    }
  }
  grpc::Status status;
  {
    grpc::ClientContext context;
    SetDeadline(context);
    status = call(&context, request, response);
  }
  if (!known_urdf.empty() && IsRobotNotRegistered(status)) {
    robot->set_urdf(known_urdf);
    grpc::ClientContext context;
    SetDeadline(context);
    status = call(&context, request, response);
    robot->clear_urdf();
  }
  return status;
}

grpc::Status MotionClient::RegisterRobot(const std::string& urdf,
                                         v1::RegisterRobotResponse* response) {
  AddRobot(urdf);
  v1::RegisterRobotRequest request;
  request.set_urdf(urdf);
  grpc::ClientContext context;
  SetDeadline(context);
  return registry_->RegisterRobot(&context, request, response);
}

grpc::Status MotionClient::GetRobot(const v1::GetRobotRequest& request, v1::RobotInfo* response) {
  grpc::ClientContext context;
  SetDeadline(context);
  grpc::Status status = registry_->GetRobot(&context, request, response);
  std::string urdf;
  if (IsRobotNotRegistered(status)) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = urdf_by_id_.find(request.robot_id()); it != urdf_by_id_.end()) urdf = it->second;
  }
  if (urdf.empty()) return status;
  v1::RegisterRobotResponse registered;
  status = RegisterRobot(urdf, &registered);
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

grpc::Status MotionClient::CheckReachability(v1::CheckReachabilityRequest request,
                                             v1::CheckReachabilityResponse* response) {
  return CallWithRobot(request, response, [this](auto* context, const auto& r, auto* out) {
    return kinematics_->CheckReachability(context, r, out);
  });
}

grpc::Status MotionClient::PlanPath(
    v1::PlanPathRequest request,
    const std::function<void(const v1::PlanPathResponse&)>& on_message) {
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

}  // namespace motion::client
