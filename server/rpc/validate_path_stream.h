#pragma once

#include <cstddef>
#include <deque>
#include <mutex>
#include <set>
#include <string>
#include <utility>

#include <grpcpp/grpcpp.h>

#include "motion/v1/motion_planner.pb.h"
#include "server/rpc/service_env.h"

namespace motion::server {

/// \brief One ValidatePath stream: many paths validated concurrently on the
/// solver pool, answers written as each finishes (tagged by request_id,
/// possibly out of order).
///
/// Flow control is real: at most `max_in_flight` requests are read but not
/// yet answered; the next read starts only when an answer has been written,
/// so a fast client is paced by gRPC instead of filling a queue. Every
/// request read gets exactly one answer: a planning verdict, or an error
/// code for a malformed path, a duplicate in-flight request_id or a full
/// solver queue. The stream ends with OK after the client half-closes and
/// every answer is written; on cancel, work still queued is skipped.
class ValidatePathStream
    : public grpc::ServerBidiReactor<v1::ValidatePathRequest, v1::ValidatePathResponse> {
 public:
  ValidatePathStream(ServiceEnv env, grpc::CallbackServerContext* context,
                     std::size_t max_in_flight);

  void OnReadDone(bool ok) override;
  void OnWriteDone(bool ok) override;
  void OnCancel() override;
  void OnDone() override {
    env_.metrics.RecordStreamClosed("ValidatePath");
    delete this;
  }

 private:
  void Validate(ChainDataCache& cache, const v1::ValidatePathRequest& request,
                v1::ValidatePathResponse& response);
  // Each takes the lock itself.
  void Answer(v1::ValidatePathResponse response, bool from_task, bool owns_id);
  void StartNextWriteLocked();
  void MaybeStartReadLocked();
  void MaybeFinishLocked();

  ServiceEnv env_;
  grpc::CallbackServerContext* context_;
  const std::size_t max_in_flight_;

  std::mutex mutex_;
  v1::ValidatePathRequest incoming_;  // target of the one outstanding read
  bool reading_ = false;
  bool reads_done_ = false;
  bool cancelled_ = false;
  bool finished_ = false;
  std::size_t in_flight_ = 0;  // read, not yet written
  std::size_t tasks_ = 0;      // on the pool; Finish waits for them
  std::set<std::string> ids_in_flight_;
  // Answers waiting to be written; second = the answer owns its id's slot
  // in ids_in_flight_ (a duplicate-id error does not).
  std::deque<std::pair<v1::ValidatePathResponse, bool>> outbox_;
  bool writing_ = false;
  v1::ValidatePathResponse current_;  // the one outstanding write
  bool current_owns_id_ = false;
};

}  // namespace motion::server
