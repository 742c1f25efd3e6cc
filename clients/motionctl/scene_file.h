#pragma once

#include <string>

#include "motion/v1/collision.pb.h"

namespace motionctl {

/// \brief Reads a scene file (JSON of motion.v1.Scene: {"objects": [{"id":
/// ..., "pose": ..., "shape": {"box": {"size": {...}}}}]}); on failure
/// `error` says why and where.
bool ReadSceneFile(const std::string& path, motion::v1::Scene* scene, std::string* error);

/// \brief --allow=LINK:OTHER,LINK:OTHER (a link and another link or a scene
/// object id) into allowed pairs; on failure `error` says which item.
bool ParseAllowedPairs(const std::string& flag,
                       google::protobuf::RepeatedPtrField<motion::v1::LinkPair>* pairs,
                       std::string* error);

}  // namespace motionctl
