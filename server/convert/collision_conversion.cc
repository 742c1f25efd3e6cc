#include "server/convert/collision_conversion.h"

#include <cmath>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/diagnostics/untrusted_text.h"
#include "core/identity/robot_id.h"
#include "google/rpc/error_details.pb.h"
#include "proto/motion/v1/content_ids.h"
#include "proto/motion/v1/wire_constants.h"
#include "server/convert/proto_conversion.h"
#include "server/runtime/robot_registry.h"

namespace motion::server {
namespace {

absl::Status SceneNotRegistered(absl::string_view scene_id, absl::string_view field) {
  absl::Status status = absl::NotFoundError(
      absl::StrCat(field, ".scene_id: scene ", QuoteUntrusted(scene_id),
                   " is not registered on this server; send the scene (RegisterScene, or ", field,
                   ".scene with the request)"));
  google::rpc::ErrorInfo info;
  info.set_reason(std::string(v1::kSceneNotRegistered));
  info.set_domain(std::string(v1::kErrorDomain));
  (*info.mutable_metadata())["scene_id"] = std::string(scene_id);
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

absl::Status CheckObjectCount(const v1::Scene& scene, const SceneLimits& limits,
                              absl::string_view field) {
  if (static_cast<std::size_t>(scene.objects_size()) <= limits.max_objects) {
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(absl::StrCat(field, ".objects: ", scene.objects_size(),
                                                 " objects; the limit is ", limits.max_objects));
}

}  // namespace

absl::StatusOr<std::shared_ptr<const CollisionScene>> SceneFromProto(const v1::Scene& in,
                                                                     absl::string_view field) {
  const SceneLimits limits;
  if (absl::Status status = CheckObjectCount(in, limits, field); !status.ok()) return status;
  std::vector<CollisionObject> objects;
  objects.reserve(in.objects_size());
  for (int i = 0; i < in.objects_size(); ++i) {
    const v1::CollisionObject& object = in.objects(i);
    const std::string where = absl::StrCat(field, ".objects[", i, "]");
    CollisionObject o;
    o.id = object.id();
    absl::StatusOr<Pose> pose =
        OptionalPoseFromProto(object.has_pose(), object.pose(), where + ".pose");
    if (!pose.ok()) return pose.status();
    o.pose = *pose;
    absl::StatusOr<CollisionShape> shape = ShapeFromProto(object.shape(), where + ".shape");
    if (!shape.ok()) return shape.status();
    o.shape = *std::move(shape);
    objects.push_back(std::move(o));
  }
  absl::StatusOr<std::shared_ptr<const CollisionScene>> scene =
      CollisionScene::Build(std::move(objects), limits);
  if (!scene.ok()) {
    // Core names "objects[i]..."; the request's path leads.
    return absl::InvalidArgumentError(absl::StrCat(field, ".", scene.status().message()));
  }
  return scene;
}

absl::StatusOr<RegisteredScene> RegisterScene(SceneRegistry& scenes, const v1::Scene& scene,
                                              absl::string_view field) {
  // Before hashing: a scene of a million objects is refused at once.
  if (absl::Status status = CheckObjectCount(scene, SceneLimits(), field); !status.ok()) {
    return status;
  }
  RegisteredScene out;
  out.scene_id = v1::SceneIdFor(scene);
  if ((out.scene = scenes.Find(out.scene_id))) {
    out.already_registered = true;
    return out;
  }
  absl::StatusOr<std::shared_ptr<const CollisionScene>> built = SceneFromProto(scene, field);
  if (!built.ok()) return built.status();
  // What the scene holds: its objects, the engine's copy of each and the
  // mesh vertices (the serialized size stands for those).
  const std::size_t bytes = scene.ByteSizeLong() * 4 + scene.objects_size() * std::size_t{1024};
  out.scene = scenes.Insert(out.scene_id, *std::move(built), bytes, &out.already_registered);
  return out;
}

absl::StatusOr<std::shared_ptr<const CollisionScene>> ResolveScene(SceneRegistry& scenes,
                                                                   const v1::SceneRef& ref,
                                                                   absl::string_view field) {
  if (ref.has_scene()) {
    absl::StatusOr<RegisteredScene> registered =
        RegisterScene(scenes, ref.scene(), absl::StrCat(field, ".scene"));
    if (!registered.ok()) return registered.status();
    if (!ref.scene_id().empty() && ref.scene_id() != registered->scene_id) {
      return absl::InvalidArgumentError(absl::StrCat(
          field, ".scene_id: ", QuoteUntrusted(ref.scene_id()), " is not the content hash of ",
          field, ".scene (expected ", registered->scene_id, ")"));
    }
    return registered->scene;
  }
  if (ref.scene_id().empty()) return CollisionScene::Empty();
  if (!IsWellFormedRobotId(ref.scene_id())) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ".scene_id: ", QuoteUntrusted(ref.scene_id()),
                     " is not of the form sha256:<64 lowercase hex digits>"));
  }
  if (std::shared_ptr<const CollisionScene> scene = scenes.Find(ref.scene_id())) return scene;
  return SceneNotRegistered(ref.scene_id(), field);
}

absl::StatusOr<std::shared_ptr<const AllowedCollisions>> AllowedCollisionsFromProto(
    const google::protobuf::RepeatedPtrField<v1::LinkPair>& pairs, const RobotCollisionModel& robot,
    const CollisionScene& scene, absl::string_view field) {
  if (pairs.empty()) return nullptr;
  std::vector<AllowedPair> allowed;
  allowed.reserve(pairs.size());
  for (const v1::LinkPair& p : pairs) allowed.push_back({p.a(), p.b()});
  absl::StatusOr<AllowedCollisions> built = AllowedCollisions::Build(robot, scene, allowed, field);
  if (!built.ok()) return built.status();
  return std::make_shared<const AllowedCollisions>(*std::move(built));
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

void CollisionModelToProto(const RobotCollisionModel& model,
                           google::protobuf::RepeatedPtrField<v1::LinkGeometryInfo>* links,
                           google::protobuf::RepeatedPtrField<v1::DisabledLinkPair>* disabled) {
  for (const LinkCollisionGeometry& l : model.links()) {
    v1::LinkGeometryInfo* info = links->Add();
    info->set_link(l.link);
    info->set_source(l.source);
    info->set_shapes(static_cast<int>(l.shapes.size()));
    for (const std::string& m : l.missing_meshes) info->add_missing_meshes(m);
  }
  for (const DisabledPair& d : model.disabled_pairs()) {
    v1::DisabledLinkPair* pair = disabled->Add();
    pair->set_link(d.a);
    pair->set_other(d.b);
    pair->set_reason(d.reason);
  }
}

}  // namespace motion::server
