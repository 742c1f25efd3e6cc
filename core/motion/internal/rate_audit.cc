#include "core/motion/internal/rate_audit.h"

#include <algorithm>
#include <cmath>

namespace motion {

double RateAudit::RequiredStretch(bool with_jerk) const {
  double k = std::max({1.0, ratio[kVelocity], std::sqrt(ratio[kAcceleration])});
  if (with_jerk) k = std::max(k, std::cbrt(ratio[kJerk]));
  return k;
}

double RateAudit::RequiredStretchAt(std::size_t k, bool with_jerk) const {
  if (k >= ratio_at[kVelocity].size()) return 1.0;
  double s = std::max({1.0, ratio_at[kVelocity][k], std::sqrt(ratio_at[kAcceleration][k])});
  if (with_jerk) s = std::max(s, std::cbrt(ratio_at[kJerk][k]));
  return s;
}

RateAudit AuditRates(const std::vector<double>& positions, int dof, double dt,
                     const std::vector<JointLimits>& limits, AuditBoundary boundary) {
  RateAudit audit;
  const long n = dof > 0 ? static_cast<long>(positions.size() / dof) : 0;
  if (n == 0 || !(dt > 0)) return audit;
  const double dt2 = dt * dt, dt3 = dt2 * dt;
  for (auto& v : audit.ratio_at) v.assign(static_cast<std::size_t>(n), 0.0);
  for (int j = 0; j < dof; ++j) {
    // At rest outside the samples: the first and last positions held.
    auto q = [&](long k) { return positions[std::clamp(k, 0L, n - 1) * dof + j]; };
    const double bound[3] = {limits[j].max_velocity, limits[j].max_acceleration,
                             limits[j].max_jerk};
    // `first`..`last`: the samples the difference's stencil spans.
    auto note = [&](int kind, double rate, long k, long first, long last) {
      const double r = bound[kind] > 0 ? std::abs(rate) / bound[kind] : 0.0;
      for (long i = std::max(first, 0L); i <= std::min(last, n - 1); ++i) {
        double& at = audit.ratio_at[kind][static_cast<std::size_t>(i)];
        at = std::max(at, r);
      }
      if (r > audit.ratio[kind]) {
        audit.ratio[kind] = r;
        audit.value[kind] = rate;
        audit.joint[kind] = j;
        audit.sample[kind] = static_cast<std::size_t>(std::clamp(k, 0L, n - 1));
      }
    };
    // A difference counts when its stencil first..last is inside the
    // samples, or (at rest) anywhere it touches them.
    const bool at_rest = boundary == AuditBoundary::kAtRest;
    const bool rest_after = boundary == AuditBoundary::kRestAfter;
    auto counts = [&](long first, long last) {
      return at_rest || (first >= 0 && (rest_after || last <= n - 1));
    };
    for (long k = 0; k <= n; ++k) {
      if (counts(k - 1, k)) note(RateAudit::kVelocity, (q(k) - q(k - 1)) / dt, k, k - 1, k);
      if (counts(k - 1, k + 1)) {
        note(RateAudit::kAcceleration, (q(k + 1) - 2.0 * q(k) + q(k - 1)) / dt2, k, k - 1, k + 1);
      }
      if (counts(k - 2, k + 1)) {
        note(RateAudit::kJerk, (q(k + 1) - 3.0 * q(k) + 3.0 * q(k - 1) - q(k - 2)) / dt3, k, k - 2,
             k + 1);
      }
    }
  }
  return audit;
}

void IncludeStatedRates(const std::vector<double>& qd, const std::vector<double>& qdd, int dof,
                        const std::vector<JointLimits>& limits, RateAudit& audit) {
  const std::size_t n = dof > 0 ? qd.size() / static_cast<std::size_t>(dof) : 0;
  if (n == 0 || qdd.size() != qd.size()) return;
  for (auto& v : audit.ratio_at) v.resize(std::max(v.size(), n), 0.0);
  for (std::size_t k = 0; k < n; ++k) {
    for (int j = 0; j < dof; ++j) {
      const double rate[2] = {qd[k * dof + j], qdd[k * dof + j]};
      const double bound[2] = {limits[j].max_velocity, limits[j].max_acceleration};
      for (int kind : {RateAudit::kVelocity, RateAudit::kAcceleration}) {
        const double r = bound[kind] > 0 ? std::abs(rate[kind]) / bound[kind] : 0.0;
        double& at = audit.ratio_at[kind][k];
        at = std::max(at, r);
        if (r > audit.ratio[kind]) {
          audit.ratio[kind] = r;
          audit.value[kind] = rate[kind];
          audit.joint[kind] = j;
          audit.sample[kind] = k;
        }
      }
    }
  }
}

RateAudit AuditContinuing(const std::vector<double>& before, std::size_t first_usable,
                          const std::vector<double>& positions, int dof, double dt,
                          const std::vector<JointLimits>& limits) {
  const std::size_t held = dof > 0 ? before.size() / static_cast<std::size_t>(dof) : 0;
  const std::size_t usable = held > first_usable ? held - first_usable : 0;
  // A third difference spans four samples: three before the shared one.
  const std::size_t prefix = std::min<std::size_t>(3, usable > 0 ? usable - 1 : 0);
  if (prefix == 0 || positions.empty()) return AuditRates(positions, dof, dt, limits);
  std::vector<double> joined(before.end() - static_cast<long>((prefix + 1) * dof),
                             before.end() - static_cast<long>(dof));
  joined.insert(joined.end(), positions.begin(), positions.end());
  RateAudit audit = AuditRates(joined, dof, dt, limits, AuditBoundary::kRestAfter);
  for (int kind = 0; kind < 3; ++kind) {
    std::vector<double>& at = audit.ratio_at[kind];
    // What the junction's differences say lands on the segment's first
    // samples (where slowing down helps).
    for (std::size_t k = 0; k < prefix && prefix < at.size(); ++k) {
      at[prefix] = std::max(at[prefix], at[k]);
    }
    at.erase(at.begin(), at.begin() + static_cast<long>(std::min(prefix, at.size())));
    audit.sample[kind] = audit.sample[kind] > prefix ? audit.sample[kind] - prefix : 0;
  }
  return audit;
}

}  // namespace motion
