#pragma once

// Shared helpers of the service tests: an in-process motiond on a free
// loopback port, thin deadline-carrying wrappers over the generated stubs,
// rich-error decoding, test-side URDF reading (TinyXML, not core) and URDF
// generators for hostile input.

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "motion/v1/kinematics.grpc.pb.h"
#include "motion/v1/robot_registry.grpc.pb.h"
#include "server/motiond_server.h"
#include "server/server_options.h"

#ifndef MOTIOND_ROBOTS_DIR
#error "MOTIOND_ROBOTS_DIR must point at the bundled robots"
#endif

namespace motiond_test {

namespace v1 = motion::v1;

inline constexpr double kPi = 3.14159265358979323846;

// ---------------------------------------------------------------- robots --

/// Absolute path of a bundled robot file, e.g. RobotPath("ur5.urdf").
std::string RobotPath(const std::string& file_name);
/// The bytes of a bundled robot file.
std::string ReadRobot(const std::string& file_name);
/// Every *.urdf in MOTIOND_ROBOTS_DIR, sorted by name.
std::vector<std::string> BundledRobotFiles();
/// "sha256:" + the digest printed by `sha256sum PATH` (run through popen).
std::string Sha256sumId(const std::string& path);
/// "sha256:" + the digest of `text`, computed by piping it to `sha256sum`.
std::string Sha256sumIdOfText(const std::string& text);

/// One <joint> of a URDF as written, read with TinyXML.
struct UrdfJoint {
  std::string name;
  std::string type;
  std::string parent;
  std::string child;
  bool has_limit = false;
  double lower = 0.0;
  double upper = 0.0;
  double velocity = 0.0;
  bool is_mimic = false;
};

/// The joints (by name) and links of a URDF, read independently of core.
struct UrdfText {
  std::string robot_name;
  std::map<std::string, UrdfJoint> joints;
  std::vector<std::string> links;
  /// child link -> the joint that leads to it.
  std::map<std::string, std::string> parent_joint_of;
};
UrdfText ReadUrdfText(const std::string& urdf);

/// The links from `base` to `tip` (both included) found by walking parent
/// joints up from `tip`; empty if `tip` is not below `base`.
std::vector<std::string> LinksBetween(const UrdfText& urdf, const std::string& base,
                                      const std::string& tip);

// ---------------------------------------------------------------- server --

/// A MotiondServer on 127.0.0.1:<free port>, stopped on destruction.
class TestServer {
 public:
  /// Defaults for tests: free port, 2 workers, no preload.
  static motion::server::ServerOptions DefaultOptions();

  explicit TestServer(motion::server::ServerOptions options = DefaultOptions());
  ~TestServer();

  std::string target() const;
  int port() const { return server_->port(); }
  motion::server::MotiondServer& server() { return *server_; }
  /// A new channel to this server (its own TCP connection).
  std::shared_ptr<grpc::Channel> NewChannel() const;

 private:
  std::unique_ptr<motion::server::MotiondServer> server_;
};

/// The generated stubs, each call with a deadline (so a hang fails the test
/// instead of stalling ctest).
class Stubs {
 public:
  explicit Stubs(const std::shared_ptr<grpc::Channel>& channel,
                 std::chrono::milliseconds deadline = std::chrono::seconds(20));

  grpc::Status RegisterRobot(const std::string& urdf, v1::RegisterRobotResponse* response);
  grpc::Status GetRobot(const v1::GetRobotRequest& request, v1::RobotInfo* response);
  grpc::Status ListRobots(v1::ListRobotsResponse* response);
  grpc::Status ComputeFk(const v1::ComputeFkRequest& request, v1::ComputeFkResponse* response);
  grpc::Status ComputeJacobian(const v1::ComputeJacobianRequest& request,
                               v1::ComputeJacobianResponse* response);

  v1::RobotRegistry::Stub& registry() { return *registry_; }
  v1::Kinematics::Stub& kinematics() { return *kinematics_; }

 private:
  void SetDeadline(grpc::ClientContext& context) const;

  std::chrono::milliseconds deadline_;
  std::unique_ptr<v1::RobotRegistry::Stub> registry_;
  std::unique_ptr<v1::Kinematics::Stub> kinematics_;
};

/// "CODE: message" for failure output.
std::string Describe(const grpc::Status& status);

/// Parses grpc-status-details-bin (status.error_details()) as google.rpc.Status.
std::optional<google::rpc::Status> RichStatus(const grpc::Status& status);
std::optional<google::rpc::ErrorInfo> FindErrorInfo(const grpc::Status& status);
std::optional<google::rpc::BadRequest> FindBadRequest(const grpc::Status& status);

/// INVALID_ARGUMENT whose message contains every one of `substrings`
/// (case-insensitive; "a|b" accepts either alternative) and whose details carry a
/// google.rpc.BadRequest with a field violation on exactly `field`; the rich status must repeat the
/// code and message.
::testing::AssertionResult IsInvalidArgument(const grpc::Status& status, const std::string& field,
                                             const std::vector<std::string>& substrings);

/// NOT_FOUND with ErrorInfo{ROBOT_NOT_REGISTERED, motion.v1}.
::testing::AssertionResult IsRobotNotRegistered(const grpc::Status& status);

// ------------------------------------------------------------- geometry --

Eigen::Isometry3d ToIsometry(const v1::Pose& pose);
void ToProto(const Eigen::Isometry3d& transform, v1::Pose* out);
/// Rotation angle (rad) between two orientations.
double AngleBetween(const Eigen::Matrix3d& a, const Eigen::Matrix3d& b);

/// The joints of a RobotInfo as (lower, upper); continuous joints -> (-pi, pi).
std::vector<std::pair<double, double>> SamplingRanges(const v1::RobotInfo& info);

// --------------------------------------------------------- URDF builders --

/// A serial chain of `links` links l0 .. l{n-1}; joint j{i} (l{i-1} -> l{i})
/// has origin xyz="step 0 0"; it is revolute about +Z when
/// `is_revolute(i)` and fixed otherwise. `comment` goes into an XML comment
/// (to make distinct robot ids of the same kinematics).
std::string SerialChainUrdf(int links, double step, bool (*is_revolute)(int),
                            const std::string& comment = "");

/// Links base -> mid -> tip: "j1" revolute about +Z (base -> mid, limits
/// +-3), then "the_joint" (mid -> tip) of `type` with `joint_body` inside
/// its element (origin, axis, limit...).
std::string TwoJointUrdf(const std::string& type, const std::string& joint_body);

}  // namespace motiond_test
