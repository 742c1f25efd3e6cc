#pragma once

#include <vector>

#include "core/dynamics/trajectory_torque.h"
#include "core/motion/internal/rate_audit.h"
#include "core/profile/path_timing.h"

namespace motion {

/// \brief Where the audit of a timing's samples (at path parameters
/// `sigma`) finds a rate beyond its limit, the caps on sd^2 at the timing's
/// nodes come down: at the sample, by what the worst rate there needs
/// (velocity ~ sd, acceleration ~ sd^2, jerk ~ sd^3 for the same shape;
/// torque by its ratio) and a little more, fading out over 50 ms on each
/// side. False when every sample is within its limits.
bool LowerCapsWhereBroken(const RateAudit& audit, const TorqueRatio& torque,
                          const std::vector<double>& sigma, const PathTiming& timing,
                          bool with_jerk, double dt, std::vector<double>& caps);

/// \brief The path parameters of the samples (at `sigma`) where the audit
/// finds a rate (jerk only `with_jerk`) or the torque beyond its limit.
std::vector<double> BrokenAt(const RateAudit& audit, const TorqueRatio& torque,
                             const std::vector<double>& sigma, bool with_jerk);

}  // namespace motion
