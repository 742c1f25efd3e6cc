#pragma once

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/collision/collision_checker.h"
#include "motion/v1/collision.pb.h"
#include "motion/v1/kinematics.pb.h"
#include "server/runtime/scene_registry.h"

namespace motion::server {

/// \brief The scene validated and built (every error names its field under
/// `field`, e.g. "scene.scene.objects[3].shape.box.size.y").
absl::StatusOr<std::shared_ptr<const CollisionScene>> SceneFromProto(const v1::Scene& scene,
                                                                     absl::string_view field);

struct RegisteredScene {
  std::string scene_id;
  std::shared_ptr<const CollisionScene> scene;
  bool already_registered = false;
};

/// \brief `scene` from `scenes` by its id, or built and stored there.
absl::StatusOr<RegisteredScene> RegisterScene(SceneRegistry& scenes, const v1::Scene& scene,
                                              absl::string_view field);

/// \brief The scene of a SceneRef: inline (registered on the fly; must
/// match scene_id when both are given), else by scene_id (NotFound with
/// ErrorInfo{SCENE_NOT_REGISTERED} when unknown), else the empty scene.
absl::StatusOr<std::shared_ptr<const CollisionScene>> ResolveScene(SceneRegistry& scenes,
                                                                   const v1::SceneRef& ref,
                                                                   absl::string_view field);

/// \brief A request's allowed pairs against its robot model and scene
/// (errors "field[i].a: ..."); null when there are none.
absl::StatusOr<std::shared_ptr<const AllowedCollisions>> AllowedCollisionsFromProto(
    const google::protobuf::RepeatedPtrField<v1::LinkPair>& pairs, const RobotCollisionModel& robot,
    const CollisionScene& scene, absl::string_view field);

void CollisionVerdictToProto(const CollisionVerdict& verdict, v1::CollisionResult* out);

/// \brief Per link, where its geometry came from, and the pairs never checked.
void CollisionModelToProto(const RobotCollisionModel& model,
                           google::protobuf::RepeatedPtrField<v1::LinkGeometryInfo>* links,
                           google::protobuf::RepeatedPtrField<v1::DisabledLinkPair>* disabled);

}  // namespace motion::server
