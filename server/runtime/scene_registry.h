#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "absl/strings/string_view.h"
#include "core/collision/collision_scene.h"
#include "server/runtime/lru_cache.h"

namespace motion::server {

/// \brief Bounds of the scene cache; least recently used scenes go first.
struct SceneRegistryOptions {
  std::size_t max_scenes = 256;
  std::size_t max_bytes = 256u << 20;  ///< by the estimate each Insert gives
};

struct SceneRegistryStats {
  std::size_t scenes = 0;
  std::size_t bytes = 0;
  std::uint64_t hits = 0;
  std::uint64_t misses = 0;
  std::uint64_t evictions = 0;
};

/// \brief Content-addressed, bounded cache of built scenes (validated, in
/// the collision engine's form), so a scene sent once (RegisterScene, or
/// inline) is not parsed and built again for every request that names it.
/// Thread safe; building happens outside it.
class SceneRegistry {
 public:
  explicit SceneRegistry(SceneRegistryOptions options = {})
      : cache_(LruLimits{options.max_scenes, options.max_bytes}) {}

  /// \brief The scene with this id, or null (never registered, or evicted).
  std::shared_ptr<const CollisionScene> Find(absl::string_view scene_id);

  /// \brief Stores `scene` under `scene_id` (`bytes`: its memory estimate)
  /// and returns what is stored: the first scene when another thread
  /// inserted the same id meanwhile (`*already` then true).
  std::shared_ptr<const CollisionScene> Insert(const std::string& scene_id,
                                               std::shared_ptr<const CollisionScene> scene,
                                               std::size_t bytes, bool* already);

  SceneRegistryStats Stats() const;

 private:
  mutable std::mutex mutex_;
  LruCache<std::string, std::shared_ptr<const CollisionScene>> cache_;
};

}  // namespace motion::server
