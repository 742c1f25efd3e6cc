#pragma once

#include <string>

#include "motion/v1/collision.pb.h"

namespace motion::v1 {

/// \brief A scene's id (SceneRef.scene_id): "sha256:" + hex SHA-256 of the
/// Scene serialized deterministically, which for a message without maps is
/// what every protobuf library writes (fields in number order). Server and
/// clients compute it with this one function.
std::string SceneIdFor(const Scene& scene);

}  // namespace motion::v1
