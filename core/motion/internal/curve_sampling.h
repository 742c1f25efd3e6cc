#pragma once

#include <vector>

#include "absl/status/status.h"
#include "core/motion/internal/curve_timing.h"
#include "core/motion/internal/joint_curve.h"
#include "core/motion/internal/segment_context.h"
#include "core/motion/internal/segment_sampling.h"
#include "core/motion/internal/windowed_timing.h"
#include "core/motion/motion_request.h"
#include "core/profile/path_timing.h"

namespace motion {

/// \brief The samples of one timing along a joint curve: path parameter,
/// joints and their rates (row-major, samples x dof).
struct CurveSamples {
  std::vector<double> times, sigma, sd;
  std::vector<double> q, qd, qdd;
};

/// \brief Samples `curve` through `timing` (already stretched to end on the
/// grid) at every sample time; the first sample is context.start exactly,
/// the last the curve's end. Cancelled when context.cancelled fires.
absl::Status SampleCurve(const JointCurve& curve, const TimeLaw& timing, long samples,
                         const SegmentContext& context, CurveSamples& out);

/// \brief The TCP (FK x tool, base frame) of every sample.
std::vector<Pose> SampleTcps(const SegmentContext& context, const CurveSamples& sampled,
                             const Eigen::Isometry3d& tool);

/// \brief The samples a timing of `on_grid` seconds (a whole number of
/// samples) takes, both ends included. INVALID_ARGUMENT naming `report`'s
/// segment when they would not fit in the path's point budget beside what
/// is planned already, or when the duration is not finite (a timing that
/// crawls to a stop it never leaves): compared as doubles, before any
/// conversion to an integer could overflow.
absl::Status GridSamples(const SegmentContext& context, const SegmentReport& report, double on_grid,
                         long& samples_out);

/// \brief Audits `sampled` (divided differences with the trajectory's
/// samples before them, AuditSegmentRates, and the rates stated) and, with
/// context.dynamics, its torques into `checks`; true when every one is
/// within its limit (jerk for a jerk-limited profile).
bool CheckCurveSamples(const SegmentContext& context, const CurveSamples& sampled,
                       SampledChecks& checks);

/// \brief The fastest timing along a curve, sampled.
struct FastestSampling {
  CurveSamples sampled;
  SampledChecks checks;
  long samples = 1;
  double on_grid = 0.0;  ///< s, the sampled duration
  bool within = false;   ///< every sample within every limit
  CurveTiming timings;   ///< the last timing solved
  /// >= 0: the path parameter where no speed keeps the joints within their
  /// limits (TimingStall says why); nothing was sampled.
  double stall = -1.0;
};

/// \brief The fastest timing along `curve` (SolveCurveTiming: every joint
/// limit of `context`, torque with context.dynamics, the TCP's limits from
/// `speed` and `extent`), played context.speed_override slower in time,
/// stretched to end on the sample grid and sampled. Where the samples'
/// audit finds a rate beyond its limit (the timing is exact at its nodes,
/// the samples see between them) the speed is capped there and the timing
/// solved again, a few times; as a last resort (not seen on x86-64 over
/// 1 000 random programs) the whole timing is played uniformly slower by
/// what the audit asks. `duration_hint` (s, own time) sizes the first grid.
absl::Status SampleFastestTiming(const JointCurve& curve, const SegmentContext& context,
                                 const SpeedSpec& speed, const CartesianExtent& extent,
                                 double duration_hint, const SegmentReport& report,
                                 FastestSampling& out);

}  // namespace motion
