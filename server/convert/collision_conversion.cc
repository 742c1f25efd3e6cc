#include "server/convert/collision_conversion.h"

#include <cmath>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/diagnostics/untrusted_text.h"
#include "google/rpc/error_details.pb.h"
#include "proto/motion/v1/wire_constants.h"
#include "server/convert/proto_conversion.h"
#include "server/runtime/robot_registry.h"

namespace motion::server {
namespace {

absl::Status SceneNotRegistered(absl::string_view scene_id, absl::string_view field) {
  absl::Status status = absl::NotFoundError(
      absl::StrCat(field, ".scene_id: scene '", QuoteUntrusted(scene_id),
                   "' is not registered on this server; send the scene inline (scene.scene)"));
  google::rpc::ErrorInfo info;
  info.set_reason("SCENE_NOT_REGISTERED");
  info.set_domain(std::string(v1::kErrorDomain));
  status.SetPayload(RobotRegistry::kErrorInfoPayload, absl::Cord(info.SerializeAsString()));
  return status;
}

absl::StatusOr<CollisionShape> ShapeFromProto(const v1::Shape& in, const std::string& field) {
  switch (in.shape_case()) {
    case v1::Shape::kBox:
      return CollisionShape::Box(
          Eigen::Vector3d(in.box().size().x(), in.box().size().y(), in.box().size().z()));
    case v1::Shape::kCylinder:
      return CollisionShape::Cylinder(in.cylinder().radius(), in.cylinder().length());
    case v1::Shape::kSphere:
      return CollisionShape::Sphere(in.sphere().radius());
    case v1::Shape::kCapsule:
      return CollisionShape::Capsule(in.capsule().radius(), in.capsule().length());
    case v1::Shape::kMesh: {
      absl::StatusOr<TriangleMesh> mesh = ParseStl(in.mesh().stl(), field + ".mesh.stl");
      if (!mesh.ok()) return mesh.status();
      Eigen::Vector3d scale = Eigen::Vector3d::Ones();
      if (in.mesh().has_scale()) {
        scale =
            Eigen::Vector3d(in.mesh().scale().x(), in.mesh().scale().y(), in.mesh().scale().z());
      }
      return CollisionShape::Mesh(std::make_shared<const TriangleMesh>(*std::move(mesh)), scale);
    }
    case v1::Shape::SHAPE_NOT_SET:
      break;
  }
  return absl::InvalidArgumentError(
      absl::StrCat(field, ": no shape; set box, cylinder, sphere, capsule or mesh"));
}

}  // namespace

absl::StatusOr<std::shared_ptr<const CollisionScene>> SceneFromProto(const v1::SceneRef& ref,
                                                                     absl::string_view field) {
  if (!ref.scene_id().empty()) return SceneNotRegistered(ref.scene_id(), field);
  SceneLimits limits;
  if (static_cast<std::size_t>(ref.scene().objects_size()) > limits.max_objects) {
    return absl::InvalidArgumentError(absl::StrCat(field,
                                                   ".scene.objects: ", ref.scene().objects_size(),
                                                   " objects; the limit is ", limits.max_objects));
  }
  std::vector<CollisionObject> objects;
  objects.reserve(ref.scene().objects_size());
  for (int i = 0; i < ref.scene().objects_size(); ++i) {
    const v1::CollisionObject& in = ref.scene().objects(i);
    const std::string where = absl::StrCat(field, ".scene.objects[", i, "]");
    CollisionObject o;
    o.id = in.id();
    absl::StatusOr<Pose> pose = OptionalPoseFromProto(in.has_pose(), in.pose(), where + ".pose");
    if (!pose.ok()) return pose.status();
    o.pose = *pose;
    absl::StatusOr<CollisionShape> shape = ShapeFromProto(in.shape(), where + ".shape");
    if (!shape.ok()) return shape.status();
    o.shape = *std::move(shape);
    objects.push_back(std::move(o));
  }
  absl::StatusOr<std::shared_ptr<const CollisionScene>> scene =
      CollisionScene::Build(std::move(objects), limits);
  if (!scene.ok()) {
    // Core names "objects[i]..."; the request's path leads.
    return absl::InvalidArgumentError(absl::StrCat(field, ".scene.", scene.status().message()));
  }
  return scene;
}

void CollisionVerdictToProto(const CollisionVerdict& verdict, v1::CollisionResult* out) {
  out->set_in_collision(verdict.in_collision);
  for (const Contact& c : verdict.contacts) {
    v1::Contact* contact = out->add_contacts();
    contact->set_link(c.link);
    contact->set_other(c.other);
    contact->set_depth(c.depth);
  }
  if (std::isfinite(verdict.min_distance)) {
    out->set_min_distance(verdict.min_distance);
    out->set_nearest_link(verdict.nearest_link);
    out->set_nearest_other(verdict.nearest_other);
  }
}

void CollisionModelToProto(const RobotCollisionModel& model, v1::CheckCollisionResponse* out) {
  for (const LinkCollisionGeometry& l : model.links()) {
    v1::LinkGeometryInfo* info = out->add_links();
    info->set_link(l.link);
    info->set_source(l.source);
    for (const std::string& m : l.missing_meshes) info->add_missing_meshes(m);
  }
  for (const DisabledPair& d : model.disabled_pairs()) {
    v1::DisabledLinkPair* pair = out->add_disabled_pairs();
    pair->set_link(d.a);
    pair->set_other(d.b);
    pair->set_reason(d.reason);
  }
}

}  // namespace motion::server
