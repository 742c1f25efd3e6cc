#include "service_test_support.h"
#include <array>
#include <cstdint>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <spdlog/spdlog.h>

#include <tinyxml.h>
#include <unistd.h>
#include "core/geometry/pose.h"
#include "core/ik/ik_solver.h"
#include "core/kinematics/forward_kinematics.h"
#include "core/motion/path_planner.h"

namespace motiond_test {
namespace {

std::string Lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

const char* CodeName(grpc::StatusCode code) {
  switch (code) {
    case grpc::StatusCode::OK:
      return "OK";
    case grpc::StatusCode::CANCELLED:
      return "CANCELLED";
    case grpc::StatusCode::UNKNOWN:
      return "UNKNOWN";
    case grpc::StatusCode::INVALID_ARGUMENT:
      return "INVALID_ARGUMENT";
    case grpc::StatusCode::DEADLINE_EXCEEDED:
      return "DEADLINE_EXCEEDED";
    case grpc::StatusCode::NOT_FOUND:
      return "NOT_FOUND";
    case grpc::StatusCode::ALREADY_EXISTS:
      return "ALREADY_EXISTS";
    case grpc::StatusCode::PERMISSION_DENIED:
      return "PERMISSION_DENIED";
    case grpc::StatusCode::RESOURCE_EXHAUSTED:
      return "RESOURCE_EXHAUSTED";
    case grpc::StatusCode::FAILED_PRECONDITION:
      return "FAILED_PRECONDITION";
    case grpc::StatusCode::ABORTED:
      return "ABORTED";
    case grpc::StatusCode::OUT_OF_RANGE:
      return "OUT_OF_RANGE";
    case grpc::StatusCode::UNIMPLEMENTED:
      return "UNIMPLEMENTED";
    case grpc::StatusCode::INTERNAL:
      return "INTERNAL";
    case grpc::StatusCode::UNAVAILABLE:
      return "UNAVAILABLE";
    case grpc::StatusCode::DATA_LOSS:
      return "DATA_LOSS";
    case grpc::StatusCode::UNAUTHENTICATED:
      return "UNAUTHENTICATED";
    default:
      return "?";
  }
}

// The first 64-hex-digit word printed by a `sha256sum` command line.
std::string RunSha256sum(const std::string& command) {
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) throw std::runtime_error("popen failed: " + command);
  char buffer[256] = {};
  const std::size_t n = std::fread(buffer, 1, sizeof(buffer) - 1, pipe);
  const int rc = pclose(pipe);
  const std::string out(buffer, n);
  if (rc != 0 || out.size() < 64) throw std::runtime_error("sha256sum failed: " + command);
  return "sha256:" + out.substr(0, 64);
}

double Attribute(const TiXmlElement* element, const char* name, double fallback) {
  double value = fallback;
  if (element->QueryDoubleAttribute(name, &value) != TIXML_SUCCESS) return fallback;
  return value;
}

std::string Text(const TiXmlElement* element, const char* name) {
  const char* value = element ? element->Attribute(name) : nullptr;
  return value ? value : "";
}

}  // namespace

// ---------------------------------------------------------------- robots --

std::string RobotPath(const std::string& file_name) {
  return std::string(MOTIOND_ROBOTS_DIR) + "/" + file_name;
}

std::string ReadRobot(const std::string& file_name) {
  std::ifstream in(RobotPath(file_name), std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + RobotPath(file_name));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> BundledRobotFiles() {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(MOTIOND_ROBOTS_DIR)) {
    if (entry.path().extension() == ".urdf") files.push_back(entry.path().filename().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string Sha256sumId(const std::string& path) {
  return RunSha256sum("sha256sum '" + path + "'");
}

std::string Sha256sumIdOfText(const std::string& text) {
  char path[] = "/tmp/motiond_service_test_XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) throw std::runtime_error("mkstemp failed");
  const ssize_t written = write(fd, text.data(), text.size());
  close(fd);
  if (written != static_cast<ssize_t>(text.size())) throw std::runtime_error("write failed");
  std::string id = Sha256sumId(path);
  std::remove(path);
  return id;
}

UrdfText ReadUrdfText(const std::string& urdf) {
  TiXmlDocument doc;
  doc.Parse(urdf.c_str());
  if (doc.Error()) throw std::runtime_error(std::string("TinyXML: ") + doc.ErrorDesc());
  const TiXmlElement* robot = doc.FirstChildElement("robot");
  if (robot == nullptr) throw std::runtime_error("no <robot>");
  UrdfText out;
  out.robot_name = Text(robot, "name");
  for (const TiXmlElement* link = robot->FirstChildElement("link"); link;
       link = link->NextSiblingElement("link")) {
    out.links.push_back(Text(link, "name"));
  }
  for (const TiXmlElement* j = robot->FirstChildElement("joint"); j;
       j = j->NextSiblingElement("joint")) {
    UrdfJoint joint;
    joint.name = Text(j, "name");
    joint.type = Text(j, "type");
    joint.parent = Text(j->FirstChildElement("parent"), "link");
    joint.child = Text(j->FirstChildElement("child"), "link");
    if (const TiXmlElement* limit = j->FirstChildElement("limit")) {
      joint.has_limit = true;
      joint.lower = Attribute(limit, "lower", 0.0);
      joint.upper = Attribute(limit, "upper", 0.0);
      joint.velocity = Attribute(limit, "velocity", 0.0);
    }
    joint.is_mimic = j->FirstChildElement("mimic") != nullptr;
    out.parent_joint_of[joint.child] = joint.name;
    out.joints[joint.name] = joint;
  }
  return out;
}

std::vector<std::string> LinksBetween(const UrdfText& urdf, const std::string& base,
                                      const std::string& tip) {
  std::vector<std::string> reversed{tip};
  std::string link = tip;
  while (link != base) {
    const auto it = urdf.parent_joint_of.find(link);
    if (it == urdf.parent_joint_of.end()) return {};
    link = urdf.joints.at(it->second).parent;
    reversed.push_back(link);
  }
  return std::vector<std::string>(reversed.rbegin(), reversed.rend());
}

// ---------------------------------------------------------------- server --

motion::server::ServerOptions TestServer::DefaultOptions() {
  motion::server::ServerOptions options;
  options.listen = "127.0.0.1:0";
  options.workers = 2;
  return options;
}

TestServer::TestServer(motion::server::ServerOptions options) {
  // Rejected input is logged as a warning by design; keep test output to errors.
  spdlog::set_level(spdlog::level::err);
  auto started = motion::server::MotiondServer::Start(options);
  if (!started.ok()) {
    throw std::runtime_error("MotiondServer::Start: " + started.status().ToString());
  }
  server_ = *std::move(started);
}

TestServer::~TestServer() {
  if (server_) server_->Shutdown(std::chrono::milliseconds(1000));
}

std::string TestServer::target() const { return "127.0.0.1:" + std::to_string(server_->port()); }

std::shared_ptr<grpc::Channel> TestServer::NewChannel() const {
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(64 << 20);
  args.SetMaxSendMessageSize(64 << 20);
  // Each channel its own connection (gRPC would otherwise share subchannels).
  args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
  return grpc::CreateCustomChannel(target(), grpc::InsecureChannelCredentials(), args);
}

Stubs::Stubs(const std::shared_ptr<grpc::Channel>& channel, std::chrono::milliseconds deadline)
    : deadline_(deadline),
      registry_(v1::RobotRegistry::NewStub(channel)),
      kinematics_(v1::Kinematics::NewStub(channel)),
      planner_(v1::MotionPlanner::NewStub(channel)) {}

void Stubs::SetDeadline(grpc::ClientContext& context) const {
  context.set_deadline(std::chrono::system_clock::now() + deadline_);
}

grpc::Status Stubs::RegisterRobot(const std::string& urdf, v1::RegisterRobotResponse* response) {
  grpc::ClientContext context;
  SetDeadline(context);
  v1::RegisterRobotRequest request;
  request.set_urdf(urdf);
  return registry_->RegisterRobot(&context, request, response);
}

grpc::Status Stubs::GetRobot(const v1::GetRobotRequest& request, v1::RobotInfo* response) {
  grpc::ClientContext context;
  SetDeadline(context);
  return registry_->GetRobot(&context, request, response);
}

grpc::Status Stubs::ListRobots(v1::ListRobotsResponse* response) {
  grpc::ClientContext context;
  SetDeadline(context);
  return registry_->ListRobots(&context, v1::ListRobotsRequest(), response);
}

grpc::Status Stubs::ComputeFk(const v1::ComputeFkRequest& request,
                              v1::ComputeFkResponse* response) {
  grpc::ClientContext context;
  SetDeadline(context);
  return kinematics_->ComputeFk(&context, request, response);
}

grpc::Status Stubs::ComputeJacobian(const v1::ComputeJacobianRequest& request,
                                    v1::ComputeJacobianResponse* response) {
  grpc::ClientContext context;
  SetDeadline(context);
  return kinematics_->ComputeJacobian(&context, request, response);
}

grpc::Status Stubs::ComputeIk(const v1::ComputeIkRequest& request, v1::IkResult* response) {
  grpc::ClientContext context;
  SetDeadline(context);
  return kinematics_->ComputeIk(&context, request, response);
}

grpc::Status Stubs::CheckReachability(const v1::CheckReachabilityRequest& request,
                                      v1::CheckReachabilityResponse* response) {
  grpc::ClientContext context;
  SetDeadline(context);
  return kinematics_->CheckReachability(&context, request, response);
}

const v1::PlanPathSummary* PlanPathCall::summary() const {
  if (messages.empty() || !messages.back().has_summary()) return nullptr;
  return &messages.back().summary();
}

std::vector<v1::SegmentReport> PlanPathCall::reports() const {
  std::vector<v1::SegmentReport> out;
  for (const auto& m : messages) {
    if (m.has_segment_report()) out.push_back(m.segment_report());
  }
  return out;
}

int PlanPathCall::chunk_count() const {
  int count = 0;
  for (const auto& m : messages) count += m.has_chunk() ? 1 : 0;
  return count;
}

PlanPathCall CallPlanPath(v1::MotionPlanner::Stub& stub, const v1::PlanPathRequest& request,
                          std::chrono::milliseconds deadline) {
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + deadline);
  PlanPathCall call;
  auto reader = stub.PlanPath(&context, request);
  v1::PlanPathResponse message;
  while (reader->Read(&message)) call.messages.push_back(message);
  call.status = reader->Finish();
  return call;
}

std::vector<int> CodesOf(const google::protobuf::RepeatedPtrField<v1::Diagnostic>& diagnostics) {
  std::vector<int> codes;
  for (const auto& d : diagnostics) codes.push_back(static_cast<int>(d.code()));
  return codes;
}

std::vector<int> CodesOf(const std::vector<motion::Diagnostic>& diagnostics) {
  std::vector<int> codes;
  for (const auto& d : diagnostics) codes.push_back(static_cast<int>(d.code));
  return codes;
}

std::string Describe(const grpc::Status& status) {
  return std::string(CodeName(status.error_code())) + " (" +
         std::to_string(static_cast<int>(status.error_code())) + "): " + status.error_message();
}

std::optional<google::rpc::Status> RichStatus(const grpc::Status& status) {
  if (status.error_details().empty()) return std::nullopt;
  google::rpc::Status rich;
  if (!rich.ParseFromString(status.error_details())) return std::nullopt;
  return rich;
}

std::optional<google::rpc::ErrorInfo> FindErrorInfo(const grpc::Status& status) {
  const auto rich = RichStatus(status);
  if (!rich) return std::nullopt;
  for (const auto& any : rich->details()) {
    google::rpc::ErrorInfo info;
    if (any.Is<google::rpc::ErrorInfo>() && any.UnpackTo(&info)) return info;
  }
  return std::nullopt;
}

std::optional<google::rpc::BadRequest> FindBadRequest(const grpc::Status& status) {
  const auto rich = RichStatus(status);
  if (!rich) return std::nullopt;
  for (const auto& any : rich->details()) {
    google::rpc::BadRequest bad_request;
    if (any.Is<google::rpc::BadRequest>() && any.UnpackTo(&bad_request)) return bad_request;
  }
  return std::nullopt;
}

::testing::AssertionResult IsInvalidArgument(const grpc::Status& status, const std::string& field,
                                             const std::vector<std::string>& substrings) {
  if (status.error_code() != grpc::StatusCode::INVALID_ARGUMENT) {
    return ::testing::AssertionFailure() << "expected INVALID_ARGUMENT, got " << Describe(status);
  }
  const std::string message = Lower(status.error_message());
  for (const std::string& s : substrings) {
    // "a|b": either alternative will do.
    bool found = false;
    for (std::size_t start = 0; start <= s.size();) {
      const std::size_t bar = std::min(s.find('|', start), s.size());
      if (message.find(Lower(s.substr(start, bar - start))) != std::string::npos) found = true;
      start = bar + 1;
    }
    if (!found) {
      return ::testing::AssertionFailure()
             << "message does not mention '" << s << "': " << status.error_message();
    }
  }
  const auto rich = RichStatus(status);
  if (!rich) {
    return ::testing::AssertionFailure()
           << "no google.rpc.Status in grpc-status-details-bin; message: "
           << status.error_message();
  }
  if (rich->code() != static_cast<int>(grpc::StatusCode::INVALID_ARGUMENT) ||
      rich->message() != status.error_message()) {
    return ::testing::AssertionFailure()
           << "google.rpc.Status {code " << rich->code() << ", '" << rich->message()
           << "'} does not repeat the gRPC status " << Describe(status);
  }
  const auto bad_request = FindBadRequest(status);
  if (!bad_request) {
    return ::testing::AssertionFailure() << "no google.rpc.BadRequest naming field '" << field
                                         << "' in the details; message: " << status.error_message();
  }
  std::string fields;
  for (const auto& violation : bad_request->field_violations()) {
    if (violation.field() == field && !violation.description().empty()) {
      return ::testing::AssertionSuccess();
    }
    fields += " '" + violation.field() + "'";
  }
  return ::testing::AssertionFailure() << "BadRequest names field(s)" << fields << ", expected '"
                                       << field << "'; message: " << status.error_message();
}

::testing::AssertionResult IsRobotNotRegistered(const grpc::Status& status) {
  if (status.error_code() != grpc::StatusCode::NOT_FOUND) {
    return ::testing::AssertionFailure() << "expected NOT_FOUND, got " << Describe(status);
  }
  const auto info = FindErrorInfo(status);
  if (!info) {
    return ::testing::AssertionFailure()
           << "NOT_FOUND without google.rpc.ErrorInfo: " << status.error_message();
  }
  if (info->reason() != "ROBOT_NOT_REGISTERED" || info->domain() != "motion.v1") {
    return ::testing::AssertionFailure()
           << "ErrorInfo{reason '" << info->reason() << "', domain '" << info->domain() << "'}";
  }
  return ::testing::AssertionSuccess();
}

// ------------------------------------------------------------- geometry --

Eigen::Isometry3d ToIsometry(const v1::Pose& pose) {
  const auto& p = pose.position();
  const auto& q = pose.orientation();
  Eigen::Isometry3d t = Eigen::Isometry3d::Identity();
  t.linear() = Eigen::Quaterniond(q.w(), q.x(), q.y(), q.z()).normalized().toRotationMatrix();
  t.translation() = Eigen::Vector3d(p.x(), p.y(), p.z());
  return t;
}

void ToProto(const Eigen::Isometry3d& transform, v1::Pose* out) {
  const Eigen::Quaterniond q(transform.rotation());
  out->mutable_position()->set_x(transform.translation().x());
  out->mutable_position()->set_y(transform.translation().y());
  out->mutable_position()->set_z(transform.translation().z());
  out->mutable_orientation()->set_x(q.x());
  out->mutable_orientation()->set_y(q.y());
  out->mutable_orientation()->set_z(q.z());
  out->mutable_orientation()->set_w(q.w());
}

double AngleBetween(const Eigen::Matrix3d& a, const Eigen::Matrix3d& b) {
  return Eigen::AngleAxisd(a.transpose() * b).angle();
}

std::vector<std::pair<double, double>> SamplingRanges(const v1::RobotInfo& info) {
  std::vector<std::pair<double, double>> ranges;
  for (const auto& joint : info.joints()) {
    if (joint.bounded()) {
      ranges.emplace_back(joint.lower(), joint.upper());
    } else {
      ranges.emplace_back(-kPi, kPi);
    }
  }
  return ranges;
}

// ------------------------------------------------------- core in the test --

motion::Pose CorePose(const v1::Pose& pose) {
  const auto& p = pose.position();
  const auto& q = pose.orientation();
  absl::StatusOr<motion::Pose> out =
      motion::MakePose(Eigen::Vector3d(p.x(), p.y(), p.z()), q.x(), q.y(), q.z(), q.w(), "pose");
  if (!out.ok()) throw std::runtime_error(out.status().ToString());
  return *out;
}

v1::Pose WirePose(double x, double y, double z, double qx, double qy, double qz, double qw) {
  v1::Pose pose;
  pose.mutable_position()->set_x(x);
  pose.mutable_position()->set_y(y);
  pose.mutable_position()->set_z(z);
  pose.mutable_orientation()->set_x(qx);
  pose.mutable_orientation()->set_y(qy);
  pose.mutable_orientation()->set_z(qz);
  pose.mutable_orientation()->set_w(qw);
  return pose;
}

v1::Pose WirePose(const Eigen::Isometry3d& transform) {
  v1::Pose pose;
  ToProto(transform, &pose);
  return pose;
}

v1::PlanPathRequest SlowUr5MoveJ(const std::string& robot_id, double sample_time) {
  v1::PlanPathRequest path;
  path.mutable_robot()->set_robot_id(robot_id);
  for (double q : {0.0, -1.5708, 1.5708, -1.5708, -1.5708, 0.0}) path.add_start_joints(q);
  v1::MotionSegment* move = path.add_segments();
  move->set_id("slow_turn");
  for (double q : {2.5, -1.2, 1.2, -1.2, -1.2, 2.0}) {
    move->mutable_movej()->mutable_joints()->add_values(q);
  }
  path.set_sample_time(sample_time);
  path.set_speed_override(0.03);
  return path;
}

std::string BinaryStlOfBox(double sx, double sy, double sz) {
  const double h[3] = {sx / 2, sy / 2, sz / 2};
  std::vector<std::array<std::array<float, 3>, 3>> triangles;
  for (int axis = 0; axis < 3; ++axis) {
    for (double side : {-1.0, 1.0}) {
      const int u = (axis + 1) % 3, v = (axis + 2) % 3;
      auto corner = [&](double a, double b) {
        std::array<float, 3> p{};
        p[axis] = static_cast<float>(side * h[axis]);
        p[u] = static_cast<float>(a * h[u]);
        p[v] = static_cast<float>(b * h[v]);
        return p;
      };
      triangles.push_back({corner(-1, -1), corner(1, -1), corner(1, 1)});
      triangles.push_back({corner(-1, -1), corner(1, 1), corner(-1, 1)});
    }
  }
  std::string stl(80, ' ');
  const std::uint32_t count = static_cast<std::uint32_t>(triangles.size());
  stl.append(reinterpret_cast<const char*>(&count), 4);
  for (const auto& t : triangles) {
    const float normal[3] = {0, 0, 0};
    stl.append(reinterpret_cast<const char*>(normal), 12);
    for (const auto& p : t) stl.append(reinterpret_cast<const char*>(p.data()), 12);
    stl.append(2, '\0');
  }
  return stl;
}

v1::CollisionObject WireBox(const std::string& id, double x, double y, double z, double sx,
                            double sy, double sz) {
  v1::CollisionObject o;
  o.set_id(id);
  *o.mutable_pose() = WirePose(x, y, z, 0, 0, 0, 1);
  o.mutable_shape()->mutable_box()->mutable_size()->set_x(sx);
  o.mutable_shape()->mutable_box()->mutable_size()->set_y(sy);
  o.mutable_shape()->mutable_box()->mutable_size()->set_z(sz);
  return o;
}

CoreRobot::CoreRobot(const std::string& urdf, const std::string& base, const std::string& tip) {
  auto model = motion::RobotModel::FromUrdf(urdf);
  if (!model.ok()) throw std::runtime_error(model.status().ToString());
  model_ = *model;
  auto chain = model_->Chain(base, tip);
  if (!chain.ok()) throw std::runtime_error(chain.status().ToString());
  chain_ = *chain;
  data_ = std::make_unique<motion::IkData>(*chain_);
}

Eigen::Isometry3d CoreRobot::Fk(const std::vector<double>& q) {
  return motion::ForwardKinematics(*chain_, data_->kinematics,
                                   Eigen::Map<const Eigen::VectorXd>(q.data(), q.size()));
}

std::vector<double> CoreRobot::RandomJoints(std::mt19937& rng) const {
  std::vector<double> q;
  for (const motion::JointLimits& l : chain_->dof_limits) {
    const double lo = l.bounded ? l.lower : -kPi;
    const double hi = l.bounded ? l.upper : kPi;
    q.push_back(std::uniform_real_distribution<double>(lo, hi)(rng));
  }
  return q;
}

bool CoreRobot::WithinLimits(const std::vector<double>& q, double slack) const {
  if (static_cast<int>(q.size()) != dof()) return false;
  for (int i = 0; i < dof(); ++i) {
    const motion::JointLimits& l = chain_->dof_limits[i];
    if (l.bounded && (q[i] < l.lower - slack || q[i] > l.upper + slack)) return false;
  }
  return true;
}

absl::StatusOr<motion::IkResult> CoreRobot::SolveIk(const v1::Pose& target,
                                                    const std::vector<double>& seed,
                                                    const motion::IkOptions& options,
                                                    const v1::Pose* tool) {
  return motion::SolveIk(*chain_, *data_, CorePose(target),
                         tool ? CorePose(*tool) : motion::Pose::Identity(), seed, options);
}

absl::StatusOr<motion::PathResult> CoreRobot::Plan(const motion::PathRequest& request,
                                                   const motion::PathLimits& limits) {
  return motion::PlanPath(*chain_, *data_, request, limits);
}

Program::Program(std::vector<double> start_joints) {
  for (double v : start_joints) wire_.add_start_joints(v);
  core_.start_joints = std::move(start_joints);
}

v1::MotionSegment& Program::AddWire(const std::string& id) {
  v1::MotionSegment& segment = *wire_.add_segments();
  segment.set_id(id);
  return segment;
}

motion::MotionSegment& Program::AddCore(const std::string& id, motion::MotionKind kind) {
  core_.segments.emplace_back();
  motion::MotionSegment& segment = core_.segments.back();
  segment.id = id;
  segment.kind = kind;
  return segment;
}

Program& Program::MoveJ(const std::string& id, const std::vector<double>& joints,
                        double joint_fraction) {
  v1::MotionSegment& wire = AddWire(id);
  for (double v : joints) wire.mutable_movej()->mutable_joints()->add_values(v);
  if (joint_fraction != 0) wire.mutable_speed()->set_joint_fraction(joint_fraction);
  motion::MotionSegment& core = AddCore(id, motion::MotionKind::kMoveJ);
  core.joint_target = true;
  core.target_joints = joints;
  core.speed.joint_fraction = joint_fraction;
  return *this;
}

Program& Program::MoveJPose(const std::string& id, const v1::Pose& target, double joint_fraction) {
  v1::MotionSegment& wire = AddWire(id);
  *wire.mutable_movej()->mutable_pose() = target;
  if (joint_fraction != 0) wire.mutable_speed()->set_joint_fraction(joint_fraction);
  motion::MotionSegment& core = AddCore(id, motion::MotionKind::kMoveJ);
  core.target = CorePose(target);
  core.speed.joint_fraction = joint_fraction;
  return *this;
}

Program& Program::MoveL(const std::string& id, const v1::Pose& target, double linear_velocity) {
  v1::MotionSegment& wire = AddWire(id);
  *wire.mutable_movel()->mutable_target() = target;
  if (linear_velocity != 0) wire.mutable_speed()->set_linear_velocity(linear_velocity);
  motion::MotionSegment& core = AddCore(id, motion::MotionKind::kMoveL);
  core.target = CorePose(target);
  core.speed.linear_velocity = linear_velocity;
  return *this;
}

Program& Program::MoveC(const std::string& id, const v1::Pose& via, const v1::Pose& target,
                        double linear_velocity) {
  v1::MotionSegment& wire = AddWire(id);
  *wire.mutable_movec()->mutable_via() = via;
  *wire.mutable_movec()->mutable_target() = target;
  if (linear_velocity != 0) wire.mutable_speed()->set_linear_velocity(linear_velocity);
  motion::MotionSegment& core = AddCore(id, motion::MotionKind::kMoveC);
  core.via = CorePose(via);
  core.target = CorePose(target);
  core.speed.linear_velocity = linear_velocity;
  return *this;
}

Program& Program::Trapezoid() {
  wire_.set_profile(v1::PlanPathRequest::TRAPEZOID);
  core_.profile = motion::ProfileKind::kTrapezoid;
  return *this;
}

Program& Program::SampleTime(double seconds) {
  wire_.set_sample_time(seconds);
  core_.sample_time = seconds;
  return *this;
}

Program& Program::StopOnError(bool stop) {
  wire_.set_stop_on_error(stop);
  core_.stop_on_error = stop;
  return *this;
}

v1::PlanPathRequest Program::Request(const v1::RobotRef& robot) const {
  v1::PlanPathRequest request = wire_;
  *request.mutable_robot() = robot;
  return request;
}

bool ReachableVerdict(const motion::PathResult& result) {
  for (const motion::Diagnostic& d : result.diagnostics) {
    if (d.severity != motion::Severity::kError) continue;
    if (d.code == motion::DiagnosticCode::kTargetUnreachable ||
        d.code == motion::DiagnosticCode::kIkFailed ||
        d.code == motion::DiagnosticCode::kArcDegenerate ||
        (d.code == motion::DiagnosticCode::kJointLimit && d.point_index < 0)) {
      return false;
    }
  }
  return true;
}

// --------------------------------------------------------- URDF builders --

std::string SerialChainUrdf(int links, double step, bool (*is_revolute)(int),
                            const std::string& comment) {
  std::ostringstream out;
  out << "<?xml version=\"1.0\"?>\n<robot name=\"serial_" << links << "\">\n";
  if (!comment.empty()) out << "<!-- " << comment << " -->\n";
  for (int i = 0; i < links; ++i) out << "<link name=\"l" << i << "\"/>\n";
  for (int i = 1; i < links; ++i) {
    const bool revolute = is_revolute(i);
    out << "<joint name=\"j" << i << "\" type=\"" << (revolute ? "revolute" : "fixed") << "\">"
        << "<parent link=\"l" << i - 1 << "\"/><child link=\"l" << i << "\"/>"
        << "<origin xyz=\"" << step << " 0 0\" rpy=\"0 0 0\"/>";
    if (revolute) {
      out << "<axis xyz=\"0 0 1\"/><limit lower=\"-3\" upper=\"3\" velocity=\"1\" effort=\"1\"/>";
    }
    out << "</joint>\n";
  }
  out << "</robot>\n";
  return out.str();
}

std::string TwoJointUrdf(const std::string& type, const std::string& joint_body) {
  return "<?xml version=\"1.0\"?>\n<robot name=\"two_joints\">\n"
         "  <link name=\"base\"/>\n  <link name=\"mid\"/>\n  <link name=\"tip\"/>\n"
         "  <joint name=\"j1\" type=\"revolute\">\n"
         "    <parent link=\"base\"/>\n    <child link=\"mid\"/>\n"
         "    <origin xyz=\"0 0 0.1\" rpy=\"0 0 0\"/>\n    <axis xyz=\"0 0 1\"/>\n"
         "    <limit lower=\"-3\" upper=\"3\" velocity=\"1\" effort=\"1\"/>\n"
         "  </joint>\n"
         "  <joint name=\"the_joint\" type=\"" +
         type + "\">\n    <parent link=\"mid\"/>\n    <child link=\"tip\"/>\n    " + joint_body +
         "\n  </joint>\n</robot>\n";
}

}  // namespace motiond_test
