#pragma once

#include <cstddef>
#include <vector>

#include "core/model/joint_limits.h"

namespace motion {

/// \brief What the sampled positions of a segment say about its rates,
/// independently of the profile that made them: velocity, acceleration and
/// jerk as first, second and third divided differences on the uniform
/// sample grid, with the arm at rest before the first and after the last
/// sample (every segment starts and ends in a fine stop).
///
/// A divided difference of order n is a weighted mean of the n-th
/// derivative over its stencil (a B-spline kernel of total weight 1), so a
/// trajectory within its limits passes this audit exactly, whatever the
/// sample phase; one that passes cannot exceed them by more than the
/// derivative varies within n samples.
struct RateAudit {
  enum Kind { kVelocity = 0, kAcceleration = 1, kJerk = 2 };
  double ratio[3] = {0.0, 0.0, 0.0};  ///< worst |rate| / limit of each kind
  double value[3] = {0.0, 0.0, 0.0};  ///< the rate there
  int joint[3] = {-1, -1, -1};        ///< the DOF there
  std::size_t sample[3] = {0, 0, 0};  ///< the local sample there

  /// Per sample: the worst ratio of each kind over the joints, over every
  /// difference whose stencil holds the sample (where to slow down).
  std::vector<double> ratio_at[3];

  /// \brief The local factor at sample k (as RequiredStretch).
  double RequiredStretchAt(std::size_t k, bool with_jerk) const;

  /// \brief The factor by which slowing the segment uniformly in time
  /// (velocity / k, acceleration / k^2, jerk / k^3) brings every rate
  /// within its limit; 1 when all are. `with_jerk` false ignores jerk.
  double RequiredStretch(bool with_jerk) const;
};

/// \brief What the audit assumes outside the samples: at rest (a whole
/// segment, held before and after), nothing (a window cut out of a moving
/// trajectory: only differences whose stencil lies inside count), or at
/// rest after the last sample only (a segment with the samples before it).
/// \brief What an audit forgives beyond a limit: rounding of divided
/// differences (third differences of positions near 1 rad at dt = 0.1 ms
/// round to ~1e-3 rad/s^3; limits are 1e4 times larger).
inline constexpr double kAuditSlack = 1e-6;

enum class AuditBoundary { kAtRest, kInteriorOnly, kRestAfter };

/// \brief Audits n samples of `dof` positions each (row-major) taken every
/// `dt` seconds against `limits`.
RateAudit AuditRates(const std::vector<double>& positions, int dof, double dt,
                     const std::vector<JointLimits>& limits,
                     AuditBoundary boundary = AuditBoundary::kAtRest);

/// \brief The audit of a segment's n samples where they continue what
/// `before` holds (the trajectory so far, its last sample this segment's
/// first, row-major, `dof` per sample): its last few samples come first,
/// so the differences across the junction count too (two segments that
/// each keep a limit from rest can break it together where one stops and
/// the next starts), and the segment is at rest after its last. Indices
/// and ratio_at are the segment's own. Samples of `before` ahead of
/// `first_usable` are not read (a jump lies there). With no usable sample
/// but the shared one, as AuditRates at rest.
RateAudit AuditContinuing(const std::vector<double>& before, std::size_t first_usable,
                          const std::vector<double>& positions, int dof, double dt,
                          const std::vector<JointLimits>& limits);

/// \brief Widens `audit` (of the same n samples) by the velocities and
/// accelerations the trajectory states at each sample (`qd`, `qdd`, row-
/// major like the positions): a controller may feed those forward, so they
/// are held to the same limits as the differences, sample by sample.
void IncludeStatedRates(const std::vector<double>& qd, const std::vector<double>& qdd, int dof,
                        const std::vector<JointLimits>& limits, RateAudit& audit);

}  // namespace motion
