#include "core/motion/internal/timing_repairs.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace motion {
namespace {

// Where the samples break a limit the speed is capped a little below what
// they need, fading out over this much time on each side.
constexpr double kRepairMargin = 0.97;
constexpr double kRepairSpread = 0.05;  // s

// The share of sd^2 that sample k's worst rate or torque asks for (velocity
// ~ sd, acceleration ~ sd^2, jerk ~ sd^3 for the same shape; torque's
// dynamic part ~ sd^2, gravity not, so the loop comes back if that is
// short): below 1 where the sample breaks a limit, 1 where it does not.
double NeededShare(const RateAudit& audit, const TorqueRatio& torque, std::size_t k,
                   bool with_jerk) {
  double f = 1.0;
  const double v = audit.ratio_at[RateAudit::kVelocity][k];
  const double a = audit.ratio_at[RateAudit::kAcceleration][k];
  const double j = with_jerk ? audit.ratio_at[RateAudit::kJerk][k] : 0.0;
  if (v > 1 + kAuditSlack) f = std::min(f, 1 / (v * v));
  if (a > 1 + kAuditSlack) f = std::min(f, 1 / a);
  if (j > 1 + kAuditSlack) f = std::min(f, std::pow(j, -2.0 / 3.0));
  if (torque.ratio > 1 + kAuditSlack && static_cast<std::size_t>(torque.sample) == k) {
    f = std::min(f, 1 / torque.ratio);
  }
  return f;
}

}  // namespace

bool LowerCapsWhereBroken(const RateAudit& audit, const TorqueRatio& torque,
                          const std::vector<double>& sigma, const PathTiming& timing,
                          bool with_jerk, double dt, std::vector<double>& caps) {
  const std::vector<double>& grid = timing.nodes();
  const std::size_t n = sigma.size();
  std::vector<double> factor(n, 1.0);
  bool broken = false;
  for (std::size_t k = 0; k < n; ++k) {
    const double f = NeededShare(audit, torque, k, with_jerk);
    if (f < 1) broken = true, factor[k] = kRepairMargin * f;
  }
  if (!broken) return false;
  const long spread = std::max(1L, std::lround(kRepairSpread / dt));
  for (std::size_t k = 0; k < n; ++k) {
    if (factor[k] >= 1) continue;
    const long lo = std::max(0L, static_cast<long>(k) - spread);
    const long hi = std::min(static_cast<long>(n) - 1, static_cast<long>(k) + spread);
    for (long l = lo; l <= hi; ++l) {
      const double fade = static_cast<double>(std::abs(l - static_cast<long>(k))) / spread;
      const double f = 1 - (1 - factor[k]) * (1 - fade);
      // The nodes between this sample and the next.
      const double from = sigma[static_cast<std::size_t>(std::max(0L, l - 1))];
      const double to = sigma[static_cast<std::size_t>(std::min<long>(n - 1, l + 1))];
      auto first = std::lower_bound(grid.begin(), grid.end(), from);
      auto last = std::upper_bound(grid.begin(), grid.end(), to);
      for (auto it = first; it != last; ++it) {
        const std::size_t i = static_cast<std::size_t>(it - grid.begin());
        caps[i] = std::min(caps[i], f * timing.SpeedSquaredAt(grid[i]));
      }
    }
  }
  return true;
}

std::vector<double> BrokenAt(const RateAudit& audit, const TorqueRatio& torque,
                             const std::vector<double>& sigma, bool with_jerk) {
  std::vector<double> out;
  for (std::size_t k = 0; k < sigma.size(); ++k) {
    if (NeededShare(audit, torque, k, with_jerk) < 1) out.push_back(sigma[k]);
  }
  return out;
}

}  // namespace motion
