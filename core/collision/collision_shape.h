#pragma once

#include <memory>

#include <Eigen/Core>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "core/collision/stl_mesh.h"

namespace motion {

/// \brief A collision shape about its own origin, URDF conventions: box by
/// full edge lengths, cylinder and capsule along z and centred (capsule:
/// `length` between the centres of its end spheres), mesh vertices scaled.
struct CollisionShape {
  enum class Kind { kBox, kCylinder, kSphere, kCapsule, kMesh };
  Kind kind = Kind::kSphere;
  Eigen::Vector3d box_size = Eigen::Vector3d::Zero();
  double radius = 0.0;
  double length = 0.0;
  std::shared_ptr<const TriangleMesh> mesh;
  Eigen::Vector3d mesh_scale = Eigen::Vector3d::Ones();

  static CollisionShape Box(const Eigen::Vector3d& size);
  static CollisionShape Cylinder(double radius, double length);
  static CollisionShape Sphere(double radius);
  static CollisionShape Capsule(double radius, double length);
  static CollisionShape Mesh(std::shared_ptr<const TriangleMesh> mesh,
                             const Eigen::Vector3d& scale = Eigen::Vector3d::Ones());

  /// \brief Radius of a sphere about the origin that holds the shape.
  double BoundingRadius() const;
};

/// \brief InvalidArgument led by `field` unless every size is finite and
/// positive (a capsule's length may be 0: a sphere) and a mesh has triangles.
absl::Status ValidateShape(const CollisionShape& shape, absl::string_view field);

const char* ShapeKindName(CollisionShape::Kind kind);

}  // namespace motion
