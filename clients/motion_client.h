#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <grpcpp/grpcpp.h>

#include "motion/v1/geometry.grpc.pb.h"
#include "motion/v1/info.grpc.pb.h"
#include "motion/v1/kinematics.grpc.pb.h"
#include "motion/v1/motion_planner.grpc.pb.h"
#include "motion/v1/robot_registry.grpc.pb.h"

namespace motion::client {

struct ClientOptions {
  /// One address "host:port", several "10.0.0.1:50051,10.0.0.2:50051"
  /// (IP literals; balanced round_robin, one connection each), or any gRPC
  /// target URI ("dns:///motiond-headless:50051" resolves every pod of a
  /// headless Service).
  std::string target = "127.0.0.1:50051";
  std::chrono::milliseconds timeout{10000};  ///< per-call deadline
  /// Attempts per idempotent call on UNAVAILABLE (gRPC retry policy,
  /// exponential backoff from 50 ms); every motiond call is idempotent.
  int max_attempts = 4;
  /// After a server answers ROBOT_NOT_REGISTERED (or SCENE_NOT_REGISTERED)
  /// for a robot (scene) this client knows, every call naming it carries it
  /// inline for this long: behind a round-robin balancer the re-send and the
  /// next calls reach the other replicas, so each one that lacks it learns
  /// it from one call instead of refusing every call that lands on it.
  std::chrono::milliseconds inline_after_refusal{5000};

  // TLS: off when ca_file is empty and tls is false.
  bool tls = false;
  std::string ca_file;    ///< PEM roots to verify the server (empty: system roots)
  std::string cert_file;  ///< client certificate for mTLS
  std::string key_file;
  std::string server_name;  ///< overrides the name checked in the server's certificate
};

/// \brief The gRPC target URI for ClientOptions::target.
std::string ResolveTarget(const std::string& target);

/// \brief Plaintext, TLS or mTLS credentials from the options.
std::shared_ptr<grpc::ChannelCredentials> ChannelCredentialsFor(const ClientOptions& options);

/// \brief True when `status` is NOT_FOUND with google.rpc.ErrorInfo
/// {reason: "ROBOT_NOT_REGISTERED", domain: "motion.v1"} in its details.
bool IsRobotNotRegistered(const grpc::Status& status);
/// \brief The same for SCENE_NOT_REGISTERED.
bool IsSceneNotRegistered(const grpc::Status& status);

/// \brief C++ client of motiond.
///
/// Resolves RobotRef and SceneRef the way stateless replicas need: robots
/// and scenes the client knows (AddRobot, AddScene) are sent by id only; if
/// a server answers ROBOT_NOT_REGISTERED or SCENE_NOT_REGISTERED (another
/// replica, or evicted), the call is re-sent with the URDF (and its
/// meshes) or the scene inline, transparently, once each.
class MotionClient {
 public:
  explicit MotionClient(std::shared_ptr<grpc::Channel> channel, ClientOptions options = {});
  static std::unique_ptr<MotionClient> Connect(const ClientOptions& options);

  /// \brief Remembers `urdf` and its collision `meshes` and returns their
  /// robot_id (computed locally, as the server does).
  std::string AddRobot(const std::string& urdf, std::vector<v1::MeshFile> meshes = {});
  /// \brief Remembers `scene` and returns its scene_id (computed locally).
  std::string AddScene(const v1::Scene& scene);

  /// \brief The robot's real joint limits, attached to every request for
  /// `robot_id` that carries none of its own (RobotRef.joint_limits): set
  /// once, used by every PlanPath and ValidatePath. Empty clears them.
  void SetJointLimits(const std::string& robot_id,
                      std::vector<v1::JointLimitOverride> joint_limits);

  grpc::Status RegisterRobot(const std::string& urdf, v1::RegisterRobotResponse* response,
                             std::vector<v1::MeshFile> meshes = {});
  grpc::Status RegisterScene(const v1::Scene& scene, v1::RegisterSceneResponse* response);
  grpc::Status GetRobot(const v1::GetRobotRequest& request, v1::RobotInfo* response);
  grpc::Status ListRobots(v1::ListRobotsResponse* response);
  grpc::Status ComputeFk(v1::ComputeFkRequest request, v1::ComputeFkResponse* response);
  grpc::Status ComputeJacobian(v1::ComputeJacobianRequest request,
                               v1::ComputeJacobianResponse* response);
  grpc::Status ComputeIk(v1::ComputeIkRequest request, v1::IkResult* response);
  grpc::Status CheckReachability(v1::CheckReachabilityRequest request,
                                 v1::CheckReachabilityResponse* response);
  grpc::Status CheckCollision(v1::CheckCollisionRequest request,
                              v1::CheckCollisionResponse* response);
  grpc::Status CheckTrajectory(v1::CheckTrajectoryRequest request,
                               v1::CheckTrajectoryResponse* response);
  grpc::Status ResampleTrajectory(v1::ResampleTrajectoryRequest request,
                                  v1::ResampleTrajectoryResponse* response);
  grpc::Status ConvertPose(const v1::ConvertPoseRequest& request,
                           v1::ConvertPoseResponse* response);
  grpc::Status GetServerInfo(v1::GetServerInfoResponse* response);

  /// \brief Streams a PlanPath call into `on_message`. The URDF re-send
  /// happens only when the server refused before sending anything.
  grpc::Status PlanPath(v1::PlanPathRequest request,
                        const std::function<void(const v1::PlanPathResponse&)>& on_message);

  /// \brief One ValidateCell call. Robots named by an id the server lacks
  /// (and a scene by id) are re-sent once inline, every robot the client
  /// knows at once: a cell names several.
  grpc::Status ValidateCell(v1::ValidateCellRequest request, v1::ValidateCellResponse* response);

  /// \brief Validates every request over ValidatePath streams and calls
  /// `on_response` exactly once per request_id (from this thread).
  ///
  /// At most `max_in_flight` requests are outstanding per stream. When a
  /// stream breaks (a replica killed, a connection lost), the requests not
  /// yet answered are re-sent on a new stream — to another replica under
  /// round_robin — and an answer that arrives twice is delivered once; so
  /// are they when a stream with requests outstanding answers nothing for
  /// three call timeouts (a replica stopped without closing its
  /// connection: a frozen process, a dropped network). A
  /// request answered ROBOT_NOT_REGISTERED is re-sent once with the URDF
  /// when the client knows it (AddRobot). Request ids must be unique.
  /// Returns OK once every request is answered, or the last stream error
  /// after `max_streams` streams without completing.
  grpc::Status ValidatePaths(
      const std::vector<v1::ValidatePathRequest>& requests,
      const std::function<void(const v1::ValidatePathResponse&)>& on_response,
      int max_in_flight = 32, int max_streams = 8);

  const std::shared_ptr<grpc::Channel>& channel() const { return channel_; }

 private:
  void SetDeadline(grpc::ClientContext& context) const;
  /// Sends `request` as given, and again with the URDF (or the scene)
  /// inline when the server does not have the robot (or the scene) and the
  /// client knows it.
  template <typename Request, typename Response, typename Call>
  grpc::Status CallWithRobot(Request& request, Response* response, Call call);
  /// Puts the known URDF and meshes into `ref` (false: unknown, or inline already).
  bool AttachRobot(v1::RobotRef* ref);
  bool AttachScene(v1::SceneRef* ref);

  ClientOptions options_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::RobotRegistry::Stub> registry_;
  std::unique_ptr<v1::Kinematics::Stub> kinematics_;
  std::unique_ptr<v1::MotionPlanner::Stub> planner_;
  std::unique_ptr<v1::Geometry::Stub> geometry_;
  std::unique_ptr<v1::Info::Stub> info_;
  std::mutex mutex_;
  struct KnownRobot {
    std::string urdf;
    std::vector<v1::MeshFile> meshes;
  };
  std::map<std::string, KnownRobot> robots_by_id_;
  std::map<std::string, v1::Scene> scenes_by_id_;
  /// Robot and scene ids refused recently: sent inline until then.
  std::map<std::string, std::chrono::steady_clock::time_point> inline_until_;
  bool SendInline(const std::string& id);
  void RefusedNow(const std::string& id);
  std::map<std::string, std::vector<v1::JointLimitOverride>> limits_by_id_;

  /// Adds the limits set for robot->robot_id() when the ref has none.
  void AttachJointLimits(v1::RobotRef* robot);
};

}  // namespace motion::client
