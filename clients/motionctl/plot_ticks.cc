#include "clients/motionctl/plot_ticks.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace motionctl {

double NiceStep(double lo, double hi, int target) {
  const double range = hi - lo;
  if (!std::isfinite(range) || range <= 0) return 1.0;
  const double raw = range / std::max(target, 1);
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  // raw / magnitude is in [1, 10); a little tolerance so that a range of
  // exactly 2 x target is not pushed up to a step of 5 by rounding.
  for (const double m : {1.0, 2.0, 5.0}) {
    if (raw <= m * magnitude * (1 + 1e-9)) return m * magnitude;
  }
  return 10.0 * magnitude;
}

std::vector<double> NiceTicks(double lo, double hi, int target) {
  std::vector<double> ticks;
  if (!std::isfinite(lo) || !std::isfinite(hi) || hi < lo) return ticks;
  const double step = NiceStep(lo, hi, target);
  const double tolerance = step * 1e-9;
  // Counting in steps (not adding them up) keeps 0.1 + 0.2 style errors out.
  for (double k = std::ceil((lo - tolerance) / step); k * step <= hi + tolerance; k += 1) {
    ticks.push_back(k * step);
    if (ticks.size() > 1000) break;  // a tiny step on a huge range: far past any use
  }
  return ticks;
}

std::string FormatTick(double value, double step) {
  int decimals = 0;
  if (std::isfinite(step) && step > 0) {
    decimals = std::clamp(static_cast<int>(-std::floor(std::log10(step) + 1e-9)), 0, 9);
    // A step of 0.25 does not occur (1-2-5), but 2.5 x 10^k would need one more.
    const double scaled = step * std::pow(10.0, decimals);
    if (std::fabs(scaled - std::round(scaled)) > 1e-6) ++decimals;
  }
  if (std::fabs(value) < 0.5 * std::pow(10.0, -decimals)) value = 0.0;  // no "-0"
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

}  // namespace motionctl
