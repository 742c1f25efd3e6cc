#pragma once

#include <functional>
#include <vector>

#include <Eigen/Core>

#include "core/collision/allowed_collisions.h"
#include "core/collision/collision_scene.h"
#include "core/collision/robot_collision_model.h"
#include "core/dynamics/dynamics_data.h"
#include "core/dynamics/payload.h"
#include "core/ik/ik_data.h"
#include "core/model/chain_model.h"
#include "core/motion/motion_request.h"
#include "core/motion/trajectory.h"

namespace motion {

/// \brief What a segment planner (MoveJ / MoveL / MoveC) works with: the
/// chain and this thread's IkData for it, where the previous segment ended, the
/// sampling parameters, the point budget and the output trajectory.
///
/// A segment's first sample is the previous segment's last (same time and
/// joints), so it is appended only when the trajectory is still empty; every
/// planner samples from its own t = 0 and calls Append, which skips it.
/// \brief The request's collision checking, for planners that search
/// around obstacles (MoveJ with avoid_collisions). Null robot: none.
struct SegmentCollision {
  const RobotCollisionModel* robot = nullptr;
  const CollisionScene* scene = nullptr;  ///< never null when robot is set
  bool self_collision = false;
  double safety_margin = 0.0;
  const AllowedCollisions* allowed = nullptr;
};

struct SegmentContext {
  const ChainModel& model;
  IkData& data;
  const std::vector<JointLimits>& limits;  ///< per DOF, overrides applied
  ProfileKind profile = ProfileKind::kJerkLimited;
  Eigen::VectorXd start;  ///< joints at the segment's start
  Pose start_tcp;         ///< FK(start) * tool, in the base frame
  double sample_time = MotionDefaults::kSampleTime;
  double speed_override = 1.0;
  double start_time = 0.0;          ///< path time of the segment's t = 0
  long max_points = 0;              ///< trajectory size the path may reach
  std::function<bool()> cancelled;  ///< polled between samples; may be empty
  Trajectory& out;
  /// False after a failed segment: the next one starts elsewhere, so its
  /// first sample is not a duplicate and is stored.
  bool continuous = true;
  /// Set by SampleSegment when every sample of the segment was produced.
  bool completed = false;
  SegmentCollision collision;
  /// s of collision-free search this request has left (its
  /// PathLimits::max_planning_seconds less what earlier segments spent).
  double planning_seconds_left = 0.0;
  /// Inverse dynamics of this request's thread, or null when the chain lacks
  /// the data (DYNAMICS_UNAVAILABLE): then torque is neither a limit of the
  /// timing nor checked.
  DynamicsData* dynamics = nullptr;
  Payload payload;  ///< what the robot carries during this segment
  Eigen::Vector3d gravity = kDefaultGravity;
  /// First sample of `out` that this segment's motion continues without a
  /// jump (a failed segment's successor starts a new run elsewhere): the
  /// audit of the junction reads no sample before it.
  std::size_t continuous_from = 0;

  /// \brief True when sample k (local, t = k-th time) is stored.
  bool Stores(std::size_t k) const { return k > 0 || out.size() == 0 || !continuous; }

  /// \brief Samples a segment of `duration` would add, to refuse a
  /// request over the budget before sampling it.
  long PointsFor(double duration) const;

  bool Cancelled() const { return cancelled && cancelled(); }
};

}  // namespace motion
