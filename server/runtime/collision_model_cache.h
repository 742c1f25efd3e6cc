#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <utility>

#include "core/collision/robot_collision_model.h"
#include "core/model/robot_model.h"
#include "server/runtime/lru_cache.h"

namespace motion::server {

/// \brief The collision model of each chain in use, built once (sampling
/// its self-collision matrix costs milliseconds) and kept for the chain's
/// lifetime, at most `capacity` chains (least recently used dropped).
/// Thread-safe; building happens outside the lock.
class CollisionModelCache {
 public:
  explicit CollisionModelCache(std::size_t capacity = 64) : cache_(LruLimits{capacity}) {}

  /// \brief The collision model of `chain` (a chain of `robot`), with the
  /// meshes registered with the robot.
  std::shared_ptr<const RobotCollisionModel> For(const RobotModel& robot, const MeshSupply& meshes,
                                                 const std::shared_ptr<const ChainModel>& chain);

 private:
  struct Entry {
    /// The chain the model was built for: an address reused by a new chain
    /// after the old one died does not match it.
    std::weak_ptr<const ChainModel> chain;
    std::shared_ptr<const RobotCollisionModel> model;
  };
  /// The entry of `chain` if it is that very chain's; drops a stale one.
  const Entry* FindLocked(const std::shared_ptr<const ChainModel>& chain);

  std::mutex mutex_;
  LruCache<const ChainModel*, Entry> cache_;
};

}  // namespace motion::server
