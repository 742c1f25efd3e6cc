#pragma once

// Shared helpers of the service tests: an in-process motiond on a free
// loopback port, thin deadline-carrying wrappers over the generated stubs,
// rich-error decoding, test-side URDF reading (TinyXML, not core) and URDF
// generators for hostile input.

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include "absl/status/statusor.h"
#include "core/cache/chain_data_cache.h"
#include "core/ik/ik_options.h"
#include "core/ik/ik_result.h"
#include "core/model/robot_model.h"
#include "core/motion/motion_request.h"
#include "core/motion/trajectory.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "motion/v1/kinematics.grpc.pb.h"
#include "motion/v1/motion_planner.grpc.pb.h"
#include "motion/v1/robot_registry.grpc.pb.h"
#include "server/runtime/motiond_server.h"
#include "server/runtime/server_options.h"

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
  grpc::Status ComputeIk(const v1::ComputeIkRequest& request, v1::IkResult* response);
  grpc::Status CheckReachability(const v1::CheckReachabilityRequest& request,
                                 v1::CheckReachabilityResponse* response);

  v1::RobotRegistry::Stub& registry() { return *registry_; }
  v1::Kinematics::Stub& kinematics() { return *kinematics_; }
  v1::MotionPlanner::Stub& planner() { return *planner_; }

 private:
  void SetDeadline(grpc::ClientContext& context) const;

  std::chrono::milliseconds deadline_;
  std::unique_ptr<v1::RobotRegistry::Stub> registry_;
  std::unique_ptr<v1::Kinematics::Stub> kinematics_;
  std::unique_ptr<v1::MotionPlanner::Stub> planner_;
};

/// Every message of one PlanPath call, in arrival order, and its status.
struct PlanPathCall {
  grpc::Status status;
  std::vector<v1::PlanPathResponse> messages;

  /// The summary (the last message), or nullptr when there is none.
  const v1::PlanPathSummary* summary() const;
  std::vector<v1::SegmentReport> reports() const;
  int chunk_count() const;
};

/// Runs PlanPath to the end with a deadline and keeps every message.
PlanPathCall CallPlanPath(v1::MotionPlanner::Stub& stub, const v1::PlanPathRequest& request,
                          std::chrono::milliseconds deadline = std::chrono::seconds(30));

/// The codes of `diagnostics`, in order (wire and core use the same numbers).
std::vector<int> CodesOf(const google::protobuf::RepeatedPtrField<v1::Diagnostic>& diagnostics);
std::vector<int> CodesOf(const std::vector<motion::Diagnostic>& diagnostics);

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

// ------------------------------------------------------- core in the test --

/// The core Pose the server builds from a wire pose (checked and normalised
/// by core's MakePose, as the server does); throws on a malformed pose.
motion::Pose CorePose(const v1::Pose& pose);

/// A wire pose from a position and a quaternion (x, y, z, w).
v1::Pose WirePose(double x, double y, double z, double qx, double qy, double qz, double qw);
/// A wire pose from a transform.
v1::Pose WirePose(const Eigen::Isometry3d& transform);
/// A slow UR5 MoveJ (speed override 0.03, ~27 s) from the home pose, by
/// robot_id: at a 0.3 ms sample time about 90 000 samples, long work for
/// the solver pool.
v1::PlanPathRequest SlowUr5MoveJ(const std::string& robot_id, double sample_time);
/// A binary STL of the axis-aligned box of full sizes (sx, sy, sz), centred,
/// written byte by byte (80-byte header, count, 50 bytes a triangle).
std::string BinaryStlOfBox(double sx, double sy, double sz);
/// A scene object: an axis-aligned box of full sizes (sx, sy, sz) centred at (x, y, z).
v1::CollisionObject WireBox(const std::string& id, double x, double y, double z, double sx,
                            double sy, double sz);

/// Core, called directly in the test process: the reference the service must
/// reproduce (the same deterministic code, without gRPC and proto in between).
class CoreRobot {
 public:
  explicit CoreRobot(const std::string& urdf, const std::string& base = "",
                     const std::string& tip = "");

  const motion::ChainModel& chain() const { return *chain_; }
  int dof() const { return chain_->dof(); }

  /// Flange pose for `q`.
  Eigen::Isometry3d Fk(const std::vector<double>& q);
  /// Uniform within the limits (continuous joints: within +-pi).
  std::vector<double> RandomJoints(std::mt19937& rng) const;
  /// True when every value is within its joint's limits (+ `slack`).
  bool WithinLimits(const std::vector<double>& q, double slack = 1e-9) const;

  absl::StatusOr<motion::IkResult> SolveIk(const v1::Pose& target, const std::vector<double>& seed,
                                           const motion::IkOptions& options,
                                           const v1::Pose* tool = nullptr);
  absl::StatusOr<motion::PathResult> Plan(const motion::PathRequest& request,
                                          const motion::PathLimits& limits = {});

 private:
  std::shared_ptr<const motion::RobotModel> model_;
  std::shared_ptr<const motion::ChainModel> chain_;
  std::unique_ptr<motion::IkData> data_;
};

/// A motion program built twice from the same numbers: as the wire request
/// a client sends and as the core PathRequest the test plans itself.
class Program {
 public:
  explicit Program(std::vector<double> start_joints);

  Program& MoveJ(const std::string& id, const std::vector<double>& joints,
                 double joint_fraction = 0.0);
  Program& MoveJPose(const std::string& id, const v1::Pose& target, double joint_fraction = 0.0);
  Program& MoveL(const std::string& id, const v1::Pose& target, double linear_velocity = 0.0);
  Program& MoveC(const std::string& id, const v1::Pose& via, const v1::Pose& target,
                 double linear_velocity = 0.0);
  Program& SampleTime(double seconds);
  /// Timed with the trapezoid profile (the default is jerk-limited).
  Program& Trapezoid();
  Program& StopOnError(bool stop);

  v1::PlanPathRequest Request(const v1::RobotRef& robot) const;
  const motion::PathRequest& Core() const { return core_; }
  int size() const { return static_cast<int>(core_.segments.size()); }

 private:
  v1::MotionSegment& AddWire(const std::string& id);
  motion::MotionSegment& AddCore(const std::string& id, motion::MotionKind kind);

  v1::PlanPathRequest wire_;
  motion::PathRequest core_;
};

/// ValidatePathResponse.reachable as server/convert/path_conversion.cc defines
/// it: no error diagnostic saying a target or a sample cannot be reached
/// (TARGET_UNREACHABLE, IK_FAILED, ARC_DEGENERATE), nor a JOINT_LIMIT error
/// not tied to a sample (a target or the start outside the limits).
bool ReachableVerdict(const motion::PathResult& result);

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
