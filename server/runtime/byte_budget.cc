#include "server/runtime/byte_budget.h"

namespace motion::server {

bool ByteBudget::TryReserve(std::size_t bytes) {
  std::size_t used = used_.load();
  do {
    if (bytes > capacity_ || used > capacity_ - bytes) return false;
  } while (!used_.compare_exchange_weak(used, used + bytes));
  return true;
}

}  // namespace motion::server
