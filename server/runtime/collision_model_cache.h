#pragma once

#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <utility>

#include "core/collision/robot_collision_model.h"
#include "core/model/robot_model.h"

namespace motion::server {

/// \brief The collision model of each chain in use, built once (sampling
/// its self-collision matrix costs milliseconds) and kept for the chain's
/// lifetime, at most `capacity` chains (least recently used dropped).
/// Thread-safe; building happens outside the lock.
class CollisionModelCache {
 public:
  explicit CollisionModelCache(std::size_t capacity = 64) : capacity_(capacity) {}

  /// \brief The collision model of `chain` (a chain of `robot`), with the
  /// meshes registered with the robot.
  std::shared_ptr<const RobotCollisionModel> For(const RobotModel& robot, const MeshSupply& meshes,
                                                 const std::shared_ptr<const ChainModel>& chain);

 private:
  struct Entry {
    std::weak_ptr<const ChainModel> chain;
    const ChainModel* key;
    std::shared_ptr<const RobotCollisionModel> model;
  };
  std::size_t capacity_;
  std::mutex mutex_;
  std::list<Entry> entries_;  ///< most recently used first
};

}  // namespace motion::server
