#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "core/diagnostics/diagnostic.h"
#include "core/geometry/pose.h"

namespace motion {

/// \brief Sampled joint trajectory, structure of arrays, row-major n x dof.
struct Trajectory {
  int dof = 0;
  std::vector<double> time;           ///< s from path start, strictly increasing
  std::vector<double> positions;      ///< rad / m
  std::vector<double> velocities;     ///< rad/s / m/s
  std::vector<double> accelerations;  ///< rad/s^2 / m/s^2
  std::vector<Pose> tcp;              ///< TCP in the base frame at each sample

  std::size_t size() const { return time.size(); }
  Eigen::Map<const Eigen::VectorXd> Position(std::size_t i) const {
    return Eigen::Map<const Eigen::VectorXd>(positions.data() + i * dof, dof);
  }
};

/// \brief Circle of a MoveC (base frame).
struct ArcGeometry {
  Eigen::Vector3d center = Eigen::Vector3d::Zero();
  Eigen::Vector3d normal = Eigen::Vector3d::Zero();  ///< sweep is counter-clockwise about it
  double radius = 0.0;
  double angle = 0.0;  ///< rad swept from start to target through via
};

struct SegmentReport {
  std::string segment_id;
  int segment_index = 0;
  std::string motion;            ///< "movej", "movel" or "movec"
  double compute_seconds = 0.0;  ///< wall time spent planning this segment
  bool ok = true;
  double start_time = 0.0;
  double duration = 0.0;
  std::int64_t first_index = 0;
  std::int64_t point_count = 0;
  double max_joint_velocity_ratio = 0.0;      ///< max |qd| / limit over samples and joints
  double max_joint_acceleration_ratio = 0.0;  ///< max |qdd| / limit
  double max_joint_jerk_ratio = 0.0;          ///< max |qddd| / limit, third divided differences
  double max_cartesian_error = 0.0;           ///< m, |FK(q) - commanded TCP| (MoveL/MoveC)
  double path_length = 0.0;                   ///< m (MoveL/MoveC) or joint-space norm (MoveJ)
  bool has_arc = false;
  ArcGeometry arc;
  std::vector<Diagnostic> diagnostics;
};

struct PathResult {
  bool ok = true;
  double duration = 0.0;  ///< cycle time, s
  Trajectory trajectory;
  std::vector<SegmentReport> segments;
  std::vector<Diagnostic> diagnostics;  ///< path-level and every segment's, in order
};

}  // namespace motion
