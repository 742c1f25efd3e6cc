#pragma once

#include <string>

#include "motion/v1/collision.pb.h"

namespace motionctl {

/// \brief Reads a scene file (JSON of motion.v1.Scene: {"objects": [{"id":
/// ..., "pose": ..., "shape": {"box": {"size": {...}}}}]}); on failure
/// `error` says why and where.
bool ReadSceneFile(const std::string& path, motion::v1::Scene* scene, std::string* error);

}  // namespace motionctl
