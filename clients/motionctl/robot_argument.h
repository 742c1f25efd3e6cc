#pragma once

#include <string>

#include "clients/motion_client.h"

namespace motionctl {

/// \brief Turns the ROBOT word of a command into a robot_id.
///
/// Accepts, in this order: a robot_id ("sha256:..."); a path to a .urdf file
/// (its id is computed locally and the client sends the URDF if the server
/// lacks it); a robot name as the server lists it, or an unambiguous prefix
/// of a name or id. Returns "" and prints why when nothing matches. With
/// `meshes_dir` (--meshes), a URDF file's collision meshes are read from
/// there and travel with it (CollisionMeshFiles).
std::string ResolveRobotArgument(motion::client::MotionClient& client, const std::string& word,
                                 const std::string& meshes_dir = "");

}  // namespace motionctl
