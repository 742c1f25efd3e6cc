#pragma once

#include <functional>
#include <vector>

#include "core/motion/internal/joint_curve.h"
#include "core/motion/internal/segment_context.h"
#include "core/motion/motion_request.h"
#include "core/profile/path_profile.h"
#include "core/profile/path_timing.h"

namespace motion {

/// \brief The first three derivatives in s of the TCP's distance along a
/// path and of the angle the tool has turned, at one s.
struct TcpRates {
  double linear[3] = {0.0, 0.0, 0.0};
  double angular[3] = {0.0, 0.0, 0.0};
};

/// \brief How far a Cartesian path goes: the TCP's path length (m) and how
/// far the tool turns along it (rad), for its speed limits.
struct CartesianExtent {
  double length = 0.0;
  double rotation = 0.0;
  /// A path whose TCP does not move uniformly in s (a blended run,
  /// blended_run_path.h) gives its rates per s here; the TCP's limits then
  /// hold with them at every node, and the programmed timing (uniform in s
  /// over `length` and `rotation`) is only the reference SPEED_REDUCED
  /// compares with. Empty: uniform (d/ds = length, rotation).
  std::function<TcpRates(double s)> rates;
};

/// \brief Along a path with extent.rates (a blended run) the TCP of the
/// joint curve leaves the programmed path by up to its tolerance, and in a
/// tight blend its speed by up to ~0.1 % more than the path's: the run's
/// TCP speed limit is kept this far inside, in its timing and in its
/// programmed reference (BlendedRunPath::Extent).
inline constexpr double kRunTcpVelocityMargin = 0.998;

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
/// `previous` (a problem of the same curve and context on a grid this one
/// refines) lends its rows to the nodes they share.
PathTimingProblem CurveTimingProblem(const JointCurve& curve, const SegmentContext& context,
                                     const SpeedSpec& speed, const CartesianExtent& extent,
                                     const std::vector<double>& grid, bool tcp_only,
                                     const PathTimingProblem* previous = nullptr);

/// \brief A timing along a curve and the grid it was solved on.
struct CurveTiming {
  PathTimingSolution solution;
  std::vector<double> grid;
  PathTimingProblem problem;  ///< as solved (caps included)
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

/// \brief The fastest timing along `curve` between s = `from` and `to`
/// only, at sd^2 = start_x and end_x there (0: at rest; positive: held over
/// the end's interval, PathTimingProblem), on a grid of about one node per
/// `node_spacing` and every knot inside, refined as SolveCurveTiming's.
/// solution.ends_held says whether those end speeds could be kept.
CurveTiming SolveCurveTimingBetween(const JointCurve& curve, const SegmentContext& context,
                                    const SpeedSpec& speed, const CartesianExtent& extent,
                                    double from, double to, double start_x, double end_x,
                                    double node_spacing);

/// \brief What a stop at each of `stops` (values of s, increasing, inside
/// (0, 1)) would cost (own time, before speed_override): `problem` solved
/// with sd = 0 at the node nearest each stop and under `solved` (sd^2 per
/// node of the timing to compare with; empty: `problem` solved here), and
/// the difference of the two timings' times between the midpoints of
/// consecutive stops (the first from s = 0, the last to s = 1) given to the
/// stop between them. Their sum is what all the stops cost together.
std::vector<double> StopCosts(PathTimingProblem problem, std::vector<double> solved,
                              const std::vector<double>& stops);

/// \brief True when `played` (a timing of sigma along a path with
/// extent.rates, on the grid of `dt`) keeps the TCP within the segment's
/// linear and angular velocity, acceleration and jerk at every sample, as
/// the rates give them (velocity r1 sd, acceleration r1 sdd + r2 sd^2, jerk
/// r1 sddd + 3 r2 sd sdd + r3 sd^3).
/// `broken`, when given, collects the s of every sample that does not.
bool KeepsTcpLimits(const PathProfile& played, const CartesianExtent& extent,
                    const SpeedSpec& speed, double dt, bool with_jerk,
                    std::vector<double>* broken = nullptr);

/// \brief Why a timing along `curve` stalls at `s` (no speed there keeps
/// every constraint, so sd^2 = 0 where the arm must move), as an error:
/// TORQUE_LIMIT when, with context.dynamics, a joint's torque just to hold
/// the arm still there (gravity, the payload) is beyond its max_torque
/// (joint_name, value: that torque, limit: max_torque); ACCEL_LIMIT
/// otherwise. Index, time and segment are the caller's to fill.
Diagnostic TimingStall(const JointCurve& curve, const SegmentContext& context, double s);

}  // namespace motion
