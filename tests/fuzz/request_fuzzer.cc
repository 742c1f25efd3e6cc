// Raw bytes -> one motion.v1 request message (the first byte picks the
// type, request_kind.h) -> the same sequence the service handler runs:
// resolve the robot and chain (registering an inline URDF and its meshes),
// convert and validate every field (server/convert), resolve or register
// the scene, run core, build the response messages and the gRPC status.
// The handlers themselves need a live gRPC call; what they add around this
// sequence is the reactor, the pool and the metrics interceptor.
//
// Budgets are smaller than the server's so one input stays fast: 2000
// trajectory points (plans, checked, resampled and profile samples), 32
// segments, 16 targets or configurations, IK capped at 200 iterations. The count checks they skip
// are one comparison each.
//
// State: the bundled robots are registered once (by robot_id an input
// reaches them without sending a URDF), their chains and collision models
// are built once and cached, which is what a server does and changes no
// answer. Everything an input sends (URDFs, meshes, scenes) goes into
// registries made for that input alone, so each input is reproducible by
// itself.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <google/protobuf/stubs/logging.h>
#include <prometheus/registry.h>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/cache/chain_data_cache.h"
#include "core/collision/collision_checker.h"
#include "core/ik/ik_solver.h"
#include "core/kinematics/forward_kinematics.h"
#include "core/kinematics/jacobian.h"
#include "core/kinematics/joint_vector_check.h"
#include "motion/v1/geometry.pb.h"
#include "motion/v1/kinematics.pb.h"
#include "motion/v1/motion_planner.pb.h"
#include "motion/v1/robot_registry.pb.h"
#include "server/convert/cell_conversion.h"
#include "server/convert/collision_conversion.h"
#include "server/convert/path_conversion.h"
#include "server/convert/proto_conversion.h"
#include "server/convert/status_conversion.h"
#include "server/observability/server_metrics.h"
#include "server/planning/cell_planning.h"
#include "server/planning/program_planning.h"
#include "server/rpc/geometry_operations.h"
#include "server/runtime/chain_resolution.h"
#include "server/runtime/collision_model_cache.h"
#include "server/runtime/robot_registry.h"
#include "server/runtime/scene_registry.h"
#include "server/runtime/solver_pool.h"
#include "tests/fuzz/request_kind.h"

namespace {

using motiond_fuzz::RequestKind;
namespace server = motion::server;
namespace v1 = motion::v1;

constexpr int kMaxTargets = 16;
constexpr int kMaxConfigurations = 16;
constexpr int kMaxIkIterations = 200;
constexpr double kMaxIkSeconds = 0.002;
constexpr int kMaxIkSolutions = 8;

// The bundled robots and what the server builds once per chain.
struct BundledRobots {
  BundledRobots() : pool(1, 1), metrics(std::make_shared<prometheus::Registry>(), robots, pool) {
    for (const auto& entry : std::filesystem::directory_iterator(MOTIOND_ROBOTS_DIR)) {
      if (entry.path().extension() != ".urdf") continue;
      std::ifstream in(entry.path(), std::ios::binary);
      std::stringstream text;
      text << in.rdbuf();
      if (!robots.Register(text.str()).ok()) {
        std::fprintf(stderr, "bundled robot %s does not load\n", entry.path().c_str());
        std::abort();
      }
    }
  }
  server::RobotRegistry robots{server::RegistryOptions{}};
  server::CollisionModelCache collision_models;
  server::SolverPool pool;
  server::ServerMetrics metrics;
};

BundledRobots& Bundled() {
  // Never destroyed: LeakSanitizer sees it as reachable, and no exit-time
  // destructor order can bite.
  static BundledRobots* bundled = new BundledRobots();
  return *bundled;
}

// What one input may register: URDFs sent inline and scenes.
struct InputState {
  server::RobotRegistry robots{server::RegistryOptions{}};
  server::CollisionModelCache collision_models;
  server::SceneRegistry scenes;
  motion::ChainDataCache chain_data;

  // A RobotRef with a URDF registers it here; one with an id only finds a
  // bundled robot.
  server::RobotRegistry& RobotsFor(const v1::RobotRef& ref) {
    return ref.urdf().empty() ? Bundled().robots : robots;
  }
  server::CollisionModelCache& CollisionModelsFor(const v1::RobotRef& ref) {
    return ref.urdf().empty() ? Bundled().collision_models : collision_models;
  }
};

std::vector<double> ToVector(const google::protobuf::RepeatedField<double>& values) {
  return std::vector<double>(values.begin(), values.end());
}

absl::StatusOr<motion::IkOptions> BudgetedIkOptions(const v1::IkOptions& in) {
  absl::StatusOr<motion::IkOptions> options = server::IkOptionsFromProto(in);
  if (!options.ok()) return options;
  // Non-positive values go on unchanged: core's validation must name them.
  if (options->max_iterations > 0) {
    options->max_iterations = std::min(options->max_iterations, kMaxIkIterations);
  }
  if (options->timeout > 0) options->timeout = std::min(options->timeout, kMaxIkSeconds);
  if (options->max_solutions > 0) {
    options->max_solutions = std::min(options->max_solutions, kMaxIkSolutions);
  }
  return options;
}

void AddCollisionInfo(server::CollisionModelCache& cache, const server::RegisteredRobot& robot,
                      const std::shared_ptr<const motion::ChainModel>& chain, v1::RobotInfo* out) {
  const std::shared_ptr<const motion::RobotCollisionModel> model =
      cache.For(*robot.model, *robot.meshes, chain);
  server::CollisionModelToProto(*model, out->mutable_link_geometry(),
                                out->mutable_disabled_pairs());
}

absl::Status RegisterRobot(InputState& state, const v1::RegisterRobotRequest& request) {
  std::vector<server::MeshFileBytes> meshes;
  for (const v1::MeshFile& m : request.meshes()) meshes.push_back({m.filename(), m.data()});
  absl::StatusOr<server::RegisteredRobot> robot = state.robots.Register(request.urdf(), meshes);
  if (!robot.ok()) return robot.status();
  absl::StatusOr<std::shared_ptr<const motion::ChainModel>> chain = robot->model->Chain();
  if (!chain.ok()) return chain.status();
  v1::RegisterRobotResponse response;
  server::FillRobotInfo(robot->robot_id, *robot->model, **chain, response.mutable_info());
  AddCollisionInfo(state.collision_models, *robot, *chain, response.mutable_info());
  return absl::OkStatus();
}

absl::Status GetRobot(const v1::GetRobotRequest& request) {
  v1::RobotRef ref;
  ref.set_robot_id(request.robot_id());
  ref.set_base_link(request.base_link());
  ref.set_tip_link(request.tip_link());
  absl::StatusOr<server::ResolvedChain> resolved = server::ResolveChain(Bundled().robots, ref, "");
  if (!resolved.ok()) return resolved.status();
  v1::RobotInfo info;
  server::FillRobotInfo(resolved->robot.robot_id, *resolved->robot.model, *resolved->chain, &info);
  AddCollisionInfo(Bundled().collision_models, resolved->robot, resolved->chain, &info);
  return absl::OkStatus();
}

// FK and the Jacobian read the same three things first (as the handler's
// ResolveJointsOnChain).
template <typename Request>
absl::Status WithJointsOnChain(
    InputState& state, const Request& request,
    const std::function<void(const server::ResolvedChain&, const Eigen::VectorXd&,
                             const motion::Pose&)>& body) {
  absl::StatusOr<server::ResolvedChain> resolved =
      server::ResolveChain(state.RobotsFor(request.robot()), request.robot());
  if (!resolved.ok()) return resolved.status();
  const std::vector<double> q = ToVector(request.joints());
  if (auto status = motion::CheckJointVector(*resolved->chain, q, "joints"); !status.ok()) {
    return status;
  }
  absl::StatusOr<motion::Pose> tool =
      server::OptionalPoseFromProto(request.has_tool(), request.tool(), "tool");
  if (!tool.ok()) return tool.status();
  body(*resolved, Eigen::Map<const Eigen::VectorXd>(q.data(), q.size()), *tool);
  return absl::OkStatus();
}

absl::Status ComputeFk(InputState& state, const v1::ComputeFkRequest& request) {
  return WithJointsOnChain(
      state, request,
      [&](const server::ResolvedChain& resolved, const Eigen::VectorXd& q,
          const motion::Pose& tool) {
        const motion::ChainModel& chain = *resolved.chain;
        motion::ChainData& data = state.chain_data.For(resolved.chain).kinematics;
        v1::ComputeFkResponse response;
        const Eigen::Isometry3d flange = motion::ForwardKinematics(chain, data, q);
        server::PoseToProto(flange, response.mutable_flange());
        server::PoseToProto(flange * tool.ToIsometry(), response.mutable_tcp());
        if (request.all_links()) {
          for (const motion::LinkPose& link : motion::LinkPoses(chain, data)) {
            server::LinkPoseToProto(link, response.add_links());
          }
        }
      });
}

absl::Status ComputeJacobian(InputState& state, const v1::ComputeJacobianRequest& request) {
  return WithJointsOnChain(
      state, request,
      [&](const server::ResolvedChain& resolved, const Eigen::VectorXd& q,
          const motion::Pose& tool) {
        motion::Jacobian jacobian;
        motion::ComputeJacobian(*resolved.chain, state.chain_data.For(resolved.chain).kinematics, q,
                                tool.ToIsometry(), jacobian);
        v1::ComputeJacobianResponse response;
        server::FillJacobian(jacobian, motion::MeasureJacobian(jacobian), &response);
      });
}

absl::Status ComputeIk(InputState& state, const v1::ComputeIkRequest& request) {
  absl::StatusOr<server::ResolvedChain> resolved =
      server::ResolveChain(state.RobotsFor(request.robot()), request.robot());
  if (!resolved.ok()) return resolved.status();
  absl::StatusOr<motion::Pose> target = server::PoseFromProto(request.target(), "target");
  if (!target.ok()) return target.status();
  absl::StatusOr<motion::Pose> tool =
      server::OptionalPoseFromProto(request.has_tool(), request.tool(), "tool");
  if (!tool.ok()) return tool.status();
  absl::StatusOr<motion::IkOptions> options = BudgetedIkOptions(request.options());
  if (!options.ok()) return options.status();
  absl::StatusOr<motion::IkResult> result =
      motion::SolveIk(*resolved->chain, state.chain_data.For(resolved->chain), *target, *tool,
                      ToVector(request.seed()), *options);
  if (!result.ok()) return result.status();
  v1::IkResult response;
  server::IkResultToProto(*result, &response);
  return absl::OkStatus();
}

// ReachabilityBatch::Prepare and Work on one thread.
absl::Status CheckReachability(InputState& state, const v1::CheckReachabilityRequest& request) {
  const int count = request.targets_size();
  if (count == 0) return absl::InvalidArgumentError("targets: empty");
  if (count > kMaxTargets) return absl::OkStatus();
  absl::StatusOr<server::ResolvedChain> resolved =
      server::ResolveChain(state.RobotsFor(request.robot()), request.robot());
  if (!resolved.ok()) return resolved.status();
  absl::StatusOr<motion::IkOptions> options = BudgetedIkOptions(request.options());
  if (!options.ok()) return options.status();
  absl::StatusOr<motion::Pose> tool =
      server::OptionalPoseFromProto(request.has_tool(), request.tool(), "tool");
  if (!tool.ok()) return tool.status();
  std::vector<double> seed = ToVector(request.seed());
  if (!seed.empty()) {
    if (auto status = motion::CheckJointVector(*resolved->chain, seed, "seed"); !status.ok()) {
      return status;
    }
  }
  std::vector<motion::Pose> targets;
  for (int i = 0; i < count; ++i) {
    absl::StatusOr<motion::Pose> target =
        server::PoseFromProto(request.targets(i), absl::StrCat("targets[", i, "]"));
    if (!target.ok()) return target.status();
    targets.push_back(*target);
  }
  v1::CheckReachabilityResponse response;
  motion::IkData& data = state.chain_data.For(resolved->chain);
  for (const motion::Pose& target : targets) {
    absl::StatusOr<motion::IkResult> result =
        motion::SolveIk(*resolved->chain, data, target, *tool, seed, *options);
    if (!result.ok()) return result.status();
    server::IkResultToProto(*result, response.add_results());
    if (request.options().seed_from_previous() && result->ok) {
      seed.assign(result->joints.data(), result->joints.data() + result->joints.size());
    }
  }
  return absl::OkStatus();
}

absl::Status CheckCollision(InputState& state, const v1::CheckCollisionRequest& request) {
  absl::StatusOr<server::ResolvedChain> resolved =
      server::ResolveChain(state.RobotsFor(request.robot()), request.robot());
  if (!resolved.ok()) return resolved.status();
  if (request.configurations_size() > kMaxConfigurations) return absl::OkStatus();
  if (!(std::isfinite(request.safety_margin()) && request.safety_margin() >= 0)) {
    return absl::InvalidArgumentError("safety_margin: must be a finite number >= 0");
  }
  const motion::ChainModel& chain = *resolved->chain;
  std::vector<Eigen::VectorXd> configurations;
  for (int i = 0; i < request.configurations_size(); ++i) {
    std::vector<double> q = ToVector(request.configurations(i).values());
    if (auto status =
            motion::CheckJointVector(chain, q, absl::StrCat("configurations[", i, "].values"));
        !status.ok()) {
      return status;
    }
    configurations.push_back(Eigen::Map<const Eigen::VectorXd>(q.data(), q.size()));
  }
  absl::StatusOr<std::shared_ptr<const motion::CollisionScene>> scene =
      server::ResolveScene(state.scenes, request.scene(), "scene");
  if (!scene.ok()) return scene.status();
  const std::shared_ptr<const motion::RobotCollisionModel> robot =
      state.CollisionModelsFor(request.robot())
          .For(*resolved->robot.model, *resolved->robot.meshes, resolved->chain);
  absl::StatusOr<std::shared_ptr<const motion::AllowedCollisions>> allowed =
      server::AllowedCollisionsFromProto(request.allowed_collisions(), *robot, **scene,
                                         "allowed_collisions");
  if (!allowed.ok()) return allowed.status();
  motion::CollisionQuery query;
  query.allowed = allowed->get();
  query.self_collision = !request.has_check_self_collision() || request.check_self_collision();
  query.compute_distance = request.compute_distance();
  query.safety_margin = request.safety_margin();
  motion::ChainData& data = state.chain_data.For(resolved->chain).kinematics;
  v1::CheckCollisionResponse response;
  for (const Eigen::VectorXd& q : configurations) {
    server::CollisionVerdictToProto(motion::CheckCollision(chain, data, *robot, **scene, q, query),
                                    response.add_results());
  }
  server::CollisionModelToProto(*robot, response.mutable_links(),
                                response.mutable_disabled_pairs());
  return absl::OkStatus();
}

motion::PathLimits FuzzPathLimits() {
  motion::PathLimits limits;
  limits.max_points = 2000;
  limits.max_segments = 32;
  limits.max_planning_seconds = 0.05;
  return limits;
}

// ResolveProgram and PlanProgram, as both stream reactors call them.
absl::StatusOr<motion::PathResult> Plan(InputState& state, const v1::PlanPathRequest& request,
                                        absl::string_view robot_field,
                                        server::ProgramToPlan* program) {
  absl::StatusOr<server::ProgramToPlan> resolved = server::ResolveProgram(
      state.RobotsFor(request.robot()), state.CollisionModelsFor(request.robot()), state.scenes,
      request, robot_field);
  if (!resolved.ok()) return resolved.status();
  *program = *std::move(resolved);
  return server::PlanProgram(*program, state.chain_data, FuzzPathLimits(), Bundled().metrics,
                             [] { return false; });
}

// PlanPathStream::Plan and every message WriteNext builds.
absl::Status PlanPath(InputState& state, const v1::PlanPathRequest& request) {
  server::ProgramToPlan program;
  absl::StatusOr<motion::PathResult> result = Plan(state, request, "robot", &program);
  if (!result.ok()) return result.status();
  if (request.max_chunk_points() < 0) {
    return absl::InvalidArgumentError("max_chunk_points: must be >= 0 (0 = 256)");
  }
  const std::size_t chunk_points = request.max_chunk_points() == 0
                                       ? 256
                                       : std::min<std::size_t>(request.max_chunk_points(), 4096);
  v1::PlanPathResponse message;
  const motion::Trajectory& t = result->trajectory;
  server::PlanHeaderToProto(program.robot_id, *program.chain, program.path.sample_time, t,
                            message.mutable_header());
  for (const motion::SegmentReport& report : result->segments) {
    server::SegmentReportToProto(report, message.mutable_segment_report());
  }
  for (std::size_t begin = 0; begin < t.size(); begin += chunk_points) {
    server::TrajectoryChunkToProto(t, begin, std::min(t.size(), begin + chunk_points),
                                   request.include_tcp(), message.mutable_chunk());
  }
  server::PlanSummaryToProto(*result, message.mutable_summary());
  return absl::OkStatus();
}

absl::Status ValidatePath(InputState& state, const v1::ValidatePathRequest& request) {
  v1::ValidatePathResponse response;
  server::ProgramToPlan program;
  absl::StatusOr<motion::PathResult> result = Plan(state, request.path(), "path.robot", &program);
  if (!result.ok()) {
    server::ValidationErrorToProto(result.status(), &response);
    return result.status();
  }
  server::ValidationToProto(*result, &response);
  return absl::OkStatus();
}

// StartValidateCell and CellCall::Check in one thread: the cell checked,
// every program planned in its share of the cell's instants, with smaller
// bounds on the cell (instants, start times tried) than the server's.
absl::Status ValidateCell(InputState& state, const v1::ValidateCellRequest& request) {
  absl::StatusOr<server::CellRequest> cell = server::CellRequestFromProto(request);
  if (!cell.ok()) return cell.status();
  cell->options.max_instants = std::min<std::size_t>(cell->options.max_instants, 1000);
  cell->options.max_start_candidates = std::min<std::size_t>(cell->options.max_start_candidates, 8);
  motion::PathLimits limits = FuzzPathLimits();
  limits.max_points = std::min<long>(
      limits.max_points, static_cast<long>(cell->options.max_instants / cell->programs.size()) - 1);
  std::vector<server::PlannedCellProgram> planned;
  for (std::size_t i = 0; i < cell->programs.size(); ++i) {
    const v1::PlanPathRequest& program = cell->programs[i];
    absl::StatusOr<server::PlannedCellProgram> p = server::PlanCellProgram(
        state.RobotsFor(program.robot()), state.CollisionModelsFor(program.robot()), state.scenes,
        program, absl::StrCat("robots[", i, "].robot"), state.chain_data, limits, Bundled().metrics,
        [] { return false; });
    if (!p.ok()) return p.status();
    planned.push_back(*std::move(p));
  }
  std::shared_ptr<const motion::CollisionScene> scene = motion::CollisionScene::Empty();
  if (request.has_scene()) {
    absl::StatusOr<std::shared_ptr<const motion::CollisionScene>> resolved =
        server::ResolveScene(state.scenes, request.scene(), "scene");
    if (!resolved.ok()) return resolved.status();
    scene = *std::move(resolved);
  }
  v1::ValidateCellResponse response;
  return server::CheckPlannedCell(
      request, *cell, planned, *scene, [] { return false; }, &response);
}

absl::Status RegisterScene(InputState& state, const v1::RegisterSceneRequest& request) {
  return server::RegisterScene(state.scenes, request.scene(), "scene").status();
}

// Geometry runs the handlers' own operations (server/rpc/geometry_operations.h)
// with the fuzz budget's trajectory length.
server::RequestLimits FuzzRequestLimits() {
  server::RequestLimits limits;
  limits.path = FuzzPathLimits();
  return limits;
}

template <typename Response, typename Request, typename Operation>
absl::Status Answer(const Request& request, Operation operation) {
  Response response;
  return operation(request, &response);
}

template <typename Message>
bool Parse(const std::uint8_t* bytes, std::size_t size, Message* message) {
  return message->ParseFromArray(bytes, static_cast<int>(size));
}

absl::Status Run(InputState& state, RequestKind kind, const std::uint8_t* bytes, std::size_t size) {
  switch (kind) {
#define MOTIOND_FUZZ_CASE(KIND, MESSAGE, CALL)                  \
  case RequestKind::KIND: {                                     \
    MESSAGE request;                                            \
    if (!Parse(bytes, size, &request)) return absl::OkStatus(); \
    return CALL;                                                \
  }
    MOTIOND_FUZZ_CASE(kRegisterRobot, v1::RegisterRobotRequest, RegisterRobot(state, request))
    MOTIOND_FUZZ_CASE(kGetRobot, v1::GetRobotRequest, GetRobot(request))
    MOTIOND_FUZZ_CASE(kComputeFk, v1::ComputeFkRequest, ComputeFk(state, request))
    MOTIOND_FUZZ_CASE(kComputeIk, v1::ComputeIkRequest, ComputeIk(state, request))
    MOTIOND_FUZZ_CASE(kComputeJacobian, v1::ComputeJacobianRequest, ComputeJacobian(state, request))
    MOTIOND_FUZZ_CASE(kCheckReachability, v1::CheckReachabilityRequest,
                      CheckReachability(state, request))
    MOTIOND_FUZZ_CASE(kCheckCollision, v1::CheckCollisionRequest, CheckCollision(state, request))
    MOTIOND_FUZZ_CASE(kPlanPath, v1::PlanPathRequest, PlanPath(state, request))
    MOTIOND_FUZZ_CASE(kValidatePath, v1::ValidatePathRequest, ValidatePath(state, request))
    MOTIOND_FUZZ_CASE(kRegisterScene, v1::RegisterSceneRequest, RegisterScene(state, request))
    MOTIOND_FUZZ_CASE(kCheckTrajectory, v1::CheckTrajectoryRequest,
                      Answer<v1::CheckTrajectoryResponse>(request, [&](const auto& r, auto* out) {
                        return server::CheckTrajectoryOperation(state.RobotsFor(r.robot()),
                                                                FuzzRequestLimits(), r, out);
                      }))
    MOTIOND_FUZZ_CASE(
        kResampleTrajectory, v1::ResampleTrajectoryRequest,
        Answer<v1::ResampleTrajectoryResponse>(request, [&](const auto& r, auto* out) {
          return server::ResampleTrajectoryOperation(state.RobotsFor(r.robot()),
                                                     FuzzRequestLimits(), r, out);
        }))
    MOTIOND_FUZZ_CASE(kConvertPose, v1::ConvertPoseRequest,
                      Answer<v1::ConvertPoseResponse>(request, server::ConvertPoseOperation))
    MOTIOND_FUZZ_CASE(kComposePoses, v1::ComposePosesRequest,
                      Answer<v1::PoseResponse>(request, server::ComposePosesOperation))
    MOTIOND_FUZZ_CASE(kInvertPose, v1::InvertPoseRequest,
                      Answer<v1::PoseResponse>(request, server::InvertPoseOperation))
    MOTIOND_FUZZ_CASE(kApplyOffset, v1::ApplyOffsetRequest,
                      Answer<v1::PoseResponse>(request, server::ApplyOffsetOperation))
    MOTIOND_FUZZ_CASE(
        kApplyToolAndFrame, v1::ApplyToolAndFrameRequest,
        Answer<v1::ApplyToolAndFrameResponse>(request, server::ApplyToolAndFrameOperation))
    MOTIOND_FUZZ_CASE(kCheckJointLimits, v1::CheckJointLimitsRequest,
                      Answer<v1::CheckJointLimitsResponse>(request, [&](const auto& r, auto* out) {
                        return server::CheckJointLimitsOperation(state.RobotsFor(r.robot()), r,
                                                                 out);
                      }))
    MOTIOND_FUZZ_CASE(kCheckSingularity, v1::CheckSingularityRequest,
                      Answer<v1::CheckSingularityResponse>(request, [&](const auto& r, auto* out) {
                        return server::CheckSingularityOperation(state.RobotsFor(r.robot()),
                                                                 state.chain_data, r, out);
                      }))
    MOTIOND_FUZZ_CASE(kComputeProfile, v1::ComputeProfileRequest,
                      Answer<v1::ComputeProfileResponse>(request, [&](const auto& r, auto* out) {
                        return server::ComputeProfileOperation(FuzzRequestLimits(), r, out);
                      }))
    MOTIOND_FUZZ_CASE(kValidateCell, v1::ValidateCellRequest, ValidateCell(state, request))
#undef MOTIOND_FUZZ_CASE
  }
  return absl::OkStatus();
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // Mutated strings are often not UTF-8; protobuf refuses them (as the
  // server does) and would log each one, at a hundred times the cost of
  // the input.
  google::protobuf::SetLogHandler(nullptr);
  Bundled();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
  if (size == 0) return 0;
  const auto kind = static_cast<RequestKind>(bytes[0] % motiond_fuzz::kRequestKindCount);
  InputState state;
  const absl::Status status = Run(state, kind, bytes + 1, size - 1);
  // What the client would receive, details included.
  const grpc::Status reply = server::ToGrpcStatus(status);
  // README "Hostile URDFs": no error message leaves the server with a raw
  // '%' (request text is quoted), so none can act as a format downstream.
  if (reply.error_message().find('%') != std::string::npos) {
    std::fprintf(stderr, "raw '%%' in an error message: %s\n", reply.error_message().c_str());
    std::abort();
  }
  return 0;
}
