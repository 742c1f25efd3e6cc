#include "server/rpc/kinematics_service.h"

#include <cmath>
#include <vector>

#include "core/collision/collision_checker.h"
#include "core/geometry/pose_algebra.h"
#include "core/ik/ik_solver.h"
#include "core/kinematics/forward_kinematics.h"
#include "core/kinematics/jacobian.h"
#include "core/kinematics/joint_vector_check.h"
#include "server/convert/collision_conversion.h"
#include "server/convert/proto_conversion.h"
#include "server/rpc/ik_answer.h"
#include "server/rpc/ik_collision.h"
#include "server/rpc/reachability_batch.h"

namespace motion::server {
namespace {

// What FK and the Jacobian both read from a request: the chain, a joint
// vector of its length, and the optional tool.
struct JointsOnChain {
  ResolvedChain resolved;
  std::vector<double> q;
  Pose tool;
};

template <typename Request>
absl::StatusOr<JointsOnChain> ResolveJointsOnChain(RobotRegistry& registry,
                                                   const Request& request) {
  absl::StatusOr<ResolvedChain> resolved = ResolveChain(registry, request.robot());
  if (!resolved.ok()) return resolved.status();
  std::vector<double> q = ToVector(request.joints());
  if (auto status = CheckJointVector(*resolved->chain, q, "joints"); !status.ok()) return status;
  absl::StatusOr<Pose> tool = OptionalPoseFromProto(request.has_tool(), request.tool(), "tool");
  if (!tool.ok()) return tool.status();
  return JointsOnChain{*std::move(resolved), std::move(q), *tool};
}

}  // namespace

grpc::ServerUnaryReactor* KinematicsService::ComputeFk(grpc::CallbackServerContext* context,
                                                       const v1::ComputeFkRequest* request,
                                                       v1::ComputeFkResponse* response) {
  auto work = [this, request, response](ChainDataCache& cache) -> absl::Status {
    absl::StatusOr<JointsOnChain> in = ResolveJointsOnChain(env_.registry, *request);
    if (!in.ok()) return in.status();
    const ChainModel& chain = *in->resolved.chain;
    const std::vector<double>& q = in->q;

    ChainData& data = cache.For(in->resolved.chain).kinematics;
    const auto started = std::chrono::steady_clock::now();
    const Eigen::Isometry3d flange =
        ForwardKinematics(chain, data, Eigen::Map<const Eigen::VectorXd>(q.data(), q.size()));
    env_.metrics.RecordSolve("fk", "-", SecondsSince(started));
    PoseToProto(flange, response->mutable_flange());
    PoseToProto(flange * in->tool.ToIsometry(), response->mutable_tcp());
    if (request->has_frame()) {
      absl::StatusOr<Pose> frame = PoseFromProto(request->frame(), "frame");
      if (!frame.ok()) return frame.status();
      PoseToProto(frame->ToIsometry().inverse() * flange * in->tool.ToIsometry(),
                  response->mutable_tcp_in_frame());
    }
    if (request->all_links()) {
      for (const LinkPose& link : LinkPoses(chain, data)) {
        LinkPoseToProto(link, response->add_links());
      }
    }
    return absl::OkStatus();
  };
  if (NamesRegisteredRobotOnly(request->robot())) return RunUnaryInline(context, "ComputeFk", work);
  return RunUnaryOnPool(env_, context, "ComputeFk", LaneForRobot(request->robot()), work);
}

grpc::ServerUnaryReactor* KinematicsService::ComputeIk(grpc::CallbackServerContext* context,
                                                       const v1::ComputeIkRequest* request,
                                                       v1::IkResult* response) {
  return RunUnaryOnPool(
      env_, context, "ComputeIk",
      // An IK with a budget of its own beyond 50 ms is long work.
      request->options().timeout() > 0.05 ? Lane::kLong : LaneForRobot(request->robot()),
      [this, context, request, response](ChainDataCache& cache) -> absl::Status {
        absl::StatusOr<ResolvedChain> resolved = ResolveChain(env_.registry, request->robot());
        if (!resolved.ok()) return resolved.status();
        absl::StatusOr<Pose> target_in_frame = PoseFromProto(request->target(), "target");
        if (!target_in_frame.ok()) return target_in_frame.status();
        absl::StatusOr<Pose> frame =
            OptionalPoseFromProto(request->has_frame(), request->frame(), "frame");
        if (!frame.ok()) return frame.status();
        // In the base frame; as sent when there is no frame (bit for bit).
        const Pose target =
            request->has_frame() ? Compose(*frame, *target_in_frame) : *target_in_frame;
        absl::StatusOr<Pose> tool =
            OptionalPoseFromProto(request->has_tool(), request->tool(), "tool");
        if (!tool.ok()) return tool.status();
        absl::StatusOr<IkOptions> options = IkOptionsFromProto(request->options());
        if (!options.ok()) return options.status();
        options->stop = [context] { return context->IsCancelled(); };
        absl::StatusOr<std::optional<IkCollisionSetup>> collision =
            IkCollisionFromProto(env_, *resolved, request->options(), "options");
        if (!collision.ok()) return collision.status();
        const auto started = std::chrono::steady_clock::now();
        IkData& data = cache.For(resolved->chain);
        absl::StatusOr<IkResult> result = SolveRequestedIk(
            *resolved->chain, data, target, *tool, ToVector(request->seed()), *options, *collision);
        if (!result.ok()) return result.status();
        if (context->IsCancelled()) {
          return absl::CancelledError("ComputeIk: cancelled or past its deadline while solving");
        }
        env_.metrics.RecordIk(options->solver, *result, SecondsSince(started));
        IkAnswerToProto(*resolved->chain, cache.For(resolved->chain), *result, *tool,
                        request->has_frame() ? std::optional<Pose>(*frame) : std::nullopt,
                        response);
        return absl::OkStatus();
      });
}

grpc::ServerUnaryReactor* KinematicsService::CheckReachability(
    grpc::CallbackServerContext* context, const v1::CheckReachabilityRequest* request,
    v1::CheckReachabilityResponse* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  ReachabilityBatch::Start(env_, context, request, response, reactor);
  return reactor;
}

grpc::ServerUnaryReactor* KinematicsService::ComputeJacobian(
    grpc::CallbackServerContext* context, const v1::ComputeJacobianRequest* request,
    v1::ComputeJacobianResponse* response) {
  auto work = [this, request, response](ChainDataCache& cache) -> absl::Status {
    absl::StatusOr<JointsOnChain> in = ResolveJointsOnChain(env_.registry, *request);
    if (!in.ok()) return in.status();
    const ChainModel& chain = *in->resolved.chain;
    const std::vector<double>& q = in->q;

    Jacobian jacobian;
    const auto started = std::chrono::steady_clock::now();
    motion::ComputeJacobian(chain, cache.For(in->resolved.chain).kinematics,
                            Eigen::Map<const Eigen::VectorXd>(q.data(), q.size()),
                            in->tool.ToIsometry(), jacobian);
    const JacobianMeasures measures = MeasureJacobian(jacobian);
    env_.metrics.RecordSolve("jacobian", "-", SecondsSince(started));
    FillJacobian(jacobian, measures, response);
    return absl::OkStatus();
  };
  if (NamesRegisteredRobotOnly(request->robot())) {
    return RunUnaryInline(context, "ComputeJacobian", work);
  }
  return RunUnaryOnPool(env_, context, "ComputeJacobian", LaneForRobot(request->robot()), work);
}

// At most this many configurations per CheckCollision call (one answer
// each; a path is checked by PlanPath / ValidatePath instead).
constexpr int kMaxCollisionConfigurations = 10000;

grpc::ServerUnaryReactor* KinematicsService::CheckCollision(
    grpc::CallbackServerContext* context, const v1::CheckCollisionRequest* request,
    v1::CheckCollisionResponse* response) {
  return RunUnaryOnPool(
      env_, context, "CheckCollision",
      // A few configurations against a small scene take microseconds; a
      // batch, a big scene or geometry to parse is long work.
      request->configurations_size() <= 16 && request->scene().scene().objects_size() <= 64
          ? LaneForRobot(request->robot())
          : Lane::kLong,
      [this, context, request, response](ChainDataCache& cache) -> absl::Status {
        absl::StatusOr<ResolvedChain> resolved = ResolveChain(env_.registry, request->robot());
        if (!resolved.ok()) return resolved.status();
        if (request->configurations_size() > kMaxCollisionConfigurations) {
          return absl::InvalidArgumentError(
              absl::StrCat("configurations: ", request->configurations_size(),
                           " configurations; the limit is ", kMaxCollisionConfigurations));
        }
        if (!(std::isfinite(request->safety_margin()) && request->safety_margin() >= 0)) {
          return absl::InvalidArgumentError(absl::StrCat(
              "safety_margin: must be a finite number >= 0 (m), got ", request->safety_margin()));
        }
        const ChainModel& chain = *resolved->chain;
        std::vector<Eigen::VectorXd> configurations;
        for (int i = 0; i < request->configurations_size(); ++i) {
          std::vector<double> q = ToVector(request->configurations(i).values());
          if (auto status =
                  CheckJointVector(chain, q, absl::StrCat("configurations[", i, "].values"));
              !status.ok()) {
            return status;
          }
          configurations.push_back(Eigen::Map<const Eigen::VectorXd>(q.data(), q.size()));
        }
        absl::StatusOr<std::shared_ptr<const CollisionScene>> scene =
            ResolveScene(env_.scenes, request->scene(), "scene");
        if (!scene.ok()) return scene.status();
        const std::shared_ptr<const RobotCollisionModel> robot = env_.collision_models.For(
            *resolved->robot.model, *resolved->robot.meshes, resolved->chain);
        absl::StatusOr<std::shared_ptr<const AllowedCollisions>> allowed =
            AllowedCollisionsFromProto(request->allowed_collisions(), *robot, **scene,
                                       "allowed_collisions");
        if (!allowed.ok()) return allowed.status();
        CollisionQuery query;
        query.allowed = allowed->get();
        query.self_collision =
            !request->has_check_self_collision() || request->check_self_collision();
        query.compute_distance = request->compute_distance();
        query.safety_margin = request->safety_margin();
        ChainData& data = cache.For(resolved->chain).kinematics;
        const auto started = std::chrono::steady_clock::now();
        for (std::size_t i = 0; i < configurations.size(); ++i) {
          if (i % 256 == 0 && context->IsCancelled()) {
            return absl::CancelledError("CheckCollision: cancelled by the client");
          }
          CollisionVerdictToProto(
              motion::CheckCollision(chain, data, *robot, **scene, configurations[i], query),
              response->add_results());
        }
        env_.metrics.RecordSolve("collision", "-", SecondsSince(started));
        CollisionModelToProto(*robot, response->mutable_links(),
                              response->mutable_disabled_pairs());
        return absl::OkStatus();
      });
}

}  // namespace motion::server
