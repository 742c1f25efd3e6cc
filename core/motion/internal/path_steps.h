#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include <Eigen/Core>

#include "absl/status/status.h"
#include "core/dynamics/dynamics_data.h"
#include "core/dynamics/payload.h"
#include "core/ik/ik_data.h"
#include "core/model/chain_model.h"
#include "core/motion/internal/segment_context.h"
#include "core/motion/internal/zone_blending.h"
#include "core/motion/motion_request.h"
#include "core/motion/path_planner.h"
#include "core/motion/trajectory.h"

namespace motion {

/// \brief Where the program is between segments.
struct PathCursor {
  Eigen::VectorXd joints;              ///< where the next segment starts
  double time = 0.0;                   ///< path time of its t = 0
  bool continuous = true;              ///< false after a failed segment: its first sample is new
  std::size_t continuous_from = 0;     ///< first trajectory sample of the current run
  double planning_seconds_left = 0.0;  ///< of PathLimits::max_planning_seconds
  Payload payload;                     ///< carried now (RobotRef, then each segment's)
  DynamicsData* dynamics = nullptr;    ///< null: torque neither limited nor checked
};

/// \brief A diagnostic of the path as a whole (an error makes it not ok).
void AddPathDiagnostic(PathResult& result, Severity severity, DiagnosticCode code,
                       std::string message);

/// \brief Where a failed segment would have ended, so planning can go on
/// from there.
bool TargetJoints(const ChainModel& model, IkData& data, const MotionSegment& segment,
                  const Eigen::VectorXd& start, Eigen::VectorXd& out);

/// \brief The zone at the end of segment `index` (the last report of
/// `result`): blended into `next` (planned, not yet in the result), or,
/// without one, a fine stop that says why. With `collision` (a MoveJ
/// planned around obstacles on either side, which promises a clear motion)
/// the blend is kept only as far as it stays collision-free. New
/// diagnostics go to the report and the path.
void ResolveZone(const ChainModel& model, ChainData& data, const PathRequest& request,
                 std::size_t index, SegmentReport* next, const std::string& why_not,
                 const SegmentCollision* collision, const std::function<bool()>& cancelled,
                 const BlendDynamics* dynamics, PathResult& result);

/// \brief Whether the segment was a MoveJ planned around obstacles.
bool PlannedAround(const SegmentReport& report);

/// \brief What a planner works with from the cursor, for `segment`.
SegmentContext ContextFor(const ChainModel& model, IkData& data, const PathRequest& request,
                          const PathLimits& limits, const std::function<bool()>& cancelled,
                          const MotionSegment& segment, const PathCursor& cursor,
                          PathResult& result);

/// \brief One segment from the cursor: its planner, its report (and the
/// zone before it resolved), and (when every sample was made) the cursor
/// moved to its end. Sets `completed`.
absl::Status PlanSegment(const ChainModel& model, IkData& data, const PathRequest& request,
                         const PathLimits& limits, const std::function<bool()>& cancelled,
                         std::size_t index, PathCursor& cursor, PathResult& result,
                         bool& completed);

}  // namespace motion
