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

/// \brief The fixed set of threads that run all core work.
///
/// gRPC threads only decode, enqueue and stream; KDL and Eigen run here.
/// Each worker owns a ChainDataCache (its per-chain solver cache), so no
/// solver is ever shared between threads. The queue is bounded: TrySubmit
/// refuses work instead of building an unbounded backlog, which the caller
/// turns into RESOURCE_EXHAUSTED.
class SolverPool {
 public:
  using Task = std::function<void(ChainDataCache&)>;

  SolverPool(int workers, std::size_t max_queue);
  ~SolverPool();
  SolverPool(const SolverPool&) = delete;
  SolverPool& operator=(const SolverPool&) = delete;

  /// \brief Queues `task`; false when the queue is full or the pool stopped.
  bool TrySubmit(Task task);

  /// \brief Runs every queued task, then joins the workers. Idempotent.
  void Stop();

  int workers() const { return worker_count_; }
  std::size_t queue_depth() const;
  int busy_workers() const { return busy_.load(); }
  std::size_t max_queue() const { return max_queue_; }

 private:
  void WorkerLoop();

  const int worker_count_;
  const std::size_t max_queue_;
  mutable std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<Task> queue_;
  bool stopping_ = false;
  std::atomic<int> busy_{0};
  std::vector<std::thread> threads_;
};

}  // namespace motion::server
