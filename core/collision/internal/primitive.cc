#include "core/collision/internal/primitive.h"

#include <algorithm>
#include <cmath>

namespace motion {

Primitive PlacePrimitive(const CollisionShape& shape, const Eigen::Isometry3d& pose,
                         double bounding_radius,
                         const std::shared_ptr<fcl::CollisionGeometryd>* geometry) {
  Primitive p;
  p.kind = shape.kind;
  p.rotation = pose.linear();
  p.centre = pose.translation();
  p.bounding_radius = bounding_radius;
  p.geometry = geometry;
  Eigen::Vector3d extent = Eigen::Vector3d::Zero();
  const Eigen::Vector3d axis = p.rotation.col(2);
  switch (shape.kind) {
    case CollisionShape::Kind::kBox:
      p.half = 0.5 * shape.box_size;
      extent = p.rotation.cwiseAbs() * p.half;
      break;
    case CollisionShape::Kind::kCylinder:
      p.half = Eigen::Vector3d(shape.radius, shape.radius, 0.5 * shape.length);
      // The rim circle's extent along world axis k is r sqrt(1 - axis_k^2).
      for (int k = 0; k < 3; ++k) {
        extent[k] = std::abs(axis[k]) * p.half.z() +
                    shape.radius * std::sqrt(std::max(0.0, 1.0 - axis[k] * axis[k]));
      }
      break;
    case CollisionShape::Kind::kSphere:
      p.radius = shape.radius;
      extent.setConstant(shape.radius);
      break;
    case CollisionShape::Kind::kCapsule:
      p.radius = shape.radius;
      p.half.z() = 0.5 * shape.length;
      extent = axis.cwiseAbs() * p.half.z() + Eigen::Vector3d::Constant(shape.radius);
      break;
    case CollisionShape::Kind::kMesh:
      extent.setConstant(bounding_radius);
      break;
  }
  p.box_min = p.centre - extent;
  p.box_max = p.centre + extent;
  return p;
}

}  // namespace motion
