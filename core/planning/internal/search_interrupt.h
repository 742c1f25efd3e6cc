#pragma once

#include <chrono>
#include <functional>

namespace motion {

/// \brief The two things from outside that may end a search: a wall-time
/// deadline and a cancel callback. Polled cheaply: the clock and the
/// callback are read every kPollEvery calls only.
class SearchInterrupt {
 public:
  enum class Reason { kNone, kTimeout, kCancelled };
  static constexpr int kPollEvery = 32;

  SearchInterrupt(double timeout_seconds, const std::function<bool()>& cancelled)
      : start_(std::chrono::steady_clock::now()),
        deadline_(start_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                               std::chrono::duration<double>(timeout_seconds))),
        cancelled_(cancelled) {}

  /// kNone until the deadline passes or `cancelled` fires; then that, for good.
  Reason Poll() {
    if (reason_ != Reason::kNone || ++calls_ % kPollEvery != 0) return reason_;
    if (cancelled_ && cancelled_()) {
      reason_ = Reason::kCancelled;
    } else if (std::chrono::steady_clock::now() >= deadline_) {
      reason_ = Reason::kTimeout;
    }
    return reason_;
  }
  Reason reason() const { return reason_; }

  double Elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::chrono::steady_clock::time_point start_, deadline_;
  const std::function<bool()>& cancelled_;
  Reason reason_ = Reason::kNone;
  long calls_ = 0;
};

}  // namespace motion
