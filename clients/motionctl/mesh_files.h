#pragma once

#include <string>
#include <vector>

#include "motion/v1/common.pb.h"

namespace motionctl {

/// \brief The mesh files a URDF's <collision> elements name, read from
/// `dir` (--meshes): "package://PKG/REST" is looked for as DIR/PKG/REST,
/// then DIR/REST, then DIR/<file name>; "file://PATH" and plain paths as
/// given, then relative to DIR. Each filename is sent exactly as the URDF
/// writes it. A file not found is left out (the server approximates that
/// link) and named on stderr.
std::vector<motion::v1::MeshFile> CollisionMeshFiles(const std::string& urdf,
                                                     const std::string& dir);

}  // namespace motionctl
