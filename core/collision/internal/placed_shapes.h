#pragma once

#include <memory>
#include <vector>

#include <fcl/narrowphase/collision_object.h>

#include "core/collision/collision_checker.h"
#include "core/collision/internal/pair_outcome.h"
#include "core/collision/internal/primitive.h"
#include "core/collision/robot_collision_model.h"
#include "core/kinematics/chain_data.h"
#include "core/model/chain_model.h"

namespace motion {

/// \brief The robot's shapes placed at the last FK on a ChainData, flat;
/// an owner that places it again reuses its storage.
class PlacedRobot {
 public:
  /// `X_WB`: the base frame in the frame the shapes are placed in (null:
  /// the base frame itself).
  void Place(const ChainModel& chain, const ChainData& data, const RobotCollisionModel& robot,
             const Eigen::Isometry3d* X_WB = nullptr);
  int shape_count(int link) const { return first_[link + 1] - first_[link]; }
  const Primitive& shape(int link, int s) const { return shapes_[first_[link] + s]; }

 private:
  std::vector<int> first_;  ///< per link of robot.links(), its first shape; one past the end
  std::vector<Primitive> shapes_;
};

/// \brief FCL objects for the primitives of one placement that need one,
/// placed on first use (scene objects bring their own). Keyed by the
/// primitive's address: Clear() before the primitives move or change.
class FclPlacements {
 public:
  const fcl::CollisionObjectd& For(const Primitive& p);
  void Clear();

 private:
  std::vector<const Primitive*> keys_;
  std::vector<std::unique_ptr<fcl::CollisionObjectd>> objects_;
};

/// \brief One pair by `engine`: kFast through FastPair, falling back to
/// FCL where it has no answer; kFcl through TestPair.
PairOutcome TestShapes(CollisionEngine engine, const Primitive& a, const Primitive& b,
                       bool want_distance, double margin, FclPlacements& fcl);

}  // namespace motion
