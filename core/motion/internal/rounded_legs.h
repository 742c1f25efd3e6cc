#pragma once

#include <vector>

#include <Eigen/Core>

#include "absl/status/status.h"
#include "core/motion/internal/segment_context.h"
#include "core/motion/motion_request.h"

namespace motion {

/// \brief How PlanRoundedLegs went.
struct RoundedLegs {
  bool planned = false;  ///< false: nothing was appended, the caller plans the legs
  int rounded_corners = 0;
};

/// \brief A MoveJ's joint path through `waypoints` (start ... target, legs
/// checked collision-free) with its corners rounded on one smooth joint
/// curve (RoundCorners), timed by the fastest timing along it
/// (SampleFastestTiming) within every joint's velocity, acceleration and
/// jerk limit times f = joint_fraction x speed_override (as a straight
/// MoveJ scales them) and its torque limit, and sampled: the arm passes the
/// corners without stopping, also where a joint turns back there (which
/// overlapping the legs in time cannot do: their accelerations add).
///
/// Each rounding starts as large as a leg allows (kMaxRoundingShare). The
/// samples and the motion between them are checked by FindTrajectoryCollisions
/// with the request's collision checking; where they touch something, the
/// rounding of the corner nearest to the contact is halved, at most four
/// times, after which that corner becomes a stop at rest and the path is
/// timed in sections between stops. A section whose timing cannot keep its
/// samples within their limits, or that touches something with no corner
/// left to shrink, leaves `planned` false and the trajectory as it was; so
/// do fewer than three waypoints and a leg of no length.
///
/// On success the samples are appended (context.out) and `report` holds
/// the sections' start, duration, indices, rate and torque ratios and
/// diagnostics, as one MoveJ.
absl::Status PlanRoundedLegs(const MotionSegment& segment, SegmentContext& context,
                             const std::vector<Eigen::VectorXd>& waypoints, SegmentReport& report,
                             Eigen::VectorXd& end_joints, RoundedLegs& outcome);

/// \brief The sections' (or legs') reports folded into the segment's:
/// the first one's start, the sums of durations and points, the worst
/// ratios, every diagnostic.
void MergeSectionReports(const std::vector<SegmentReport>& parts, SegmentReport& report);

}  // namespace motion
