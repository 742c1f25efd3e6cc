#pragma once

#include <urdf_model/model.h>

#include "core/model/link_collision.h"

namespace motion {

/// \brief The `<collision>` elements of every link of a parsed URDF
/// (urdfdom keeps them in link->collision_array). Elements with non-finite
/// or non-positive sizes, or an empty mesh filename, are left out.
LinkCollisions ReadLinkCollisions(const urdf::ModelInterface& model);

}  // namespace motion
