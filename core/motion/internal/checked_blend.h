#pragma once

#include <functional>
#include <limits>
#include <vector>

#include "core/collision/collision_checker.h"
#include "core/collision/trajectory_collisions.h"
#include "core/kinematics/chain_data.h"
#include "core/model/chain_model.h"
#include "core/motion/internal/segment_context.h"
#include "core/motion/internal/zone_blending.h"
#include "core/motion/motion_request.h"
#include "core/motion/trajectory.h"

namespace motion {

/// \brief What a collision-checked blend did.
struct CheckedBlend {
  bool blended = false;
  double time_saved = 0.0;  ///< s, against stopping at the corner
  /// A blend was tried and undone because it touched something: the first
  /// contact of the last one undone.
  bool collided = false;
  Contact contact;
};

/// \brief What every blend of one path shares: the chain, this thread's
/// ChainData for it, the limits and profile the motions were timed with,
/// the sample time, the request's collision checking and cancellation.
struct BlendSetting {
  const ChainModel& model;
  ChainData& data;
  const std::vector<JointLimits>& limits;
  ProfileKind profile;
  double sample_time;
  const SegmentCollision& collision;
  std::function<bool()> cancelled;
  const BlendDynamics* dynamics = nullptr;  ///< null: no torque check
  /// m/s, the blend's TCP at most (BlendCorner); infinite: unbounded.
  double max_tcp_speed = std::numeric_limits<double>::infinity();
};

/// \brief The contacts of samples (`times`, `positions` row-major) and of
/// the motion between them (FindTrajectoryCollisions) by `collision`'s
/// settings: scene, margin, self-collision, allowed pairs (robot set).
std::vector<TrajectoryContact> SampledContacts(const ChainModel& model, ChainData& data,
                                               const SegmentCollision& collision,
                                               const std::function<bool()>& cancelled,
                                               const std::vector<double>& times,
                                               const std::vector<double>& positions);

/// \brief The zones' blend (BlendCorner: `before` and `after` overlap in
/// time, every limit audited; the same preconditions) kept only as far as
/// the blended motion is collision-free: for motions next to a MoveJ
/// planned around obstacles, which promise to be clear.
///
/// Why a check: each motion on its own was found clear, but a blend leaves
/// both paths for what their superposition sweeps near the corner. So the
/// blended samples and the motion between them, from the last unchanged
/// sample before the blend to the first after it, are checked by
/// FindTrajectoryCollisions with the setting's collision checking (scene, margin,
/// self-collision, allowed pairs). A blend that touches anything is undone
/// (trajectory and both reports as they were) and a smaller one tried: the
/// zone's overlap, then half and a quarter of it (DISTANCE: half and a
/// quarter of the radius). When none is clear the corner stays a stop at
/// rest. Diagnostics and before.blend are BlendCorner's for the blend kept.
CheckedBlend BlendCornerCollisionFree(const BlendSetting& setting, const ZoneSpec& zone,
                                      const Pose& tool, Trajectory& trajectory,
                                      SegmentReport& before, SegmentReport& after);

/// \brief Rounds the corner between two legs of a MoveJ planned around
/// obstacles (straight joint motions, at rest at the corner, `after` ending
/// at the trajectory's last sample) by BlendCornerCollisionFree with the
/// largest overlap the limits allow (CONTINUOUS). The blend's rates stay in
/// `before`'s ratios; its zone diagnostics and BlendReport are the language
/// of the program's zones and are not kept: these corners are the
/// planner's.
CheckedBlend RoundPlannedCorner(SegmentContext& context, const Pose& tool, SegmentReport& before,
                                SegmentReport& after);

}  // namespace motion
