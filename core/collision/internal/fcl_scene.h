#pragma once

#include <vector>

#include <fcl/narrowphase/collision_object.h>

#include "core/collision/collision_scene.h"
#include "core/collision/internal/fcl_geometry.h"
#include "core/collision/internal/primitive.h"

namespace motion {

/// Scene objects never move: their FCL objects and primitives are placed
/// once and only read by queries (FCL's collide/distance take them as const).
struct CollisionScene::Engine {
  std::vector<fcl::CollisionObjectd> objects;  ///< as CollisionScene::objects()
  std::vector<double> radius;                  ///< bounding sphere about each pose
  /// As objects, for the own narrowphase; each points at its FCL object.
  std::vector<Primitive> primitives;
};

}  // namespace motion
