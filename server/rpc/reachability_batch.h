#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <grpcpp/grpcpp.h>

#include "core/geometry/pose.h"
#include "core/ik/ik_options.h"
#include "motion/v1/kinematics.pb.h"
#include "server/rpc/ik_collision.h"
#include "server/rpc/service_env.h"

namespace motion::server {

/// \brief One CheckReachability call, solved on the solver pool.
///
/// Independent targets are split into chunks that several workers take in
/// turn (the worker that prepared the batch, plus helpers if the queue has
/// room), each writing its own pre-allocated result slot, so results stay
/// in input order without a merge. With seed_from_previous the targets form
/// a path and are solved in order by one worker. The last worker to finish
/// finishes the RPC. Cancellation is checked before every target.
class ReachabilityBatch : public std::enable_shared_from_this<ReachabilityBatch> {
 public:
  static void Start(ServiceEnv env, grpc::CallbackServerContext* context,
                    const v1::CheckReachabilityRequest* request,
                    v1::CheckReachabilityResponse* response, grpc::ServerUnaryReactor* reactor);

 private:
  ReachabilityBatch(ServiceEnv env, grpc::CallbackServerContext* context,
                    const v1::CheckReachabilityRequest* request,
                    v1::CheckReachabilityResponse* response, grpc::ServerUnaryReactor* reactor)
      : env_(env), context_(context), request_(request), response_(response), reactor_(reactor) {}

  absl::Status Prepare();
  void Work(ChainDataCache& cache);  // drains chunks; the last one finishes
  absl::Status SolveTarget(IkData& data, int index, const std::vector<double>& seed);
  void RecordError(absl::Status status);
  void Finish();

  ServiceEnv env_;
  grpc::CallbackServerContext* context_;
  const v1::CheckReachabilityRequest* request_;
  v1::CheckReachabilityResponse* response_;
  grpc::ServerUnaryReactor* reactor_;

  std::shared_ptr<const ChainModel> chain_;
  absl::Status PrepareTargets();

  // What a target brings beyond its pose (target_details).
  struct TargetOwn {
    std::string id;
    std::vector<double> seed;          // empty: the request's (or the previous solution)
    std::optional<IkOptions> options;  // with its own configuration
  };

  std::vector<Pose> targets_;   // in the base frame
  std::vector<TargetOwn> own_;  // empty, or one per target
  std::optional<Pose> frame_;
  Pose tool_;
  IkOptions options_;
  std::optional<IkCollisionSetup> collision_;  // options.avoid_collisions
  std::vector<double> seed_;
  int chunk_size_ = 1;
  int chunk_count_ = 0;
  std::atomic<int> next_chunk_{0};
  std::atomic<int> active_workers_{1};
  const std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  std::mutex error_mutex_;
  absl::Status error_;
};

}  // namespace motion::server
