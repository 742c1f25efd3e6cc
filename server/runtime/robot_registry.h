#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/model/model_limits.h"
#include "core/model/robot_model.h"

namespace motion::server {

/// \brief Bounds of the registry cache. A robot is evicted (least recently
/// used first) when either bound is exceeded; requests already holding its
/// model keep it alive through their shared_ptr.
struct RegistryOptions {
  std::size_t max_robots = 256;
  std::size_t max_bytes = 256u << 20;  ///< by RobotModel::memory_bytes()
  ModelLimits model_limits;
};

struct RegisteredRobot {
  std::string robot_id;
  std::shared_ptr<const RobotModel> model;
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
/// robot_id = "sha256:" + hex SHA-256 of the URDF bytes, so registering is
/// idempotent and any replica derives the same id from the same URDF. Thread
/// safe; parsing happens outside the lock.
class RobotRegistry {
 public:
  /// absl::Status payload key carrying a serialized google.rpc.ErrorInfo
  /// (its Any type URL, so ToGrpcStatus can pack it as is).
  static constexpr absl::string_view kErrorInfoPayload = "type.googleapis.com/google.rpc.ErrorInfo";

  explicit RobotRegistry(RegistryOptions options) : options_(std::move(options)) {}

  /// \brief Parses and stores `urdf` (InvalidArgument naming the problem if
  /// it does not load); returns the cached model when already present.
  absl::StatusOr<RegisteredRobot> Register(absl::string_view urdf);

  /// \brief NotFound with an ErrorInfo{ROBOT_NOT_REGISTERED} payload when
  /// the id is unknown (never registered, or evicted).
  absl::StatusOr<std::shared_ptr<const RobotModel>> Find(absl::string_view robot_id,
                                                         absl::string_view field = "robot");

  /// \brief Resolves a RobotRef: URDF inline (registered on the fly; must
  /// match robot_id when both are given), else robot_id. `field` is the path
  /// of the RobotRef in the request ("robot"; "" when its fields are
  /// top-level), prefixed to the field names in error messages.
  absl::StatusOr<RegisteredRobot> Resolve(absl::string_view robot_id, absl::string_view urdf,
                                          absl::string_view field);

  std::vector<RegisteredRobot> List() const;
  RegistryStats Stats() const;

 private:
  struct Entry {
    std::string robot_id;
    std::shared_ptr<const RobotModel> model;
  };
  void EvictLocked();

  RegistryOptions options_;
  mutable std::mutex mutex_;
  std::list<Entry> lru_;  ///< most recently used first
  std::map<std::string, std::list<Entry>::iterator, std::less<>> index_;
  RegistryStats stats_;
};

}  // namespace motion::server
