#include "server/planning/program_planning.h"

#include <chrono>
#include <utility>

#include "core/motion/path_planner.h"
#include "core/motion/program_validation.h"
#include "server/convert/path_conversion.h"
#include "server/runtime/chain_resolution.h"

namespace motion::server {

absl::StatusOr<ProgramToPlan> ResolveProgram(RobotRegistry& registry,
                                             const v1::PlanPathRequest& request,
                                             absl::string_view robot_field) {
  absl::StatusOr<ResolvedChain> resolved = ResolveChain(registry, request.robot(), robot_field);
  if (!resolved.ok()) return resolved.status();
  absl::StatusOr<PathRequest> path = PathRequestFromProto(request);
  if (!path.ok()) return path.status();
  path->joint_limits = std::move(resolved->limits);
  PathRequest resolved_path = ResolveProgramDefaults(*resolved->chain, *std::move(path));
  return ProgramToPlan{resolved->robot.robot_id, std::move(resolved->chain),
                       std::move(resolved_path)};
}

absl::StatusOr<PathResult> PlanProgram(const ProgramToPlan& program, ChainDataCache& cache,
                                       const PathLimits& limits, ServerMetrics& metrics,
                                       const std::function<bool()>& cancelled) {
  const auto started = std::chrono::steady_clock::now();
  absl::StatusOr<PathResult> result =
      PlanPath(*program.chain, cache.For(program.chain), program.path, limits, cancelled);
  if (!result.ok()) return result.status();
  metrics.RecordPath(
      *result, std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  return result;
}

}  // namespace motion::server
