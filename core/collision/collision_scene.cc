#include "core/collision/collision_scene.h"

#include <set>

#include "absl/strings/str_cat.h"
#include "core/collision/internal/fcl_scene.h"
#include "core/diagnostics/untrusted_text.h"

namespace motion {

absl::StatusOr<std::shared_ptr<const CollisionScene>> CollisionScene::Build(
    std::vector<CollisionObject> objects, const SceneLimits& limits) {
  if (objects.size() > limits.max_objects) {
    return absl::InvalidArgumentError(
        absl::StrCat("objects: ", objects.size(), " objects; the limit is ", limits.max_objects));
  }
  std::set<std::string> ids;
  auto engine = std::make_shared<Engine>();
  for (std::size_t i = 0; i < objects.size(); ++i) {
    const CollisionObject& o = objects[i];
    const std::string field = absl::StrCat("objects[", i, "]");
    if (o.id.empty() || o.id.size() > limits.max_id_bytes) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ".id: must be 1 to ", limits.max_id_bytes, " bytes"));
    }
    if (!ids.insert(o.id).second) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ".id: ", QuoteUntrusted(o.id), " is used by an earlier object"));
    }
    if (auto s = ValidateShape(o.shape, absl::StrCat(field, ".shape")); !s.ok()) return s;
    engine->objects.emplace_back(ToFclGeometry(o.shape), o.pose.ToIsometry());
    engine->radius.push_back(o.shape.BoundingRadius());
    engine->objects.back().computeAABB();
  }
  // After every FCL object is in place: the primitives point at them.
  for (std::size_t i = 0; i < objects.size(); ++i) {
    engine->primitives.push_back(
        PlacePrimitive(objects[i].shape, objects[i].pose.ToIsometry(), engine->radius[i], nullptr));
    engine->primitives.back().fcl = &engine->objects[i];
  }
  auto scene = std::shared_ptr<CollisionScene>(new CollisionScene());
  scene->objects_ = std::move(objects);
  scene->engine_ = std::move(engine);
  return std::shared_ptr<const CollisionScene>(std::move(scene));
}

std::shared_ptr<const CollisionScene> CollisionScene::Empty() {
  static const std::shared_ptr<const CollisionScene> empty = *Build({});
  return empty;
}

}  // namespace motion
