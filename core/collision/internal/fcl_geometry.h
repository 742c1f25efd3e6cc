#pragma once

#include <memory>
#include <vector>

#include <fcl/narrowphase/collision_object.h>

#include "core/collision/collision_shape.h"
#include "core/collision/internal/pair_outcome.h"
#include "core/collision/robot_collision_model.h"
#include "core/kinematics/chain_data.h"
#include "core/model/chain_model.h"

namespace motion {

/// \brief FCL's geometry for a shape (meshes as an OBBRSS BVH of their
/// scaled triangles). Immutable after construction, so shared between
/// threads; the per-query CollisionObjects that place them are not.
std::shared_ptr<fcl::CollisionGeometryd> ToFclGeometry(const CollisionShape& shape);

struct RobotCollisionModel::Engine {
  /// Per link of links(), per shape: its FCL geometry.
  std::vector<std::vector<std::shared_ptr<fcl::CollisionGeometryd>>> geometry;
  /// Per link, per shape: the radius of a sphere about the shape's origin
  /// that holds it (CollisionShape::BoundingRadius).
  std::vector<std::vector<double>> radius;
};

/// \brief Frame of chain link `i` from the joint frames of the last FK
/// on `data` (LinkPoses without copying every link's name).
inline Eigen::Isometry3d ChainLinkFrame(const ChainModel& chain, const ChainData& data, int i) {
  const ChainLink& link = chain.links[i];
  return link.after_joint < 0 ? link.offset : data.joint_frames[link.after_joint] * link.offset;
}

/// \brief Tests one pair of placed geometries. With want_distance or a
/// margin > 0 the distance is computed too; FCL's GJK solver is the
/// library's own (GST_INDEP): FCL 0.7's default (libccd) is off by up to
/// centimetres for box-box and cylinder-box pairs.
PairOutcome TestPair(const fcl::CollisionObjectd& a, const fcl::CollisionObjectd& b,
                     bool want_distance, double margin);

}  // namespace motion
