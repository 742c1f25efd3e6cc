#pragma once

#include <memory>
#include <string>
#include <vector>
#include "absl/strings/string_view.h"

#include <Eigen/Geometry>
#include <kdl/chain.hpp>
#include <kdl/tree.hpp>

#include "absl/status/statusor.h"
#include "core/model/body_inertia.h"
#include "core/model/joint_description.h"
#include "core/model/joint_limits.h"
#include "core/model/model_limits.h"

namespace motion {

/// \brief One movable joint of a chain, with the fixed geometry before it
/// folded in.
///
/// Frames: F_k = F_{k-1} * origin * Motion(theta), theta = multiplier *
/// q[dof] + offset, where F_{-1} is the base link frame and Motion is a
/// rotation by theta about `axis` (revolute, continuous) or a translation by
/// theta along it (prismatic). F_k is the frame of the joint's child link.
struct ChainJoint {
  std::string name;
  JointType type = JointType::kRevolute;
  Eigen::Isometry3d origin = Eigen::Isometry3d::Identity();
  Eigen::Vector3d axis = Eigen::Vector3d::UnitZ();  ///< unit, in the joint frame
  int dof = 0;
  double multiplier = 1.0;
  double offset = 0.0;
};

/// \brief A link of the chain: its frame is F_{after_joint} * offset
/// (after_joint = -1 means the base frame).
struct ChainLink {
  std::string name;
  int after_joint = -1;
  Eigen::Isometry3d offset = Eigen::Isometry3d::Identity();
};

/// \brief A chain joint that follows a degree of freedom instead of being one.
struct ChainMimic {
  std::string joint;
  std::string dof_name;
  double multiplier = 1.0;
  double offset = 0.0;
};

/// \brief The immutable kinematic description of one base -> tip chain.
///
/// Built once per (robot, base, tip) and shared read-only between solver
/// threads as `std::shared_ptr<const ChainModel>`; what algorithms write
/// lives per thread in ChainData (FK, Jacobian) and IkData (IK, planning). Degrees of freedom are
/// the independent joints in chain order: a mimic joint whose master is in the chain moves with it;
/// a mimic joint whose master is elsewhere in the tree is driven by a DOF named after that master,
/// with the master's limits.
struct ChainModel {
  std::string base_link;
  std::string tip_link;
  std::vector<ChainJoint> joints;                                ///< movable joints, base to tip
  std::vector<ChainLink> links;                                  ///< every link from base to tip
  Eigen::Isometry3d tip_offset = Eigen::Isometry3d::Identity();  ///< F_last -> tip

  std::vector<std::string> dof_names;
  std::vector<JointType> dof_types;
  std::vector<JointLimits> dof_limits;
  std::vector<ChainMimic> mimics;

  /// Per movable joint k, the body it moves, in F_k: its child link's URDF `<inertial>` plus those
  /// of the links fixed to it up to the next movable joint or the tip (parallel-axis theorem),
  /// plus every side branch hanging off those links (a gripper beyond the tip, a camera mount),
  /// rigid with its own joints at rest (0 clamped into their limits). Links before the first
  /// movable joint never move and are in no body.
  std::vector<BodyInertia> bodies;
  /// What inverse dynamics lacks, the first along the chain base -> tip: "link 'x' (moved by
  /// joint 'j') has no <inertial> or zero mass" or "joint 'j' has no effort limit (URDF effort
  /// is 0)"; empty when every body has mass and every DOF an effort (dof_limits[i].max_torque).
  std::string dynamics_missing;

  /// The same chain as KDL sees it (one KDL joint per movable URDF joint).
  /// Only equivalent to this model when `mimics` is empty; KDL solvers are
  /// baselines and are refused on chains with mimic joints.
  KDL::Chain kdl_chain;

  int dof() const { return static_cast<int>(dof_names.size()); }

  /// \brief Extracts base -> tip from `tree`. Errors (InvalidArgument) name
  /// the link: unknown base or tip, tip not below base, a floating/planar
  /// joint on the way, more DOF than `limits.max_chain_dof`, no movable joint.
  static absl::StatusOr<std::shared_ptr<const ChainModel>> Build(const KDL::Tree& tree,
                                                                 const JointDescriptions& joints,
                                                                 absl::string_view base_link,
                                                                 absl::string_view tip_link,
                                                                 const ModelLimits& limits);
};

}  // namespace motion
