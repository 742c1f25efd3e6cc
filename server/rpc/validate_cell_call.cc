#include "server/rpc/validate_cell_call.h"

#include <algorithm>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "server/convert/cell_conversion.h"
#include "server/convert/collision_conversion.h"
#include "server/planning/cell_planning.h"

namespace motion::server {
namespace {

// What the tasks of one call share; the last one to finish owns it.
struct CellCall {
  CellCall(ServiceEnv env, grpc::CallbackServerContext* context,
           const v1::ValidateCellRequest* request, v1::ValidateCellResponse* response,
           CellRequest cell)
      : env(env),
        context(context),
        request(request),
        response(response),
        reactor(context->DefaultReactor()),
        cell(std::move(cell)),
        planned(this->cell.programs.size()),
        remaining(this->cell.programs.size()) {}

  // Records robot i's outcome (or the error that stopped it); the last one
  // checks the cell on this worker and finishes.
  void Done(std::size_t i, absl::StatusOr<PlannedCellProgram> outcome) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      planned[i] = std::move(outcome);
      if (--remaining > 0) return;
    }
    reactor->Finish(ToGrpcStatus(Check()));
  }

  absl::Status Check() {
    // The first robot's error in request order, whichever failed first.
    std::vector<PlannedCellProgram> programs;
    for (std::optional<absl::StatusOr<PlannedCellProgram>>& p : planned) {
      if (!p->ok()) return p->status();
      programs.push_back(**std::move(p));
    }
    if (context->IsCancelled()) return absl::CancelledError("ValidateCell: cancelled");
    std::shared_ptr<const CollisionScene> scene = CollisionScene::Empty();
    if (request->has_scene()) {
      absl::StatusOr<std::shared_ptr<const CollisionScene>> resolved =
          ResolveScene(env.scenes, request->scene(), "scene");
      if (!resolved.ok()) return resolved.status();
      scene = *std::move(resolved);
    }
    return CheckPlannedCell(
        *request, cell, programs, *scene, [this] { return context->IsCancelled(); }, response);
  }

  ServiceEnv env;
  grpc::CallbackServerContext* context;
  const v1::ValidateCellRequest* request;
  v1::ValidateCellResponse* response;
  grpc::ServerUnaryReactor* reactor;
  CellRequest cell;
  PathLimits limits;  ///< each program's: its share of the cell's instants
  std::mutex mutex;
  std::vector<std::optional<absl::StatusOr<PlannedCellProgram>>> planned;
  std::size_t remaining;
};

}  // namespace

grpc::ServerUnaryReactor* StartValidateCell(ServiceEnv env, grpc::CallbackServerContext* context,
                                            const v1::ValidateCellRequest* request,
                                            v1::ValidateCellResponse* response) {
  absl::StatusOr<CellRequest> cell = CellRequestFromProto(*request);
  if (!cell.ok()) {
    grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
    reactor->Finish(ToGrpcStatus(cell.status()));
    return reactor;
  }
  auto call = std::make_shared<CellCall>(env, context, request, response, *std::move(cell));
  const std::size_t n = call->cell.programs.size();
  // The cell's instants are bounded before anything is planned: each
  // program gets its share of them (and no more than one ValidatePath).
  call->limits = env.limits.path;
  call->limits.max_points = std::min<long>(
      call->limits.max_points, static_cast<long>(call->cell.options.max_instants / n) - 1);
  for (std::size_t i = 0; i < n; ++i) {
    const bool queued = env.pool.TrySubmit(
        [call, i](ChainDataCache& cache) {
          if (call->context->IsCancelled()) {
            call->Done(i, absl::CancelledError("ValidateCell: cancelled"));
            return;
          }
          call->Done(
              i, PlanCellProgram(call->env.registry, call->env.collision_models, call->env.scenes,
                                 call->cell.programs[i], absl::StrCat("robots[", i, "].robot"),
                                 cache, call->limits, call->env.metrics,
                                 [call] { return call->context->IsCancelled(); }));
        },
        Lane::kLong);
    if (!queued) {
      call->Done(i, absl::ResourceExhaustedError(
                        "server busy: the solver queue is full; retry this request"));
    }
  }
  return call->reactor;
}

}  // namespace motion::server
