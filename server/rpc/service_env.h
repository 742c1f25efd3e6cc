#pragma once

#include <chrono>
#include <memory>
#include <utility>

#include <grpcpp/grpcpp.h>
#include <spdlog/spdlog.h>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "core/ik/ik_options.h"
#include "core/ik/ik_result.h"
#include "core/model/chain_model.h"
#include "core/motion/trajectory.h"
#include "motion/v1/common.pb.h"
#include "server/convert/status_conversion.h"
#include "server/observability/server_metrics.h"
#include "server/runtime/byte_budget.h"
#include "server/runtime/chain_resolution.h"
#include "server/runtime/collision_model_cache.h"
#include "server/runtime/robot_registry.h"
#include "server/runtime/scene_registry.h"
#include "server/runtime/server_options.h"
#include "server/runtime/solver_pool.h"

namespace motion::server {

/// \brief What every service handler needs: the registry and the pool.
struct ServiceEnv {
  RobotRegistry& registry;
  SolverPool& pool;
  const RequestLimits& limits;
  ServerMetrics& metrics;
  CollisionModelCache& collision_models;
  SceneRegistry& scenes;
  /// Planned trajectories held by PlanPath streams for their clients.
  ByteBudget& unsent_trajectories;
};

/// \brief Seconds since `start` on the steady clock.
inline double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// \brief The lane of a call about `robot`: short, unless it brings a
/// URDF large enough (or meshes) that parsing it is long work itself.
inline Lane LaneForRobot(const v1::RobotRef& robot) {
  constexpr std::size_t kShortLaneUrdfBytes = 64 << 10;
  return robot.urdf().size() > kShortLaneUrdfBytes || robot.meshes_size() > 0 ? Lane::kLong
                                                                              : Lane::kShort;
}

/// \brief Runs a unary RPC's work on the solver pool (in `lane`) and finishes the reactor
/// with its status. `work(cache)` returns an absl::Status and fills the
/// response. A full queue finishes at once with RESOURCE_EXHAUSTED; a call
/// cancelled or past its deadline while queued is not started. Logging (one
/// debug line per RPC, warnings for rejected input) is the
/// RpcLogInterceptor's, which sees every RPC, streams included.
template <typename Work>
grpc::ServerUnaryReactor* RunUnaryOnPool(ServiceEnv& env, grpc::CallbackServerContext* context,
                                         const char* method, Lane lane, Work work) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  auto task = [reactor, context, method, work = std::move(work)](ChainDataCache& cache) mutable {
    absl::Status status;
    if (context->IsCancelled()) {
      status = absl::CancelledError(absl::StrCat(method, ": cancelled before it started"));
    } else {
      status = work(cache);
    }
    reactor->Finish(ToGrpcStatus(status));
  };
  if (!env.pool.TrySubmit(std::move(task), lane)) {
    reactor->Finish(grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED,
                                 absl::StrCat("server busy: the solver queue holds ",
                                              env.pool.max_queue(), " requests; retry later")));
  }
  return reactor;
}

/// \brief Whether a call about `robot` may run where it arrived (see
/// RunUnaryInline): it names a registered robot by id alone, so nothing is
/// parsed or hashed, and what is left is microseconds of arithmetic.
inline bool NamesRegisteredRobotOnly(const v1::RobotRef& robot) {
  return !robot.robot_id().empty() && robot.urdf().empty() && robot.meshes_size() == 0;
}

/// \brief Runs a unary RPC's work on the calling gRPC thread and finishes the
/// reactor. Only for work bounded at microseconds (one FK or Jacobian of a
/// registered chain): the hop to a solver worker (queue, wake-up, two context
/// switches) costs more than such work, and a callback thread blocked for a
/// few microseconds delays nothing. Each gRPC thread keeps its own
/// ChainDataCache, so no solver is shared between threads.
/// \brief This thread's chain cache for inline work: one per thread, shared
/// by every inline method (an inline function's static is one object).
inline ChainDataCache& InlineChainDataCache() {
  thread_local ChainDataCache cache(8);
  return cache;
}

template <typename Work>
grpc::ServerUnaryReactor* RunUnaryInline(grpc::CallbackServerContext* context, const char* method,
                                         Work work) {
  ChainDataCache& cache = InlineChainDataCache();
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  absl::Status status =
      context->IsCancelled()
          ? absl::CancelledError(absl::StrCat(method, ": cancelled before it started"))
          : work(cache);
  reactor->Finish(ToGrpcStatus(status));
  return reactor;
}

}  // namespace motion::server
