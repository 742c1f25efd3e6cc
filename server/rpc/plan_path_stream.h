#pragma once

#include <atomic>
#include <cstddef>

#include <grpcpp/grpcpp.h>

#include "core/motion/trajectory.h"
#include "motion/v1/motion_planner.pb.h"
#include "server/rpc/service_env.h"

namespace motion::server {

/// \brief One PlanPath call: plans on the solver pool, then streams.
///
/// The whole trajectory is planned first (bounded by --max_trajectory_points),
/// reserved in the server-wide budget of trajectories held for clients
/// (ServiceEnv::unsent_trajectories: RESOURCE_EXHAUSTED with a retry hint
/// when it does not fit, so clients that never read cannot make memory
/// grow) until the stream ends, then sent as a header, chunks of at most
/// max_chunk_points samples (row-major arrays), each segment's report right
/// after the chunk holding its last sample, and a summary. One message is in
/// flight at a time (gRPC flow control paces the writes); a cancel or
/// deadline stops the planner between samples and the stream between
/// messages, so a slow or gone client holds no worker.
class PlanPathStream : public grpc::ServerWriteReactor<v1::PlanPathResponse> {
 public:
  PlanPathStream(ServiceEnv env, grpc::CallbackServerContext* context,
                 const v1::PlanPathRequest* request);

  void OnWriteDone(bool ok) override;
  void OnCancel() override { cancelled_ = true; }
  void OnDone() override {
    env_.metrics.RecordStreamClosed("PlanPath");
    env_.unsent_trajectories.Release(reserved_bytes_);
    delete this;
  }

 private:
  void Plan(ChainDataCache& cache);  // on a solver worker
  void WriteNext();
  void FinishWith(const absl::Status& status);

  ServiceEnv env_;
  grpc::CallbackServerContext* context_;
  const v1::PlanPathRequest* request_;
  std::atomic<bool> cancelled_{false};

  std::string robot_id_;
  std::shared_ptr<const ChainModel> chain_;
  PathResult result_;
  std::size_t reserved_bytes_ = 0;  ///< in env_.unsent_trajectories until OnDone
  double sample_time_ = 0.0;
  std::size_t chunk_points_ = 256;

  enum class Stage { kHeader, kBody, kSummary, kDone };
  Stage stage_ = Stage::kHeader;
  std::size_t next_point_ = 0;
  std::size_t next_segment_ = 0;
  v1::PlanPathResponse message_;  // must outlive its StartWrite
};

}  // namespace motion::server
