#pragma once

#include <cstddef>
#include <vector>

#include "absl/status/statusor.h"
#include "core/cell/cell_program.h"
#include "core/geometry/pose.h"
#include "motion/v1/motion_planner.pb.h"

// Proto <-> core for ValidateCell.
namespace motion::server {

/// \brief Bounds of one ValidateCell request.
struct CellLimits {
  static constexpr int kMaxRobots = 16;
  /// s: later starts are refused (a day; the start time search's horizon
  /// grows with it).
  static constexpr double kMaxStartTime = 86400.0;
  /// Instants a report_clearance answer may hold (16 bytes each).
  static constexpr std::size_t kMaxClearanceInstants = 100000;
};

/// \brief What a ValidateCell request says beyond its programs, checked:
/// per robot its program as a PlanPathRequest (its robot and sample time
/// the cell's) and its base pose, and the cell's options.
struct CellRequest {
  std::vector<v1::PlanPathRequest> programs;
  std::vector<Pose> base_poses;
  CellOptions options;
};

/// \brief InvalidArgument naming the field ("robots[3].start_time: ...")
/// for no robots or more than CellLimits::kMaxRobots, an empty or duplicate
/// name, a robot without a program (or segments) or a robot reference, a
/// start time that is not finite, negative or beyond kMaxStartTime, a base
/// pose with a zero or non-finite quaternion, a program sample time other
/// than the cell's, a sample time below 1e-4 s or not finite, a negative or
/// non-finite margin.
absl::StatusOr<CellRequest> CellRequestFromProto(const v1::ValidateCellRequest& request);

void CellVerdictToProto(const CellVerdict& verdict, v1::ValidateCellResponse* out);

}  // namespace motion::server
