#include "core/collision/collision_shape.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"

namespace motion {
namespace {

bool Positive(double v) { return std::isfinite(v) && v > 0; }

}  // namespace

CollisionShape CollisionShape::Box(const Eigen::Vector3d& size) {
  CollisionShape s;
  s.kind = Kind::kBox;
  s.box_size = size;
  return s;
}

CollisionShape CollisionShape::Cylinder(double radius, double length) {
  CollisionShape s;
  s.kind = Kind::kCylinder;
  s.radius = radius;
  s.length = length;
  return s;
}

CollisionShape CollisionShape::Sphere(double radius) {
  CollisionShape s;
  s.kind = Kind::kSphere;
  s.radius = radius;
  return s;
}

CollisionShape CollisionShape::Capsule(double radius, double length) {
  CollisionShape s;
  s.kind = Kind::kCapsule;
  s.radius = radius;
  s.length = length;
  return s;
}

CollisionShape CollisionShape::Mesh(std::shared_ptr<const TriangleMesh> mesh,
                                    const Eigen::Vector3d& scale) {
  CollisionShape s;
  s.kind = Kind::kMesh;
  s.mesh = std::move(mesh);
  s.mesh_scale = scale;
  return s;
}

double CollisionShape::BoundingRadius() const {
  switch (kind) {
    case Kind::kBox:
      return 0.5 * box_size.norm();
    case Kind::kCylinder:
      return std::hypot(radius, 0.5 * length);
    case Kind::kSphere:
      return radius;
    case Kind::kCapsule:
      return radius + 0.5 * length;
    case Kind::kMesh: {
      double r = 0.0;
      if (mesh) {
        for (const Eigen::Vector3d& v : mesh->vertices) {
          r = std::max(r, v.cwiseProduct(mesh_scale).norm());
        }
      }
      return r;
    }
  }
  return 0.0;
}

absl::Status ValidateShape(const CollisionShape& s, absl::string_view field) {
  auto bad = [&](absl::string_view what, double value) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ".", what, ": must be a finite number > 0, got ", value));
  };
  switch (s.kind) {
    case CollisionShape::Kind::kBox:
      for (int k = 0; k < 3; ++k) {
        static constexpr const char* kAxis[3] = {"box.size.x", "box.size.y", "box.size.z"};
        if (!Positive(s.box_size[k])) return bad(kAxis[k], s.box_size[k]);
      }
      return absl::OkStatus();
    case CollisionShape::Kind::kCylinder:
      if (!Positive(s.radius)) return bad("cylinder.radius", s.radius);
      if (!Positive(s.length)) return bad("cylinder.length", s.length);
      return absl::OkStatus();
    case CollisionShape::Kind::kSphere:
      if (!Positive(s.radius)) return bad("sphere.radius", s.radius);
      return absl::OkStatus();
    case CollisionShape::Kind::kCapsule:
      if (!Positive(s.radius)) return bad("capsule.radius", s.radius);
      if (!(std::isfinite(s.length) && s.length >= 0)) {
        return absl::InvalidArgumentError(
            absl::StrCat(field, ".capsule.length: must be a finite number >= 0, got ", s.length));
      }
      return absl::OkStatus();
    case CollisionShape::Kind::kMesh:
      if (!s.mesh || s.mesh->triangle_count() == 0) {
        return absl::InvalidArgumentError(absl::StrCat(field, ".mesh: no triangles"));
      }
      for (int k = 0; k < 3; ++k) {
        if (!Positive(s.mesh_scale[k])) return bad("mesh.scale", s.mesh_scale[k]);
      }
      return absl::OkStatus();
  }
  return absl::InvalidArgumentError(absl::StrCat(field, ": unknown shape"));
}

const char* ShapeKindName(CollisionShape::Kind kind) {
  switch (kind) {
    case CollisionShape::Kind::kBox:
      return "box";
    case CollisionShape::Kind::kCylinder:
      return "cylinder";
    case CollisionShape::Kind::kSphere:
      return "sphere";
    case CollisionShape::Kind::kCapsule:
      return "capsule";
    case CollisionShape::Kind::kMesh:
      return "mesh";
  }
  return "unknown";
}

}  // namespace motion
