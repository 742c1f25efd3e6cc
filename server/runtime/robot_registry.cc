#include "server/runtime/robot_registry.h"

#include "absl/status/status.h"
#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"
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

absl::StatusOr<RegisteredRobot> RobotRegistry::Register(absl::string_view urdf) {
  std::string robot_id = RobotIdForUrdf(urdf);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = index_.find(robot_id); it != index_.end()) {
      lru_.splice(lru_.begin(), lru_, it->second);
      ++stats_.hits;
      return RegisteredRobot{robot_id, it->second->model, true};
    }
    ++stats_.misses;
  }
  // Parse outside the lock: a large URDF must not stall every other request.
  absl::StatusOr<std::shared_ptr<const RobotModel>> model =
      RobotModel::FromUrdf(urdf, options_.model_limits);
  if (!model.ok()) return model.status();

  std::lock_guard<std::mutex> lock(mutex_);
  if (auto it = index_.find(robot_id); it != index_.end()) {  // lost a race: keep the first
    return RegisteredRobot{robot_id, it->second->model, true};
  }
  lru_.push_front({robot_id, *model});
  index_.emplace(robot_id, lru_.begin());
  stats_.robots = lru_.size();
  stats_.bytes += (*model)->memory_bytes();
  EvictLocked();
  return RegisteredRobot{std::move(robot_id), *std::move(model), false};
}

void RobotRegistry::EvictLocked() {
  // Never evict the entry just inserted (front), even if it alone is over.
  while (lru_.size() > 1 &&
         (lru_.size() > options_.max_robots || stats_.bytes > options_.max_bytes)) {
    const Entry& victim = lru_.back();
    stats_.bytes -= victim.model->memory_bytes();
    index_.erase(victim.robot_id);
    lru_.pop_back();
    ++stats_.evictions;
  }
  stats_.robots = lru_.size();
}

absl::StatusOr<std::shared_ptr<const RobotModel>> RobotRegistry::Find(absl::string_view robot_id,
                                                                      absl::string_view field) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = index_.find(robot_id);
  if (it == index_.end()) {
    ++stats_.misses;
    return NotRegistered(robot_id, field);
  }
  ++stats_.hits;
  lru_.splice(lru_.begin(), lru_, it->second);
  return it->second->model;
}

absl::StatusOr<RegisteredRobot> RobotRegistry::Resolve(absl::string_view robot_id,
                                                       absl::string_view urdf,
                                                       absl::string_view field) {
  if (!urdf.empty()) {
    if (!robot_id.empty() && robot_id != RobotIdForUrdf(urdf)) {
      return absl::InvalidArgumentError(
          absl::StrCat(FieldPath(field, "robot_id"), ": '", robot_id, "' is not the SHA-256 of ",
                       FieldPath(field, "urdf"), " (expected ", RobotIdForUrdf(urdf), ")"));
    }
    absl::StatusOr<RegisteredRobot> registered = Register(urdf);
    if (!registered.ok()) {
      // Model errors start with "urdf: "; place them under this RobotRef.
      return absl::Status(registered.status().code(),
                          FieldPath(field, registered.status().message()));
    }
    return registered;
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
  absl::StatusOr<std::shared_ptr<const RobotModel>> model = Find(robot_id, field);
  if (!model.ok()) return model.status();
  return RegisteredRobot{std::string(robot_id), *std::move(model), true};
}

std::vector<RegisteredRobot> RobotRegistry::List() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<RegisteredRobot> out;
  for (const auto& [id, it] : index_) out.push_back({id, it->model, true});
  return out;
}

RegistryStats RobotRegistry::Stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

}  // namespace motion::server
