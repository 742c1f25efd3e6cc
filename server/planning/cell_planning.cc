#include "server/planning/cell_planning.h"

#include <string>
#include <utility>

#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"
#include "core/cell/cell_validation.h"
#include "core/cell/start_time_search.h"
#include "server/convert/path_conversion.h"
#include "server/runtime/chain_resolution.h"

namespace motion::server {
namespace {

// A malformed program's error named under its robot ("robots[2].program.
// segments[0]..."), so the client knows which program; errors about the
// robot reference itself already name "robots[2].robot".
absl::Status UnderProgram(const absl::Status& status, const std::string& robot_field) {
  if (status.code() != absl::StatusCode::kInvalidArgument) return status;
  const std::string robot_prefix = robot_field.substr(0, robot_field.size() - 5);  // "robots[2]."
  std::string message(status.message());
  if (message.rfind(robot_field, 0) == 0) return status;
  if (message.rfind(robot_prefix, 0) == 0) message = message.substr(robot_prefix.size());
  absl::Status out(status.code(), robot_prefix + "program." + message);
  status.ForEachPayload(
      [&](absl::string_view url, const absl::Cord& payload) { out.SetPayload(url, payload); });
  return out;
}

}  // namespace

absl::StatusOr<PlannedCellProgram> PlanCellProgram(
    RobotRegistry& registry, CollisionModelCache& collision_models, SceneRegistry& scenes,
    const v1::PlanPathRequest& request, const std::string& robot_field, ChainDataCache& cache,
    const PathLimits& limits, ServerMetrics& metrics, const std::function<bool()>& cancelled) {
  absl::StatusOr<ProgramToPlan> program =
      ResolveProgram(registry, collision_models, scenes, request, robot_field);
  if (!program.ok()) return UnderProgram(program.status(), robot_field);
  PlannedCellProgram out;
  out.collision = program->path.collision_model;
  if (!out.collision) {
    // The program checks nothing itself, but the cell checks it against
    // the other robots.
    absl::StatusOr<ResolvedChain> resolved = ResolveChain(registry, request.robot(), robot_field);
    if (!resolved.ok()) return resolved.status();
    out.collision =
        collision_models.For(*resolved->robot.model, *resolved->robot.meshes, resolved->chain);
  }
  absl::StatusOr<PathResult> result = PlanProgram(*program, cache, limits, metrics, cancelled);
  if (!result.ok()) return UnderProgram(result.status(), robot_field);
  out.program = *std::move(program);
  out.result = *std::move(result);
  return out;
}

absl::Status CheckPlannedCell(const v1::ValidateCellRequest& request, const CellRequest& cell,
                              const std::vector<PlannedCellProgram>& planned,
                              const CollisionScene& scene, const std::function<bool()>& cancelled,
                              v1::ValidateCellResponse* out) {
  std::vector<CellRobotProgram> robots;
  bool all_sampled = true;
  for (std::size_t i = 0; i < planned.size(); ++i) {
    const PlannedCellProgram& p = planned[i];
    v1::CellRobotResult* result = out->add_robots();
    result->set_name(request.robots(static_cast<int>(i)).name());
    ValidationToProto(p.result, result->mutable_result());
    if (p.result.trajectory.size() == 0) {
      all_sampled = false;
      continue;
    }
    CellRobotProgram r;
    r.name = request.robots(static_cast<int>(i)).name();
    r.chain = p.program.chain;
    r.collision = p.collision;
    r.X_CB = cell.base_poses[i].ToIsometry();
    r.times = p.result.trajectory.time;
    r.positions = p.result.trajectory.positions;
    r.start_time = request.robots(static_cast<int>(i)).start_time();
    r.self_collision = p.program.path.check_self_collision;
    robots.push_back(std::move(r));
  }
  if (!all_sampled) {
    out->set_collision_free(false);
    out->set_start_times_note("a program has no trajectory (see robots[].result): not checked");
    return absl::OkStatus();
  }
  absl::StatusOr<CellVerdict> verdict = ValidateCell(robots, scene, cell.options, cancelled);
  if (!verdict.ok()) return verdict.status();
  CellVerdictToProto(*verdict, out);
  if (!request.find_start_times()) return absl::OkStatus();
  absl::StatusOr<StartTimeSuggestion> suggestion =
      SuggestStartTimes(robots, scene, cell.options, cancelled);
  if (!suggestion.ok()) return suggestion.status();
  if (suggestion->found) {
    for (double t : suggestion->start_times) out->add_suggested_start_times(t);
  } else {
    out->set_start_times_note(suggestion->reason);
  }
  return absl::OkStatus();
}

}  // namespace motion::server
