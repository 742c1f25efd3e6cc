#pragma once

#include <string>
#include <vector>

namespace motionctl {

/// \brief A 1-2-5 step (1, 2 or 5 times a power of ten) that divides
/// [lo, hi] into at most about `target` intervals: the smallest such step
/// not below (hi - lo) / target. A range that is empty or not finite gets
/// step 1.
double NiceStep(double lo, double hi, int target);

/// \brief The multiples of NiceStep(lo, hi, target) within [lo, hi]
/// (inclusive, to rounding), in increasing order.
std::vector<double> NiceTicks(double lo, double hi, int target);

/// \brief A tick value with as many decimals as `step` needs ("0.25",
/// "-1", "12"), never "-0".
std::string FormatTick(double value, double step);

}  // namespace motionctl
