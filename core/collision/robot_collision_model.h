#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Geometry>

#include "core/collision/collision_shape.h"
#include "core/model/chain_model.h"
#include "core/model/rigid_attachments.h"
#include "core/model/robot_model.h"

namespace motion {

/// \brief A shape placed in a frame (origin: shape frame -> that frame).
struct PlacedShape {
  Eigen::Isometry3d origin = Eigen::Isometry3d::Identity();
  CollisionShape shape;
};

/// \brief What one link of a chain collides with, in its link frame, and
/// where that came from: "urdf" (primitives, and meshes the client sent),
/// "approximated" (a mesh was not sent: see kApproximationRadius), "none".
struct LinkCollisionGeometry {
  std::string link;
  int chain_link = 0;  ///< index in ChainModel::links
  std::vector<PlacedShape> shapes;
  std::string source;
  std::vector<std::string> missing_meshes;  ///< URDF filenames not sent
};

/// \brief Meshes a client sent, by the URDF `filename` they stand for
/// (exactly as written there, package:// URIs included).
using MeshSupply = std::map<std::string, std::shared_ptr<const TriangleMesh>>;

/// \brief Why a pair of links is never checked against each other.
struct DisabledPair {
  std::string a, b;
  std::string reason;  ///< "adjacent" or "always" (in collision in every sampled configuration)
};

/// \brief The collision geometry of one chain, built once per (robot,
/// chain, meshes) and shared read-only between threads.
///
/// Every chain link gets its URDF `<collision>` shapes. A mesh element
/// whose file the client did not send is replaced by a capsule from the
/// link's origin to the next joint's (or the tip's) origin of radius
/// kApproximationRadius (a sphere when they coincide): arm links are tubes
/// between their joints, and an unseen mesh cannot be sized better.
///
/// `attachments` (RigidAttachments) add the links welded to chain links by
/// fixed joints (a hand on the flange, a tool), after the chain's links, each
/// placed in its chain link's frame; their stand-in for a mesh not sent
/// reaches from their origin to the farthest of their children's origins (a
/// hand to its TCP frame), or is a sphere. Links behind joints the chain does
/// not command (gripper fingers) are not part of it.
///
/// Self-collision: links with at most one movable joint between them are
/// never checked (adjacent); of the others, pairs in collision in every one
/// of kSelfCollisionSamples seeded random configurations within limits are
/// disabled as "always" (two shapes that overlap by construction, as
/// MoveIt's setup assistant finds them); `never_seen_pairs` lists the pairs
/// in collision in none of them (reported, still checked).
class RobotCollisionModel {
 public:
  static constexpr double kApproximationRadius = 0.05;  ///< m
  static constexpr int kSelfCollisionSamples = 256;

  static std::shared_ptr<const RobotCollisionModel> Build(
      const ChainModel& chain, const LinkCollisions& collisions, const MeshSupply& meshes = {},
      const std::vector<RigidAttachment>& attachments = {});

  /// Every link of the chain, in chain order (those with no shapes too),
  /// then the rigid attachments.
  const std::vector<LinkCollisionGeometry>& links() const { return links_; }
  /// Indices into links() of the pairs a self-collision check tests.
  const std::vector<std::pair<int, int>>& self_pairs() const { return self_pairs_; }
  const std::vector<DisabledPair>& disabled_pairs() const { return disabled_; }
  const std::vector<std::pair<std::string, std::string>>& never_seen_pairs() const {
    return never_seen_;
  }
  bool has_geometry() const;

  /// \brief The collision engine's form of every shape (opaque here; see
  /// collision_checker.cc).
  struct Engine;
  const Engine& engine() const { return *engine_; }

 private:
  std::vector<LinkCollisionGeometry> links_;
  std::vector<std::pair<int, int>> self_pairs_;
  std::vector<DisabledPair> disabled_;
  std::vector<std::pair<std::string, std::string>> never_seen_;
  std::shared_ptr<const Engine> engine_;
};

}  // namespace motion
