#include "server/runtime/robot_registry.h"

#include <set>

#include "absl/status/status.h"
#include "absl/strings/cord.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "core/diagnostics/untrusted_text.h"
#include "core/identity/robot_id.h"
#include "google/rpc/error_details.pb.h"
#include "proto/motion/v1/wire_constants.h"

namespace motion::server {
namespace {

absl::Status NotRegistered(absl::string_view robot_id, absl::string_view field) {
  absl::Status status = absl::NotFoundError(absl::StrCat(
      FieldPath(field, "robot_id"), ": robot '", robot_id,
      "' is not registered on this server; send the URDF (RegisterRobot, or robot.urdf "
      "with the request)"));
  google::rpc::ErrorInfo info;
  info.set_reason(std::string(v1::kRobotNotRegistered));
  info.set_domain(std::string(v1::kErrorDomain));
  (*info.mutable_metadata())["robot_id"] = std::string(robot_id);
  status.SetPayload(RobotRegistry::kErrorInfoPayload, absl::Cord(info.SerializeAsString()));
  return status;
}

}  // namespace

std::string FieldPath(absl::string_view prefix, absl::string_view name) {
  return prefix.empty() ? std::string(name) : absl::StrCat(prefix, ".", name);
}

absl::StatusOr<std::shared_ptr<const MeshSupply>> RobotRegistry::ParseMeshes(
    const RobotModel& model, const std::vector<MeshFileBytes>& meshes,
    absl::string_view field) const {
  std::set<std::string, std::less<>> wanted;
  for (const auto& [link, elements] : model.link_collisions()) {
    for (const UrdfCollision& c : elements) {
      if (c.kind == UrdfCollision::Kind::kMesh) wanted.insert(c.mesh_filename);
    }
  }
  auto supply = std::make_shared<MeshSupply>();
  std::size_t triangles = 0;
  for (std::size_t i = 0; i < meshes.size(); ++i) {
    const std::string where = FieldPath(field, absl::StrCat("meshes[", i, "]"));
    if (wanted.count(meshes[i].filename) == 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          where, ".filename: ", QuoteUntrusted(meshes[i].filename),
          " is not the filename of a <collision> <mesh> in the URDF (give it exactly as "
          "written there)"));
    }
    absl::StatusOr<TriangleMesh> mesh =
        ParseStl(meshes[i].data, absl::StrCat(where, ".data"), options_.mesh_limits);
    if (!mesh.ok()) return mesh.status();
    triangles += mesh->triangle_count();
    if (triangles > options_.max_mesh_triangles) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ".data: the robot's meshes have more than ",
                       options_.max_mesh_triangles, " triangles together"));
    }
    (*supply)[std::string(meshes[i].filename)] =
        std::make_shared<const TriangleMesh>(*std::move(mesh));
  }
  return supply;
}

absl::StatusOr<RegisteredRobot> RobotRegistry::Register(absl::string_view urdf,
                                                        const std::vector<MeshFileBytes>& meshes,
                                                        absl::string_view field) {
  // What can be checked without parsing comes first: the id depends on
  // the filenames being unique and free of line breaks.
  if (meshes.size() > options_.max_meshes) {
    return absl::InvalidArgumentError(absl::StrCat(FieldPath(field, "meshes"), ": ", meshes.size(),
                                                   " files, at most ", options_.max_meshes));
  }
  std::set<absl::string_view> filenames;
  std::vector<std::pair<absl::string_view, absl::string_view>> hashed;
  for (std::size_t i = 0; i < meshes.size(); ++i) {
    const std::string where = FieldPath(field, absl::StrCat("meshes[", i, "].filename"));
    const absl::string_view name = meshes[i].filename;
    if (name.empty() || name.size() > options_.max_mesh_filename_bytes) {
      return absl::InvalidArgumentError(absl::StrCat(
          where, ": must be 1 to ", options_.max_mesh_filename_bytes, " bytes, got ", name.size()));
    }
    for (const char c : name) {
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
        return absl::InvalidArgumentError(absl::StrCat(where, ": contains a control character"));
      }
    }
    if (!filenames.insert(name).second) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": ", QuoteUntrusted(name), " is sent twice"));
    }
    hashed.emplace_back(name, meshes[i].data);
  }
  std::string robot_id = RobotIdForUrdfAndMeshes(urdf, std::move(hashed));
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (const Entry* entry = cache_.Find(robot_id)) {
      return RegisteredRobot{robot_id, entry->model, entry->meshes, true};
    }
  }
  // Parse outside the lock: a large URDF must not stall every other request.
  absl::StatusOr<std::shared_ptr<const RobotModel>> model =
      RobotModel::FromUrdf(urdf, options_.model_limits);
  if (!model.ok()) return model.status();
  absl::StatusOr<std::shared_ptr<const MeshSupply>> supply = ParseMeshes(**model, meshes, field);
  if (!supply.ok()) return supply.status();
  std::size_t bytes = (*model)->memory_bytes();
  for (const auto& [name, mesh] : **supply) {
    bytes += name.size() + mesh->vertices.size() * sizeof(Eigen::Vector3d);
  }

  std::lock_guard<std::mutex> lock(mutex_);
  // Lost a race to another thread registering the same files: keep the first.
  const auto [stored, already] = cache_.Insert(robot_id, Entry{*model, *supply}, bytes);
  return RegisteredRobot{std::move(robot_id), stored->model, stored->meshes, already};
}

absl::StatusOr<RegisteredRobot> RobotRegistry::Find(absl::string_view robot_id,
                                                    absl::string_view field) {
  std::lock_guard<std::mutex> lock(mutex_);
  const Entry* entry = cache_.Find(robot_id);
  if (entry == nullptr) return NotRegistered(robot_id, field);
  return RegisteredRobot{std::string(robot_id), entry->model, entry->meshes, true};
}

absl::StatusOr<RegisteredRobot> RobotRegistry::Resolve(absl::string_view robot_id,
                                                       absl::string_view urdf,
                                                       const std::vector<MeshFileBytes>& meshes,
                                                       absl::string_view field) {
  if (!urdf.empty()) {
    absl::StatusOr<RegisteredRobot> registered = Register(urdf, meshes, field);
    if (!registered.ok()) {
      // Model errors start with "urdf: "; place them under this RobotRef
      // (mesh errors already are).
      if (absl::StartsWith(registered.status().message(), "urdf")) {
        return absl::Status(registered.status().code(),
                            FieldPath(field, registered.status().message()));
      }
      return registered.status();
    }
    if (!robot_id.empty() && robot_id != registered->robot_id) {
      return absl::InvalidArgumentError(absl::StrCat(
          FieldPath(field, "robot_id"), ": '", robot_id, "' is not the content hash of ",
          FieldPath(field, meshes.empty() ? "urdf" : "urdf and meshes"), " (expected ",
          registered->robot_id, ")"));
    }
    return registered;
  }
  if (!meshes.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(FieldPath(field, "meshes"),
                                                   ": meshes travel with their URDF; give ",
                                                   FieldPath(field, "urdf"), " too"));
  }
  if (robot_id.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        field.empty() ? "robot_id" : field, ": give robot_id or urdf (or both) to name the robot"));
  }
  if (!IsWellFormedRobotId(robot_id)) {
    return absl::InvalidArgumentError(
        absl::StrCat(FieldPath(field, "robot_id"), ": '", robot_id,
                     "' is not of the form sha256:<64 lowercase hex digits>"));
  }
  return Find(robot_id, field);
}

std::vector<RegisteredRobot> RobotRegistry::List() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<RegisteredRobot> out;
  cache_.ForEach([&out](const std::string& id, const Entry& entry) {
    out.push_back({id, entry.model, entry.meshes, true});
  });
  return out;
}

RegistryStats RobotRegistry::Stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  const LruCounters& c = cache_.counters();
  return RegistryStats{c.entries, c.bytes, c.hits, c.misses, c.evictions};
}

}  // namespace motion::server
