#pragma once

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/collision/collision_checker.h"
#include "motion/v1/collision.pb.h"
#include "motion/v1/kinematics.pb.h"

namespace motion::server {

/// \brief The scene of a SceneRef, validated (every error names its field
/// under `field`, e.g. "scene.scene.objects[3].shape.box.size.y"). A
/// scene_id is NotFound with ErrorInfo{SCENE_NOT_REGISTERED}: scenes are
/// only served inline so far. No SceneRef at all: the empty scene.
absl::StatusOr<std::shared_ptr<const CollisionScene>> SceneFromProto(const v1::SceneRef& ref,
                                                                     absl::string_view field);

void CollisionVerdictToProto(const CollisionVerdict& verdict, v1::CollisionResult* out);

/// \brief Per link, where its geometry came from, and the pairs never checked.
void CollisionModelToProto(const RobotCollisionModel& model, v1::CheckCollisionResponse* out);

}  // namespace motion::server
