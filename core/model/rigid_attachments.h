#pragma once

#include <string>
#include <vector>

#include <Eigen/Geometry>

#include "core/model/chain_model.h"
#include "core/model/robot_model.h"

namespace motion {

/// \brief A link outside a chain that is welded to one of its links by
/// fixed joints only (a hand on the flange, a tool, a camera bracket): it
/// moves exactly as that chain link does.
struct RigidAttachment {
  std::string link;
  int chain_link = 0;  ///< index in ChainModel::links it is welded to
  Eigen::Isometry3d offset = Eigen::Isometry3d::Identity();  ///< its frame in the chain link's
  /// Origins of its own child links (any joint type), in its frame: where a
  /// stand-in shape for a mesh that was not sent should reach.
  std::vector<Eigen::Vector3d> child_origins;
};

/// \brief Every link welded to a link of `chain` and not on it, in tree
/// order (depth first from the chain's links). Links behind a movable joint
/// that is not the chain's (gripper fingers) are not included: where they
/// are depends on joints the chain does not command.
std::vector<RigidAttachment> RigidAttachments(const RobotModel& robot, const ChainModel& chain);

}  // namespace motion
