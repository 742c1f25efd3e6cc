#include "server/runtime/collision_model_cache.h"

namespace motion::server {

const CollisionModelCache::Entry* CollisionModelCache::FindLocked(
    const std::shared_ptr<const ChainModel>& chain) {
  const Entry* entry = cache_.Find(chain.get());
  if (entry == nullptr || entry->chain.lock() == chain) return entry;
  cache_.Erase(chain.get());
  return nullptr;
}

std::shared_ptr<const RobotCollisionModel> CollisionModelCache::For(
    const RobotModel& robot, const MeshSupply& meshes,
    const std::shared_ptr<const ChainModel>& chain) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (const Entry* entry = FindLocked(chain)) return entry->model;
  }
  // Built outside the lock (meshes make it long work); threads racing to
  // build the same chain's model all get the first one stored.
  std::shared_ptr<const RobotCollisionModel> model = RobotCollisionModel::Build(
      *chain, robot.link_collisions(), meshes, RigidAttachments(robot, *chain));
  std::lock_guard<std::mutex> lock(mutex_);
  if (const Entry* entry = FindLocked(chain)) return entry->model;
  return cache_.Insert(chain.get(), Entry{chain, std::move(model)}, 0).first->model;
}

}  // namespace motion::server
