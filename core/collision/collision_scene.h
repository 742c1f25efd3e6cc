#pragma once

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/collision/collision_shape.h"
#include "core/geometry/pose.h"

namespace motion {

/// \brief One obstacle of a cell, its pose in the robot's base frame.
struct CollisionObject {
  std::string id;
  Pose pose;
  CollisionShape shape;
};

/// \brief Bounds of one scene.
struct SceneLimits {
  std::size_t max_objects = 10000;
  std::size_t max_id_bytes = 256;
};

/// \brief The obstacles a robot is checked against, validated and in the
/// collision engine's form; immutable, shared between threads.
class CollisionScene {
 public:
  /// \brief InvalidArgument naming "objects[i]..." for an empty or
  /// duplicate id, a shape with a size that is not finite and positive, or
  /// more objects than limits.max_objects.
  static absl::StatusOr<std::shared_ptr<const CollisionScene>> Build(
      std::vector<CollisionObject> objects, const SceneLimits& limits = SceneLimits());

  /// \brief A scene with nothing in it.
  static std::shared_ptr<const CollisionScene> Empty();

  const std::vector<CollisionObject>& objects() const { return objects_; }

  struct Engine;
  const Engine& engine() const { return *engine_; }

 private:
  std::vector<CollisionObject> objects_;
  std::shared_ptr<const Engine> engine_;
};

}  // namespace motion
