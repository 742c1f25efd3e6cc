// motion.v1.Geometry's joint-vector operations: limits and singularity.
#include <cmath>
#include <limits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/ik/ik_options.h"
#include "core/kinematics/jacobian.h"
#include "core/kinematics/joint_vector_check.h"
#include "server/convert/proto_conversion.h"
#include "server/rpc/geometry_operations.h"
#include "server/rpc/geometry_service.h"

namespace motion::server {
namespace {

// As many as CheckCollision takes: one answer each.
constexpr int kMaxConfigurations = 10000;

void FillJointState(const std::string& name, const JointLimits& l, double q,
                    v1::JointLimitState* out) {
  out->set_joint(name);
  out->set_value(q);
  out->set_lower(l.bounded ? l.lower : -std::numeric_limits<double>::infinity());
  out->set_upper(l.bounded ? l.upper : std::numeric_limits<double>::infinity());
  if (!l.bounded) {
    out->set_inside(true);
    out->set_distance_to_nearest(std::numeric_limits<double>::infinity());
    return;
  }
  const double to_lower = q - l.lower, to_upper = l.upper - q;
  out->set_inside(to_lower >= 0 && to_upper >= 0);
  out->set_distance_to_nearest(std::min(to_lower, to_upper));
  out->set_nearest(to_lower <= to_upper ? "lower" : "upper");
}

}  // namespace

absl::Status CheckJointLimitsOperation(RobotRegistry& registry,
                                       const v1::CheckJointLimitsRequest& request,
                                       v1::CheckJointLimitsResponse* response) {
  const int count = request.configurations_size();
  if (count == 0 || count > kMaxConfigurations) {
    return absl::InvalidArgumentError(
        absl::StrCat("configurations: ", count, " joint vectors; give 1 to ", kMaxConfigurations));
  }
  absl::StatusOr<ResolvedChain> resolved = ResolveChain(registry, request.robot());
  if (!resolved.ok()) return resolved.status();
  const ChainModel& chain = *resolved->chain;
  for (int i = 0; i < count; ++i) {
    const std::vector<double> q = ToVector(request.configurations(i).values());
    // Finite values of the right count; being outside is the answer.
    if (auto status = CheckJointVector(chain, q, absl::StrCat("configurations[", i, "].values"));
        !status.ok()) {
      return status;
    }
    v1::JointLimitsResult* result = response->add_results();
    bool inside = true;
    for (int j = 0; j < chain.dof(); ++j) {
      v1::JointLimitState* state = result->add_joints();
      FillJointState(chain.dof_names[j], chain.dof_limits[j], q[j], state);
      inside = inside && state->inside();
    }
    result->set_inside(inside);
  }
  return absl::OkStatus();
}

grpc::ServerUnaryReactor* GeometryService::CheckJointLimits(
    grpc::CallbackServerContext* context, const v1::CheckJointLimitsRequest* request,
    v1::CheckJointLimitsResponse* response) {
  return RunUnaryOnPool(
      env_, context, "CheckJointLimits",
      request->configurations_size() <= 64 ? LaneForRobot(request->robot()) : Lane::kLong,
      [this, request, response](ChainDataCache&) {
        return CheckJointLimitsOperation(env_.registry, *request, response);
      });
}

absl::Status CheckSingularityOperation(RobotRegistry& registry, ChainDataCache& cache,
                                       const v1::CheckSingularityRequest& request,
                                       v1::CheckSingularityResponse* response) {
  // The default is the one IK and the planner warn at (SINGULARITY).
  const double threshold =
      request.threshold() == 0 ? IkOptions().singularity_threshold : request.threshold();
  if (!(std::isfinite(threshold) && threshold > 0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("threshold: must be a finite number > 0, got ", request.threshold()));
  }
  absl::StatusOr<ResolvedChain> resolved = ResolveChain(registry, request.robot());
  if (!resolved.ok()) return resolved.status();
  const ChainModel& chain = *resolved->chain;
  const std::vector<double> q = ToVector(request.joints());
  if (auto status = CheckJointVector(chain, q, "joints"); !status.ok()) return status;
  absl::StatusOr<Pose> tool = OptionalPoseFromProto(request.has_tool(), request.tool(), "tool");
  if (!tool.ok()) return tool.status();
  Jacobian jacobian;
  motion::ComputeJacobian(chain, cache.For(resolved->chain).kinematics,
                          Eigen::Map<const Eigen::VectorXd>(q.data(), q.size()), tool->ToIsometry(),
                          jacobian);
  const JacobianMeasures measures = MeasureJacobian(jacobian);
  const double sigma_min =
      measures.singular_values.size() ? measures.singular_values.tail<1>()[0] : 0.0;
  response->set_sigma_min(sigma_min);
  response->set_manipulability(measures.manipulability);
  response->set_condition_number(measures.condition_number);
  response->set_near_singular(sigma_min < threshold);
  response->set_threshold(threshold);
  for (int i = 0; i < measures.singular_values.size(); ++i) {
    response->add_singular_values(measures.singular_values[i]);
  }
  return absl::OkStatus();
}

grpc::ServerUnaryReactor* GeometryService::CheckSingularity(
    grpc::CallbackServerContext* context, const v1::CheckSingularityRequest* request,
    v1::CheckSingularityResponse* response) {
  auto work = [this, request, response](ChainDataCache& cache) {
    return CheckSingularityOperation(env_.registry, cache, *request, response);
  };
  if (NamesRegisteredRobotOnly(request->robot())) {
    return RunUnaryInline(context, "CheckSingularity", work);
  }
  return RunUnaryOnPool(env_, context, "CheckSingularity", LaneForRobot(request->robot()), work);
}

}  // namespace motion::server
