#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/collision/robot_collision_model.h"
#include "core/collision/stl_mesh.h"
#include "core/model/model_limits.h"
#include "core/model/robot_model.h"
#include "server/runtime/lru_cache.h"

namespace motion::server {

/// \brief Bounds of the registry cache. A robot is evicted (least recently
/// used first) when either bound is exceeded; requests already holding its
/// model keep it alive through their shared_ptr.
struct RegistryOptions {
  std::size_t max_robots = 256;
  std::size_t max_bytes = 256u << 20;  ///< RobotModel::memory_bytes() + parsed meshes
  ModelLimits model_limits;
  MeshLimits mesh_limits;
  std::size_t max_meshes = 256;                ///< mesh files per robot
  std::size_t max_mesh_triangles = 1'000'000;  ///< over all of one robot's meshes
  std::size_t max_mesh_filename_bytes = 1024;
};

/// \brief One mesh file as a request carries it (views into the request).
struct MeshFileBytes {
  absl::string_view filename;
  absl::string_view data;
};

struct RegisteredRobot {
  std::string robot_id;
  std::shared_ptr<const RobotModel> model;
  /// The parsed meshes sent with the URDF, by URDF filename (never null).
  std::shared_ptr<const MeshSupply> meshes;
  bool already_registered = false;
};

struct RegistryStats {
  std::size_t robots = 0;
  std::size_t bytes = 0;
  std::uint64_t hits = 0;
  std::uint64_t misses = 0;
  std::uint64_t evictions = 0;
};

/// \brief "prefix.name", or "name" when prefix is empty.
std::string FieldPath(absl::string_view prefix, absl::string_view name);

/// \brief Content-addressed, bounded cache of robot models.
///
/// robot_id = "sha256:" + hex SHA-256 of the URDF bytes (with meshes:
/// RobotIdForUrdfAndMeshes), so registering is idempotent and any replica
/// derives the same id from the same files. Thread safe; parsing happens
/// outside the lock.
class RobotRegistry {
 public:
  /// absl::Status payload key carrying a serialized google.rpc.ErrorInfo
  /// (its Any type URL, so ToGrpcStatus can pack it as is).
  static constexpr absl::string_view kErrorInfoPayload = "type.googleapis.com/google.rpc.ErrorInfo";

  explicit RobotRegistry(RegistryOptions options)
      : options_(std::move(options)), cache_(LruLimits{options_.max_robots, options_.max_bytes}) {}

  /// \brief Parses and stores `urdf` and its `meshes` (InvalidArgument
  /// naming the problem, "meshes[i].data: ..." under `field`, if they do not
  /// load); returns the cached entry when already present. Each mesh must
  /// be a <collision> mesh filename of the URDF, once.
  absl::StatusOr<RegisteredRobot> Register(absl::string_view urdf,
                                           const std::vector<MeshFileBytes>& meshes = {},
                                           absl::string_view field = "");

  /// \brief NotFound with an ErrorInfo{ROBOT_NOT_REGISTERED} payload when
  /// the id is unknown (never registered, or evicted).
  absl::StatusOr<RegisteredRobot> Find(absl::string_view robot_id,
                                       absl::string_view field = "robot");

  /// \brief Resolves a RobotRef: URDF inline (registered on the fly; must
  /// match robot_id when both are given), else robot_id. `field` is the path
  /// of the RobotRef in the request ("robot"; "" when its fields are
  /// top-level), prefixed to the field names in error messages.
  absl::StatusOr<RegisteredRobot> Resolve(absl::string_view robot_id, absl::string_view urdf,
                                          const std::vector<MeshFileBytes>& meshes,
                                          absl::string_view field);

  std::vector<RegisteredRobot> List() const;
  RegistryStats Stats() const;

 private:
  struct Entry {
    std::shared_ptr<const RobotModel> model;
    std::shared_ptr<const MeshSupply> meshes;
  };
  /// The meshes parsed and checked against the URDF's filenames.
  absl::StatusOr<std::shared_ptr<const MeshSupply>> ParseMeshes(
      const RobotModel& model, const std::vector<MeshFileBytes>& meshes,
      absl::string_view field) const;

  const RegistryOptions options_;
  mutable std::mutex mutex_;
  LruCache<std::string, Entry> cache_;
};

}  // namespace motion::server
