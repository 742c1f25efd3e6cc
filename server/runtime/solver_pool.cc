#include "server/runtime/solver_pool.h"

#include <algorithm>

namespace motion::server {

SolverPool::SolverPool(int workers, std::size_t max_queue)
    : worker_count_(std::max(1, workers)), max_queue_(max_queue) {
  threads_.reserve(worker_count_);
  for (int i = 0; i < worker_count_; ++i) threads_.emplace_back([this] { WorkerLoop(); });
}

SolverPool::~SolverPool() { Stop(); }

bool SolverPool::TrySubmit(Task task) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_ || queue_.size() >= max_queue_) return false;
    queue_.push_back(std::move(task));
  }
  ready_.notify_one();
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
  return queue_.size();
}

void SolverPool::WorkerLoop() {
  ChainDataCache cache;
  for (;;) {
    Task task;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      ready_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping and drained
      task = std::move(queue_.front());
      queue_.pop_front();
    }
    ++busy_;
    task(cache);
    --busy_;
  }
}

}  // namespace motion::server
