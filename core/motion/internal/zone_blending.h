#pragma once

#include <limits>
#include <vector>

#include "core/dynamics/dynamics_data.h"
#include "core/dynamics/payload.h"
#include "core/kinematics/chain_data.h"
#include "core/model/chain_model.h"
#include "core/motion/motion_request.h"
#include "core/motion/trajectory.h"

namespace motion {

/// \brief Inverse dynamics for a blend's torque check: the request's
/// thread's DynamicsData, gravity and what the robot carries on each side
/// of the corner (the overlap is checked with both).
struct BlendDynamics {
  DynamicsData* data = nullptr;  ///< null: no torque check
  Eigen::Vector3d gravity = kDefaultGravity;
  Payload before, after;
};

/// \brief False for FINE and for the zones that ask for no rounding
/// (DISTANCE 0, CNT 0): those stop at the target and say nothing.
bool AsksForBlend(const ZoneSpec& zone);

/// \brief Rounds the corner between two consecutive motions already sampled
/// into `trajectory`: `before` (whose zone it is) and `after`, which starts
/// where `before` ends (continuous, both sampled to their ends, both at rest
/// at the corner). Samples after `after`'s (the rest of a blended run it
/// starts) move back with it; their reports are the caller's to move.
///
/// How: the two motions overlap in time. `after` starts n samples before
/// `before` ends, and over those samples the joints move by the sum of both
/// motions' displacements: q = q_before(t) + q_after(t - T + n dt) - q_corner.
/// Both motions are at rest at the corner, so positions, velocities and
/// accelerations are continuous, every sample stays on the uniform grid, the
/// arm never stops there (unless the two motions exactly cancel), and the
/// cycle is n dt shorter. Outside the overlap each motion is exactly its own
/// programmed path; inside it the TCP cuts the corner.
///
/// The overlap n comes from the zone, then shrinks (by wanted / 64 samples
/// at a time, by single samples over the last two such steps, so a corner
/// costs O(64 x n) however long the motions) until every joint's position, velocity, acceleration
/// and (jerk-limited profile) jerk, as divided differences of the blended positions, is within its
/// limit, with `dynamics` every joint's torque by inverse dynamics of those positions (as
/// SampledTorqueRatio) within its max_torque, the TCP no faster than `max_tcp_speed` (two
/// Cartesian motions: the faster one's programmed speed; the two motions' velocities add in the
/// overlap, so a blend within it stays inside their decelerating and accelerating ends), and,
/// for DISTANCE, every blended TCP position is
/// inside the zone sphere:
/// - DISTANCE r: the TCP leaves `before`'s path and joins `after`'s within
///   r of the corner (n = the fewer samples of the two inside the sphere).
///   r is first reduced to half the shorter motion's TCP path (ZONE_REDUCED).
/// - CNT p: n = p % of half the shorter motion's samples (joint-space
///   rounding: the corner is cut by as much as p asks, no sphere).
/// - CONTINUOUS: as CNT 100.
/// Neither overlap reaches past the middle of either motion, so the blends at
/// both ends of a motion never meet.
///
/// Fills before.blend, widens before's rate ratios by the blend's audit,
/// shortens `after` by n samples (its indices, times and diagnostics after
/// the corner move back), and adds to before.diagnostics: ZONE_REDUCED
/// (warning) when the overlap is smaller than the zone asks, saying to what
/// and why; ZONE_APPROXIMATED (warning) when no overlap keeps within the
/// limits, and the corner stays a fine stop. `tool` is before's TCP.
void BlendCorner(const ChainModel& model, ChainData& data, const std::vector<JointLimits>& limits,
                 ProfileKind profile, double sample_time, const ZoneSpec& zone, const Pose& tool,
                 Trajectory& trajectory, SegmentReport& before, SegmentReport& after,
                 const BlendDynamics* dynamics = nullptr,
                 double max_tcp_speed = std::numeric_limits<double>::infinity());

}  // namespace motion
