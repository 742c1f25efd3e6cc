#pragma once

#include <limits>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "core/collision/allowed_collisions.h"
#include "core/collision/collision_scene.h"
#include "core/collision/robot_collision_model.h"
#include "core/kinematics/chain_data.h"
#include "core/model/chain_model.h"

namespace motion {

/// \brief Two things that touch: a link and another link or a scene
/// object id, and by how much (m): penetration depth, plus the safety
/// margin when one was asked for (a pair closer than the margin is a
/// contact of depth margin - distance).
struct Contact {
  std::string link;
  std::string other;
  double depth = 0.0;
};

/// \brief Who decides each pair. kFast: motiond's own narrowphase for
/// convex primitives (exact distances and depths, FCL only for meshes and
/// overlapping cylinders); kFcl: every pair through FCL 0.7, the
/// reference the fast path is tested against. Both give the same verdicts.
enum class CollisionEngine { kFast, kFcl };

struct CollisionQuery {
  bool self_collision = true;
  bool compute_distance = false;  ///< min_distance over every checked pair
  double safety_margin = 0.0;     ///< m, >= 0
  /// Pairs never tested (not contacts, not in min_distance); null: none.
  /// Built for the same robot model and scene as the check.
  const AllowedCollisions* allowed = nullptr;
  CollisionEngine engine = CollisionEngine::kFast;
};

struct CollisionVerdict {
  bool in_collision = false;
  std::vector<Contact> contacts;  ///< every pair in contact, not the first
  /// Smallest distance over the checked pairs (< 0: deepest penetration);
  /// +inf when not computed or nothing was checked.
  double min_distance = std::numeric_limits<double>::infinity();
  std::string nearest_link, nearest_other;
};

/// \brief Checks the chain at joints `q` against `scene` and (query) itself.
/// `data` is this thread's ChainData for `chain` (FK is run into it).
CollisionVerdict CheckCollision(const ChainModel& chain, ChainData& data,
                                const RobotCollisionModel& robot, const CollisionScene& scene,
                                const Eigen::VectorXd& q, const CollisionQuery& query);

}  // namespace motion
