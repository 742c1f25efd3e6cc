#pragma once

#include <vector>

#include "absl/status/statusor.h"
#include "core/collision/collision_checker.h"
#include "core/geometry/pose.h"
#include "core/ik/ik_data.h"
#include "core/ik/ik_options.h"
#include "core/ik/ik_result.h"
#include "core/model/chain_model.h"

namespace motion {

/// \brief What a collision-free IK checks its solutions against.
struct IkCollisionCheck {
  const RobotCollisionModel& robot;
  const CollisionScene& scene;
  CollisionQuery query;  ///< self-collision, safety margin, allowed pairs
};

/// \brief IK whose answer is not in collision: every solution SolveIk finds
/// with mode kAll (options.configuration respected; options.max_solutions,
/// at least 16, bounds the search), the collision-free ones kept in their
/// order (closest to the seed first). ok: `joints` is the first of them,
/// and `solutions` (mode kAll) all of them. None clear while some solve the
/// pose: not ok, outcome kInCollision, `joints` the closest solution and a
/// COLLISION diagnostic naming the pair that blocks it. No solution at all:
/// SolveIk's answer. Errors: SolveIk's.
absl::StatusOr<IkResult> SolveCollisionFreeIk(const ChainModel& model, IkData& data,
                                              const Pose& target, const Pose& tool,
                                              const std::vector<double>& seed, IkOptions options,
                                              const IkCollisionCheck& check);

}  // namespace motion
