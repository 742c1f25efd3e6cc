#pragma once

#include <vector>

#include "core/motion/internal/joint_curve.h"
#include "core/motion/internal/segment_context.h"
#include "core/motion/motion_request.h"
#include "core/profile/path_timing.h"

namespace motion {

/// \brief How far a Cartesian path goes: the TCP's path length (m) and how
/// far the tool turns along it (rad), for its speed limits.
struct CartesianExtent {
  double length = 0.0;
  double rotation = 0.0;
};

/// \brief The smallest timing grid (nodes) a curve is timed on.
inline constexpr int kMinTimingNodes = 64;

/// \brief `nodes` values of s spread evenly over [0, 1].
std::vector<double> UniformGrid(int nodes);

/// \brief The timing problem along `curve` on `grid`: every joint's
/// velocity, acceleration, jerk (jerk-limited profile) and, with
/// context.dynamics, torque limit, a little inside the real ones (the
/// timing is exact at its nodes, the samples see between them), then the
/// TCP's distance and rotation under the segment's limits (their
/// derivatives in s are the extent: lines, arcs and slerps move uniformly
/// in s). `tcp_only` keeps only the TCP: the programmed timing.
PathTimingProblem CurveTimingProblem(const JointCurve& curve, const SegmentContext& context,
                                     const SpeedSpec& speed, const CartesianExtent& extent,
                                     const std::vector<double>& grid, bool tcp_only);

/// \brief A timing along a curve and the grid it was solved on.
struct CurveTiming {
  PathTimingSolution solution;
  std::vector<double> grid;
};

/// \brief The fastest timing along `curve` (SolvePathTiming), first on a
/// grid of about one node per sample of `programmed_duration` plus every
/// knot of the curve and the middle of every piece, then refined until no
/// interval between nodes lasts more than a quarter of a sample of the
/// result (speed_override included), a few times at most: the samples'
/// divided differences then average the steps of sdd at the nodes, which
/// the sweeps bound. With `caps` (sd^2 per node of `grid`, from an earlier
/// pass that found samples beyond a limit) it is solved once more on that
/// grid under them.
CurveTiming SolveCurveTiming(const JointCurve& curve, const SegmentContext& context,
                             const SpeedSpec& speed, const CartesianExtent& extent,
                             double programmed_duration, const std::vector<double>& caps,
                             const std::vector<double>& grid);

/// \brief Why a timing along `curve` stalls at `s` (no speed there keeps
/// every constraint, so sd^2 = 0 where the arm must move), as an error:
/// TORQUE_LIMIT when, with context.dynamics, a joint's torque just to hold
/// the arm still there (gravity, the payload) is beyond its max_torque
/// (joint_name, value: that torque, limit: max_torque); ACCEL_LIMIT
/// otherwise. Index, time and segment are the caller's to fill.
Diagnostic TimingStall(const JointCurve& curve, const SegmentContext& context, double s);

}  // namespace motion
