#include "core/model/internal/urdfdom_logging.h"

#include <mutex>

#include <console_bridge/console.h>

namespace motion {

void DisableUrdfdomLogFormatting() {
  // console_bridge reads its handler pointer without a lock; one mutex here
  // keeps concurrent parses on different workers from racing on it.
  static std::mutex mutex;
  const std::lock_guard<std::mutex> lock(mutex);
  if (console_bridge::getOutputHandler() != nullptr) console_bridge::noOutputHandler();
  if (console_bridge::getLogLevel() != console_bridge::CONSOLE_BRIDGE_LOG_NONE) {
    console_bridge::setLogLevel(console_bridge::CONSOLE_BRIDGE_LOG_NONE);
  }
}

}  // namespace motion
