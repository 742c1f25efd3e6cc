#pragma once

#include <urdf_model/model.h>
#include <kdl/tree.hpp>

#include "absl/status/statusor.h"

namespace motion {

/// \brief Converts a validated urdfdom model into a KDL::Tree.
///
/// Each URDF joint becomes one KDL segment named after its child link, with
/// f_tip = the joint origin and the joint axis expressed in the parent link
/// frame (the convention of ROS's kdl_parser, so KDL solvers built on the
/// result agree with the rest of the ROS world). Continuous joints become
/// RotAxis (unbounded limits are kept elsewhere); floating and planar joints
/// have no single-axis KDL form and become Fixed here — chains that contain
/// them are refused by ChainModel. The walk is iterative, so a 500-link
/// chain costs no stack depth. Each segment carries its child link's
/// `<inertial>` in the child link frame (zero when the link has none), so
/// KDL's dynamics solvers can run on chains extracted from the tree.
absl::StatusOr<KDL::Tree> UrdfToKdlTree(const urdf::ModelInterface& model);

}  // namespace motion
