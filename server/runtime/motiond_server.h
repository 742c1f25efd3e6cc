#pragma once

#include <chrono>
#include <memory>
#include <string>

#include <grpcpp/grpcpp.h>

#include "absl/status/statusor.h"
#include "server/observability/server_metrics.h"
#include "server/rpc/geometry_service.h"
#include "server/rpc/info_service.h"
#include "server/rpc/kinematics_service.h"
#include "server/rpc/motion_planner_service.h"
#include "server/rpc/robot_registry_service.h"
#include "server/runtime/byte_budget.h"
#include "server/runtime/collision_model_cache.h"
#include "server/runtime/robot_registry.h"
#include "server/runtime/scene_registry.h"
#include "server/runtime/server_options.h"
#include "server/runtime/solver_pool.h"

namespace motion::server {

/// \brief One running motiond: registry, solver pool, gRPC services, health
/// and reflection. Used by main.cc and, in-process, by the service tests.
class MotiondServer {
 public:
  /// \brief Preloads `robots_dir`, binds `listen` and starts serving.
  static absl::StatusOr<std::unique_ptr<MotiondServer>> Start(const ServerOptions& options);
  ~MotiondServer();

  /// \brief The bound port (useful with "host:0").
  int port() const { return port_; }
  RobotRegistry& registry() { return registry_; }
  SolverPool& pool() { return pool_; }
  ServerMetrics& metrics() { return metrics_; }
  const ByteBudget& unsent_trajectories() const { return unsent_trajectories_; }

  /// \brief Marks health NOT_SERVING, stops accepting, gives in-flight calls
  /// `grace` to finish (then cancels them), drains the pool.
  void Shutdown(std::chrono::milliseconds grace = std::chrono::milliseconds(5000));

 private:
  explicit MotiondServer(const ServerOptions& options);
  absl::Status PreloadRobots(const std::string& dir);
  /// What every service is given (members declared before the services).
  ServiceEnv Env();

  ServerOptions options_;
  RobotRegistry registry_;
  SolverPool pool_;
  ByteBudget unsent_trajectories_;
  ServerMetrics metrics_;
  CollisionModelCache collision_models_;
  SceneRegistry scenes_;
  RobotRegistryService registry_service_;
  KinematicsService kinematics_service_;
  MotionPlannerService planner_service_;
  GeometryService geometry_service_;
  InfoService info_service_;
  std::unique_ptr<grpc::Server> server_;
  int port_ = 0;
  bool shut_down_ = false;
};

}  // namespace motion::server
