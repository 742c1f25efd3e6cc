#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "core/cache/chain_data_cache.h"

namespace motion::server {

/// \brief Which queue a task waits in. Short work (one FK, Jacobian or IK,
/// a registry lookup) must never wait behind long work (a 100 000-sample
/// plan, a stream of validations, a batch).
enum class Lane { kShort, kLong };

/// \brief The fixed set of threads that run all core work.
///
/// gRPC threads only decode, enqueue and stream; KDL and Eigen run here.
/// Each worker owns a ChainDataCache (its per-chain solver cache), so no
/// solver is ever shared between threads.
///
/// Two lanes, each with its own bounded queue (TrySubmit refuses work
/// instead of building an unbounded backlog, which the caller turns into
/// RESOURCE_EXHAUSTED, and long work filling its queue never refuses short
/// work): `workers` general threads take short work first, then long; the
/// `short_workers` extra threads take short work only, so a short call is
/// started at once even when every general worker is deep in a plan (the
/// threads then share the cores, and a short task needs only microseconds).
class SolverPool {
 public:
  using Task = std::function<void(ChainDataCache&)>;

  SolverPool(int workers, std::size_t max_queue, int short_workers = 1);
  ~SolverPool();
  SolverPool(const SolverPool&) = delete;
  SolverPool& operator=(const SolverPool&) = delete;

  /// \brief Queues `task` in `lane`; false when that lane's queue is full or
  /// the pool stopped.
  bool TrySubmit(Task task, Lane lane = Lane::kLong);

  /// \brief Runs every queued task, then joins the workers. Idempotent.
  void Stop();

  int workers() const { return worker_count_; }
  int short_workers() const { return short_worker_count_; }
  std::size_t queue_depth() const;  ///< both lanes
  int busy_workers() const { return busy_.load(); }
  std::size_t max_queue() const { return max_queue_; }  ///< per lane

 private:
  void WorkerLoop(bool short_only);

  const int worker_count_;
  const int short_worker_count_;
  const std::size_t max_queue_;
  mutable std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<Task> short_queue_, long_queue_;
  bool stopping_ = false;
  std::atomic<int> busy_{0};
  std::vector<std::thread> threads_;
};

}  // namespace motion::server
