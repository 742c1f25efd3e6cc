#pragma once

#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "core/motion/internal/curve_timing.h"
#include "core/profile/path_profile.h"
#include "core/profile/path_timing.h"

namespace motion {

/// \brief Where a timing puts the path at time t: s, sd, sdd.
using TimeLaw = std::function<PathTiming::State(double t)>;

/// \brief A timing that is the programmed one except in a few windows.
struct WindowedTiming {
  TimeLaw law;                                     ///< own time (before speed_override)
  double duration = 0.0;                           ///< own
  std::vector<std::pair<double, double>> windows;  ///< [s_from, s_to] timed by the fastest timing
};

/// \brief The programmed timing `exact` (the TCP's own profile of s, own
/// time, which must cruise) kept everywhere except in windows around
/// `trouble` (values of s where its samples broke a limit), where the
/// fastest timing along `curve` (SolveCurveTimingBetween: every joint and
/// TCP limit) takes over, from the cruise speed and back to it, or from or
/// to rest where a window reaches the programmed ramps. A slow-down then
/// stays where a limit binds, and the rest runs as programmed, exactly.
///
/// Each window starts as wide as the programmed ramp on each side of its
/// trouble; where its timing cannot hold the cruise at its ends (the joints
/// need longer to slow down), every window grows, a few times. Empty when
/// that is not enough, when a window would cover the whole path, or when
/// the programmed timing never cruises: the caller times the whole path.
std::optional<WindowedTiming> TimeInWindows(const JointCurve& curve, const SegmentContext& context,
                                            const SpeedSpec& speed, const CartesianExtent& extent,
                                            const PathProfile& exact, std::vector<double> trouble);

}  // namespace motion
