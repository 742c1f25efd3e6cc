#pragma once

#include <atomic>
#include <cstddef>

namespace motion::server {

/// \brief A server-wide bound on bytes held for clients that have not read
/// them yet (planned trajectories waiting in PlanPath streams): a stream
/// reserves what it holds before it starts sending and releases it when it
/// ends, and a reservation that does not fit is refused (the caller answers
/// RESOURCE_EXHAUSTED with a retry hint) instead of memory growing with
/// every client that stops reading. Lock-free, thread safe.
class ByteBudget {
 public:
  explicit ByteBudget(std::size_t capacity) : capacity_(capacity) {}

  /// \brief Reserves `bytes`; false (nothing reserved) when they do not fit.
  bool TryReserve(std::size_t bytes);
  void Release(std::size_t bytes) { used_.fetch_sub(bytes); }

  std::size_t used() const { return used_.load(); }
  std::size_t capacity() const { return capacity_; }

 private:
  const std::size_t capacity_;
  std::atomic<std::size_t> used_{0};
};

}  // namespace motion::server
