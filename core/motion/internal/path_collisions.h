#pragma once

#include <functional>

#include "core/kinematics/chain_data.h"
#include "core/model/chain_model.h"
#include "core/motion/motion_request.h"
#include "core/motion/trajectory.h"

namespace motion {

/// \brief Every contact of the finished trajectory (FindTrajectoryCollisions
/// against the request's scene, self-collision and margin) as a COLLISION
/// error on the segment whose samples it starts in: one per pair and
/// contiguous stretch. Sets result.collision_checked and collision_free.
void CheckPathCollisions(const ChainModel& model, ChainData& data, const PathRequest& request,
                         const std::function<bool()>& cancelled, PathResult& result);

}  // namespace motion
