#include "server/runtime/solver_pool.h"

#include <algorithm>

namespace motion::server {

SolverPool::SolverPool(int workers, std::size_t max_queue, int short_workers)
    : worker_count_(std::max(1, workers)),
      short_worker_count_(std::max(0, short_workers)),
      max_queue_(max_queue) {
  threads_.reserve(worker_count_ + short_worker_count_);
  for (int i = 0; i < worker_count_; ++i) threads_.emplace_back([this] { WorkerLoop(false); });
  for (int i = 0; i < short_worker_count_; ++i) {
    threads_.emplace_back([this] { WorkerLoop(true); });
  }
}

SolverPool::~SolverPool() { Stop(); }

bool SolverPool::TrySubmit(Task task, Lane lane) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    std::deque<Task>& queue = lane == Lane::kShort ? short_queue_ : long_queue_;
    if (stopping_ || queue.size() >= max_queue_) return false;
    queue.push_back(std::move(task));
  }
  // Every waiter is woken: one that only takes short work may be the one
  // notified for a long task and would go back to sleep.
  ready_.notify_all();
  return true;
}

void SolverPool::Stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_ && threads_.empty()) return;
    stopping_ = true;
  }
  ready_.notify_all();
  for (auto& t : threads_) {
    if (t.joinable()) t.join();
  }
  threads_.clear();
}

std::size_t SolverPool::queue_depth() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return short_queue_.size() + long_queue_.size();
}

void SolverPool::WorkerLoop(bool short_only) {
  ChainDataCache cache;
  for (;;) {
    Task task;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      ready_.wait(lock, [&] {
        return stopping_ || !short_queue_.empty() || (!short_only && !long_queue_.empty());
      });
      std::deque<Task>& queue = !short_queue_.empty() || short_only ? short_queue_ : long_queue_;
      if (queue.empty()) return;  // stopping and drained
      task = std::move(queue.front());
      queue.pop_front();
    }
    ++busy_;
    task(cache);
    --busy_;
  }
}

}  // namespace motion::server
