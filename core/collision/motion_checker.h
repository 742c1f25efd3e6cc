#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <Eigen/Core>

#include "core/collision/collision_checker.h"
#include "core/collision/trajectory_collisions.h"

namespace motion {

/// \brief Straight joint motions checked against a scene and the robot
/// itself by the argument FindTrajectoryCollisions uses between two samples
/// (conservative advancement, see trajectory_collisions.h), with the same
/// code: a motion this says is clear is one FindTrajectoryCollisions finds
/// clear as the two samples {qa, qb}, whatever the times.
///
/// Holds references to everything it is built from (they must outlive it)
/// and writes FK into `data`; one per thread. The probes of the last two
/// joint vectors are kept, so a chain of motions q0 -> q1 -> q2 probes each
/// vector once.
class MotionChecker {
 public:
  MotionChecker(const ChainModel& chain, ChainData& data, const RobotCollisionModel& robot,
                const CollisionScene& scene, const TrajectoryCollisionOptions& options);
  ~MotionChecker();
  MotionChecker(const MotionChecker&) = delete;
  MotionChecker& operator=(const MotionChecker&) = delete;

  /// \brief Every pair in contact at `q` (chain.dof() values); empty: clear.
  std::vector<Contact> ContactsAt(const Eigen::VectorXd& q);

  /// \brief Whether `q` is clear (no pair in contact, margin included).
  bool ConfigurationIsClear(const Eigen::VectorXd& q);

  /// \brief Whether qa, qb and every joint vector on the straight joint
  /// motion between them are clear (down to options.resolution). Stops at
  /// the first contact found.
  bool MotionIsClear(const Eigen::VectorXd& qa, const Eigen::VectorXd& qb);

  /// Joint vectors probed (ends and halvings; a kept probe is not counted
  /// again) and motions checked, since construction.
  std::int64_t configurations_probed() const { return probes_; }
  std::int64_t motions_checked() const { return motions_; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::int64_t probes_ = 0;
  std::int64_t motions_ = 0;
};

/// \brief One motion, with a checker of its own (MotionChecker for many).
bool MotionIsClear(const ChainModel& chain, ChainData& data, const RobotCollisionModel& robot,
                   const CollisionScene& scene, const Eigen::VectorXd& qa,
                   const Eigen::VectorXd& qb, const TrajectoryCollisionOptions& options);

}  // namespace motion
