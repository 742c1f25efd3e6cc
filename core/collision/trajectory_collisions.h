#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/collision/collision_checker.h"

namespace motion {

/// \brief A pair in contact over a contiguous stretch of a trajectory.
struct TrajectoryContact {
  std::string link, other;
  std::size_t first_sample = 0;       ///< first sample in contact, or before which it starts
  std::size_t last_sample = 0;        ///< last sample in contact, or after which it ends
  double start_time = 0.0;            ///< s, earliest time found in contact
  double end_time = 0.0;              ///< s, latest
  double max_depth = 0.0;             ///< m, deepest penetration seen
  bool between_samples_only = false;  ///< no sample is in contact: it happens between two
};

struct TrajectoryCollisionOptions {
  bool self_collision = true;
  /// m, >= 0: a pair closer than this is a contact of depth margin - distance.
  double safety_margin = 0.0;
  /// Pairs never tested; null: none (built for the same robot and scene).
  const AllowedCollisions* allowed = nullptr;
  /// Below this bound on how far any point of the robot moves (m), an
  /// interval whose ends are clear is taken as clear.
  double resolution = 1e-4;
  CollisionEngine engine = CollisionEngine::kFast;
};

/// \brief Checks every sample of a trajectory (`times`, and `positions`
/// row-major, chain.dof() per sample) and the motion between
/// consecutive samples (joints interpolated linearly) against `scene` and
/// the robot itself.
///
/// Between samples: conservative advancement. Every point of a link moves at
/// most M = sum over the joints before it of |dtheta_j| x (its distance to
/// joint j's origin), so an interval whose clearances c_a, c_b at its ends
/// satisfy c_a + c_b > M (self pairs: 2 M) cannot touch anything; otherwise
/// it is halved and its middle checked, down to `resolution`. Nothing
/// thicker than the resolution slips between two samples, whatever the
/// sample time. Clearances use exact distances only for pairs whose
/// bounding boxes are closer than the bound.
///
/// Contacts are merged per pair over contiguous samples. `cancelled` is
/// polled every 64 samples (may be empty); returns early when it fires.
std::vector<TrajectoryContact> FindTrajectoryCollisions(
    const ChainModel& chain, ChainData& data, const RobotCollisionModel& robot,
    const CollisionScene& scene, const std::vector<double>& times,
    const std::vector<double>& positions, const TrajectoryCollisionOptions& options,
    const std::function<bool()>& cancelled = {});

}  // namespace motion
