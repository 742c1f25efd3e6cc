#pragma once

#include <string>
#include <vector>

#include <urdf_model/model.h>

#include "core/model/joint_description.h"

namespace motion {

/// \brief A base -> tip pair a caller may name, with its independent DOF.
struct ChainCandidate {
  std::string base_link;
  std::string tip_link;
  int dof = 0;
};

/// \brief The chain used when a request names no base/tip, and why.
struct DefaultChain {
  std::string base_link;
  std::string tip_link;
  std::string rule;  ///< the decision in words, reported in RobotInfo.chain_rule
  std::vector<ChainCandidate> candidates;  ///< base -> every leaf, plus the default
};

/// \brief Picks the arm chain of a URDF deterministically.
///
/// 1. Base: the root link; if the root is named `world` (the ROS convention
///    for a virtual anchor) and has exactly one child joint, which is fixed,
///    its child instead.
/// 2. Gripper joints are set aside: every joint that takes part in a mimic
///    relation (the follower and its master). Arm DOF of a link = movable
///    joints between base and it, gripper joints excluded; links behind a
///    gripper joint (fingers) are not candidates. If that leaves no arm joint
///    (the URDF is only a gripper), nothing is set aside.
/// 3. The last arm link is the child of the deepest arm joint: the link with
///    the most arm DOF that a movable arm joint leads to (ties: the
///    lexicographically smallest name).
/// 4. Tip: below that link, follow fixed joints only, never into a link that
///    itself carries movable joints (a hand with fingers). If a link named
///    `tool0` (the REP-199 flange frame of ROS-Industrial) is reachable that
///    way, it is the tip. Otherwise walk down one fixed child at a time,
///    preferring an identity-rotation joint (the flange continues the last
///    axis; rotated frames are alternative tool conventions), then the
///    smallest name, and stop where no such child is left.
///
/// For the bundled robots this gives the README's arm chains, e.g. UR5
/// base_link -> tool0 (not ee_link), Panda panda_link0 -> panda_link8 (not a
/// finger or panda_hand_tcp), iiwa14 base -> iiwa_link_ee_kuka, quirks
/// base_link -> tool (not finger_left).
DefaultChain ChooseDefaultChain(const urdf::ModelInterface& model, const JointDescriptions& joints);

}  // namespace motion
