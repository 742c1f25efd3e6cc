#pragma once

#include <cstdint>
#include <optional>
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

/// \brief Where a segment's zone rounded the corner into the next motion
/// (zone_blending.h). The blend belongs to the segment whose zone it is:
/// that segment's samples run to the blend's end, the next one's start there.
struct BlendReport {
  bool blended = false;
  double start_time = 0.0;  ///< s, path time where the TCP leaves this path
  double end_time = 0.0;    ///< s, where it is on the next motion's path again
  std::int64_t start_index = 0;
  std::int64_t end_index = 0;
  double zone_radius = 0.0;      ///< m, the sphere used (DISTANCE; reduced ones included)
  double leave_distance = 0.0;   ///< m, TCP from the corner where the blend starts
  double rejoin_distance = 0.0;  ///< m, TCP from the corner where it ends
  double corner_distance = 0.0;  ///< m, closest approach of the TCP to the programmed corner
  double time_saved = 0.0;       ///< s, against stopping at the corner
  double min_tcp_speed = 0.0;    ///< m/s, slowest TCP speed inside the blend
};

/// \brief How a MoveJ with avoid_collisions went around obstacles.
struct JointPathReport {
  bool planned = false;                    ///< false: the straight motion was clear and kept
  std::vector<Eigen::VectorXd> waypoints;  ///< start ... target, at rest at each
  double length = 0.0;                     ///< joint space, Euclidean
  double straight_length = 0.0;
  double planning_seconds = 0.0;
  std::int64_t nodes = 0;
  std::int64_t collision_checks = 0;
  /// Corners (waypoints other than start and target) the arm passes without
  /// stopping, where that stays collision-free: their legs overlap as a
  /// zone's would, or the path is one curve with its corners rounded
  /// (rounded_legs.h), whichever is faster; the others are stops at rest.
  int rounded_corners = 0;
  double rounding_time_saved = 0.0;  ///< s, against stopping at every corner
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
  BlendReport blend;                          ///< the zone at this segment's end
  std::optional<JointPathReport> joint_path;  ///< MoveJ with avoid_collisions
  std::vector<Diagnostic> diagnostics;
  /// max |tau| / max_torque over the samples and the DOF with a known max_torque
  /// (SampledTorqueRatio, core/dynamics/trajectory_torque.h); 0 when dynamics are unavailable.
  double max_joint_torque_ratio = 0.0;
};

struct PathResult {
  bool ok = true;
  bool collision_checked = false;  ///< a collision model was given and the path was checked
  bool collision_free = false;     ///< checked, and no contact anywhere
  double duration = 0.0;           ///< cycle time, s
  Trajectory trajectory;
  std::vector<SegmentReport> segments;
  std::vector<Diagnostic> diagnostics;  ///< path-level and every segment's, in order
};

}  // namespace motion
