#pragma once

#include <cmath>
#include <memory>

#include <fcl/narrowphase/collision_object.h>
#include <Eigen/Core>

#include "core/collision/collision_shape.h"

namespace motion {

/// \brief A shape placed in the world for one query, as plain numbers: what
/// the own narrowphase and the bounding tests read. FCL is reached through
/// `geometry` (to place an FCL object when a pair needs one) or `fcl` (an
/// object already placed, for scene objects).
///
/// Every convex primitive is a core swept by a ball: a sphere is a point
/// and its radius, a capsule a segment and its radius, a box and a cylinder
/// themselves with radius 0.
struct Primitive {
  CollisionShape::Kind kind = CollisionShape::Kind::kSphere;
  Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity();  ///< shape frame -> world
  Eigen::Vector3d centre = Eigen::Vector3d::Zero();        ///< shape origin in the world
  /// Box: half edge lengths; cylinder: (radius, radius, half length);
  /// capsule: (0, 0, half length); sphere and mesh: 0.
  Eigen::Vector3d half = Eigen::Vector3d::Zero();
  double radius = 0.0;           ///< of the swept ball: sphere and capsule only
  double bounding_radius = 0.0;  ///< a sphere about `centre` that holds the shape
  Eigen::Vector3d box_min = Eigen::Vector3d::Zero(), box_max = Eigen::Vector3d::Zero();  ///< AABB
  const std::shared_ptr<fcl::CollisionGeometryd>* geometry = nullptr;
  const fcl::CollisionObjectd* fcl = nullptr;
};

/// \brief `shape` placed at `pose`; `bounding_radius` is
/// shape.BoundingRadius() (a mesh's costs a pass over its vertices, so it
/// is computed once), `geometry` its FCL form (kept by the caller for as
/// long as the primitive is used).
Primitive PlacePrimitive(const CollisionShape& shape, const Eigen::Isometry3d& pose,
                         double bounding_radius,
                         const std::shared_ptr<fcl::CollisionGeometryd>* geometry);

/// \brief Squared distance between the two AABBs (0 when they overlap).
inline double BoxGapSquared(const Primitive& a, const Primitive& b) {
  return (a.box_min - b.box_max).cwiseMax(b.box_min - a.box_max).cwiseMax(0.0).squaredNorm();
}

/// \brief Distance between the two AABBs: a lower bound on the shapes'.
inline double BoxGap(const Primitive& a, const Primitive& b) {
  return std::sqrt(BoxGapSquared(a, b));
}

/// \brief Lower bound on the distance from the bounding spheres.
inline double SphereGap(const Primitive& a, const Primitive& b) {
  return (a.centre - b.centre).norm() - a.bounding_radius - b.bounding_radius;
}

}  // namespace motion
