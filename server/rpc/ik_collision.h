#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/collision/collision_checker.h"
#include "core/ik/collision_free_ik.h"
#include "core/ik/ik_solver.h"
#include "motion/v1/kinematics.pb.h"
#include "server/rpc/service_env.h"

namespace motion::server {

/// \brief The collision checking an IkOptions with avoid_collisions asks
/// for: the chain's collision model, the scene (resolved or registered, as
/// PlanPath's), self-collision when the robot's own geometry was sent, the
/// safety margin.
struct IkCollisionSetup {
  std::shared_ptr<const RobotCollisionModel> robot;
  std::shared_ptr<const CollisionScene> scene;
  CollisionQuery query;

  IkCollisionCheck Check() const { return IkCollisionCheck{*robot, *scene, query}; }
};

/// \brief nullopt without options.avoid_collisions; InvalidArgument naming
/// `field`.scene or `field`.safety_margin for a bad one.
absl::StatusOr<std::optional<IkCollisionSetup>> IkCollisionFromProto(ServiceEnv& env,
                                                                     const ResolvedChain& resolved,
                                                                     const v1::IkOptions& options,
                                                                     absl::string_view field);

/// \brief SolveCollisionFreeIk against `collision` when the request asked
/// to avoid collisions, else plain SolveIk: the one choice ComputeIk and
/// CheckReachability make for every target.
absl::StatusOr<IkResult> SolveRequestedIk(const ChainModel& chain, IkData& data, const Pose& target,
                                          const Pose& tool, const std::vector<double>& seed,
                                          const IkOptions& options,
                                          const std::optional<IkCollisionSetup>& collision);

}  // namespace motion::server
