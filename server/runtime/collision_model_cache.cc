#include "server/runtime/collision_model_cache.h"

namespace motion::server {

std::shared_ptr<const RobotCollisionModel> CollisionModelCache::For(
    const RobotModel& robot, const MeshSupply& meshes,
    const std::shared_ptr<const ChainModel>& chain) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      // The same chain object still alive (an address reused by a new chain
      // after the old one died does not match its weak_ptr).
      if (it->key == chain.get() && it->chain.lock() == chain) {
        entries_.splice(entries_.begin(), entries_, it);
        return entries_.front().model;
      }
    }
  }
  std::shared_ptr<const RobotCollisionModel> model = RobotCollisionModel::Build(
      *chain, robot.link_collisions(), meshes, RigidAttachments(robot, *chain));
  std::lock_guard<std::mutex> lock(mutex_);
  entries_.push_front({chain, chain.get(), model});
  while (entries_.size() > capacity_) entries_.pop_back();
  return model;
}

}  // namespace motion::server
