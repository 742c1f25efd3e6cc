#pragma once

#include <Eigen/Geometry>

#include "core/model/chain_model.h"

namespace motion {

/// \brief An upper bound of the distance from the first joint's origin to
/// the TCP over all configurations: the sum of the fixed link offsets, plus
/// the tool offset and the full stroke of prismatic joints (+inf when a
/// prismatic joint is unbounded). Targets farther than this are unreachable
/// without a single iteration.
struct ReachBound {
  Eigen::Vector3d center;  ///< first joint's origin, in the base frame
  double radius = 0.0;
};

ReachBound ComputeReachBound(const ChainModel& model, const Eigen::Isometry3d& tool);

}  // namespace motion
