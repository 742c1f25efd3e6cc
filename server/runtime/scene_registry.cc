#include "server/runtime/scene_registry.h"

#include <utility>

namespace motion::server {

std::shared_ptr<const CollisionScene> SceneRegistry::Find(absl::string_view scene_id) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = index_.find(scene_id);
  if (it == index_.end()) {
    ++stats_.misses;
    return nullptr;
  }
  ++stats_.hits;
  lru_.splice(lru_.begin(), lru_, it->second);
  return it->second->scene;
}

std::shared_ptr<const CollisionScene> SceneRegistry::Insert(
    const std::string& scene_id, std::shared_ptr<const CollisionScene> scene, std::size_t bytes,
    bool* already) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (auto it = index_.find(scene_id); it != index_.end()) {
    *already = true;
    return it->second->scene;
  }
  *already = false;
  lru_.push_front({scene_id, scene, bytes});
  index_.emplace(scene_id, lru_.begin());
  stats_.bytes += bytes;
  // Never evict the entry just inserted, even if it alone is over.
  while (lru_.size() > 1 &&
         (lru_.size() > options_.max_scenes || stats_.bytes > options_.max_bytes)) {
    stats_.bytes -= lru_.back().bytes;
    index_.erase(lru_.back().scene_id);
    lru_.pop_back();
    ++stats_.evictions;
  }
  stats_.scenes = lru_.size();
  return scene;
}

SceneRegistryStats SceneRegistry::Stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

}  // namespace motion::server
