#pragma once

#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "absl/status/status.h"
#include "core/collision/collision_checker.h"
#include "core/motion/internal/segment_context.h"
#include "core/motion/motion_request.h"

namespace motion {

/// \brief MoveJ with avoid_collisions, once its target joints q1 are known
/// (within limits): the straight joint motion when it is clear by the
/// request's collision checking (the same conservative check the finished
/// trajectory gets), else a collision-free joint path from PlanJointPath
/// (RRT-Connect and shortcutting, segment.planner_seed,
/// segment.planning_timeout, the call's cancellation), each of its legs a
/// straight synchronised MoveJ. The corners between legs are rounded two
/// ways, and the faster motion is kept: the legs overlapped in time
/// (RoundPlannedCorner, as far as the blended motion stays collision-free,
/// else a stop at rest), or the path as one curve with rounded corners
/// (PlanRoundedLegs, each rounding as large as stays collision-free, else a
/// stop); so every sample and the motion between samples is on a checked
/// leg or in a checked rounding. The MoveJ starts and
/// ends at rest. report.joint_path says which, with the corners (how many
/// rounded), lengths, planning time and search effort. No
/// path: a PLANNING_FAILED error saying why (start or target in collision,
/// with the pair; the budget spent), report.ok false, no samples.
///
/// \return Cancelled when the call was; planning errors as PlanMoveJ's.
absl::Status PlanMoveJAroundObstacles(const MotionSegment& segment, SegmentContext& context,
                                      const Eigen::VectorXd& q1, SegmentReport& report,
                                      Eigen::VectorXd& end_joints);

/// \brief A PLANNING_FAILED error on `report` with `message`, carrying
/// `contact` (the pair that blocks) when there is one.
void AddPlanningFailed(SegmentReport& report, std::string message,
                       const Contact* contact = nullptr);

}  // namespace motion
