#include "core/motion/internal/rate_audit.h"

#include <algorithm>
#include <cmath>

namespace motion {

double RateAudit::RequiredStretch(bool with_jerk) const {
  double k = std::max({1.0, ratio[kVelocity], std::sqrt(ratio[kAcceleration])});
  if (with_jerk) k = std::max(k, std::cbrt(ratio[kJerk]));
  return k;
}

RateAudit AuditRates(const std::vector<double>& positions, int dof, double dt,
                     const std::vector<JointLimits>& limits) {
  RateAudit audit;
  const long n = dof > 0 ? static_cast<long>(positions.size() / dof) : 0;
  if (n == 0 || !(dt > 0)) return audit;
  const double dt2 = dt * dt, dt3 = dt2 * dt;
  for (int j = 0; j < dof; ++j) {
    // At rest outside the samples: the first and last positions held.
    auto q = [&](long k) { return positions[std::clamp(k, 0L, n - 1) * dof + j]; };
    const double bound[3] = {limits[j].max_velocity, limits[j].max_acceleration,
                             limits[j].max_jerk};
    auto note = [&](int kind, double rate, long k) {
      const double r = bound[kind] > 0 ? std::abs(rate) / bound[kind] : 0.0;
      if (r > audit.ratio[kind]) {
        audit.ratio[kind] = r;
        audit.value[kind] = rate;
        audit.joint[kind] = j;
        audit.sample[kind] = static_cast<std::size_t>(std::clamp(k, 0L, n - 1));
      }
    };
    for (long k = 0; k <= n; ++k) {
      note(RateAudit::kVelocity, (q(k) - q(k - 1)) / dt, k);
      note(RateAudit::kAcceleration, (q(k + 1) - 2.0 * q(k) + q(k - 1)) / dt2, k);
      note(RateAudit::kJerk, (q(k + 1) - 3.0 * q(k) + 3.0 * q(k - 1) - q(k - 2)) / dt3, k);
    }
  }
  return audit;
}

}  // namespace motion
