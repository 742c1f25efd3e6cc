#include "server/service_env.h"

namespace motion::server {

void RecordIk(ServerMetrics& metrics, IkSolverKind solver, const IkResult& result, double seconds) {
  metrics.Solve("ik", IkSolverName(solver), seconds);
  metrics.IkResult(IkSolverName(solver), result);
  for (const Diagnostic& d : result.diagnostics) metrics.Diagnostic(d);
}

void RecordPath(ServerMetrics& metrics, const PathResult& result, double seconds) {
  for (const SegmentReport& segment : result.segments) {
    metrics.Solve(segment.motion, "lm", segment.compute_seconds);
  }
  metrics.Solve("path", "lm", seconds);
  metrics.TrajectoryPoints(result.trajectory.size());
  for (const Diagnostic& d : result.diagnostics) metrics.Diagnostic(d);
}

absl::StatusOr<ResolvedChain> ResolveChain(RobotRegistry& registry, const v1::RobotRef& ref,
                                           absl::string_view field) {
  absl::StatusOr<RegisteredRobot> robot = registry.Resolve(ref.robot_id(), ref.urdf(), field);
  if (!robot.ok()) return robot.status();
  absl::StatusOr<std::shared_ptr<const ChainModel>> chain =
      robot->model->Chain(ref.base_link(), ref.tip_link());
  if (!chain.ok()) {
    return absl::Status(chain.status().code(), FieldPath(field, chain.status().message()));
  }
  return ResolvedChain{*std::move(robot), *std::move(chain)};
}

}  // namespace motion::server
