#include "server/runtime/scene_registry.h"

#include <utility>

namespace motion::server {

std::shared_ptr<const CollisionScene> SceneRegistry::Find(absl::string_view scene_id) {
  std::lock_guard<std::mutex> lock(mutex_);
  const std::shared_ptr<const CollisionScene>* scene = cache_.Find(scene_id);
  return scene == nullptr ? nullptr : *scene;
}

std::shared_ptr<const CollisionScene> SceneRegistry::Insert(
    const std::string& scene_id, std::shared_ptr<const CollisionScene> scene, std::size_t bytes,
    bool* already) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto [stored, was_there] = cache_.Insert(scene_id, std::move(scene), bytes);
  *already = was_there;
  return *stored;
}

SceneRegistryStats SceneRegistry::Stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  const LruCounters& c = cache_.counters();
  return SceneRegistryStats{c.entries, c.bytes, c.hits, c.misses, c.evictions};
}

}  // namespace motion::server
