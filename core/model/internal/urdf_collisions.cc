#include "core/model/internal/urdf_collisions.h"

#include <cmath>

namespace motion {
namespace {

bool Positive(double v) { return std::isfinite(v) && v > 0; }

Eigen::Isometry3d ToIsometry(const urdf::Pose& p) {
  Eigen::Isometry3d t = Eigen::Isometry3d::Identity();
  t.translation() = Eigen::Vector3d(p.position.x, p.position.y, p.position.z);
  double x, y, z, w;
  p.rotation.getQuaternion(x, y, z, w);
  t.linear() = Eigen::Quaterniond(w, x, y, z).normalized().toRotationMatrix();
  return t;
}

// The element in motiond's form; false when it cannot be used.
bool Convert(const urdf::Collision& in, UrdfCollision& out) {
  if (!in.geometry) return false;
  out.origin = ToIsometry(in.origin);
  if (!out.origin.matrix().allFinite()) return false;
  switch (in.geometry->type) {
    case urdf::Geometry::BOX: {
      const auto& box = static_cast<const urdf::Box&>(*in.geometry);
      out.kind = UrdfCollision::Kind::kBox;
      out.box_size = Eigen::Vector3d(box.dim.x, box.dim.y, box.dim.z);
      return Positive(box.dim.x) && Positive(box.dim.y) && Positive(box.dim.z);
    }
    case urdf::Geometry::CYLINDER: {
      const auto& c = static_cast<const urdf::Cylinder&>(*in.geometry);
      out.kind = UrdfCollision::Kind::kCylinder;
      out.radius = c.radius;
      out.length = c.length;
      return Positive(c.radius) && Positive(c.length);
    }
    case urdf::Geometry::SPHERE: {
      const auto& s = static_cast<const urdf::Sphere&>(*in.geometry);
      out.kind = UrdfCollision::Kind::kSphere;
      out.radius = s.radius;
      return Positive(s.radius);
    }
    case urdf::Geometry::MESH: {
      const auto& m = static_cast<const urdf::Mesh&>(*in.geometry);
      out.kind = UrdfCollision::Kind::kMesh;
      out.mesh_filename = m.filename;
      out.mesh_scale = Eigen::Vector3d(m.scale.x, m.scale.y, m.scale.z);
      return !m.filename.empty() && Positive(m.scale.x) && Positive(m.scale.y) &&
             Positive(m.scale.z);
    }
  }
  return false;
}

}  // namespace

LinkCollisions ReadLinkCollisions(const urdf::ModelInterface& model) {
  LinkCollisions out;
  for (const auto& [name, link] : model.links_) {
    if (!link) continue;
    std::vector<UrdfCollision> shapes;
    auto add = [&](const urdf::CollisionSharedPtr& c) {
      UrdfCollision converted;
      if (c && Convert(*c, converted)) shapes.push_back(converted);
    };
    // urdfdom puts the first element in `collision` and every one in
    // `collision_array` (when there is at least one).
    if (!link->collision_array.empty()) {
      for (const auto& c : link->collision_array) add(c);
    } else {
      add(link->collision);
    }
    if (!shapes.empty()) out[name] = std::move(shapes);
  }
  return out;
}

}  // namespace motion
