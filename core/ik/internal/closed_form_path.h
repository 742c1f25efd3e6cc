#pragma once

#include <Eigen/Geometry>

#include "core/ik/arm_geometry.h"
#include "core/ik/ik_data.h"
#include "core/ik/ik_options.h"
#include "core/ik/ik_result.h"
#include "core/model/chain_model.h"

namespace motion {

/// \brief How the closed-form path of SolveIk ended.
enum class ClosedFormVerdict {
  kSolved,    ///< result.solutions holds the answers in order (see SolveWithClosedForm)
  kFailed,    ///< definitive: every branch is outside the limits or the configuration asked
  kFallBack,  ///< no branch passed the FK check, or a singular pose: use the numeric search
};

/// \brief The closed form's FK checks and polishing count as iterations; below
/// this budget only the numeric search runs (a caller's tiny budget means "one
/// or two descents", not "no answer").
inline constexpr int kClosedFormMinIterations = 32;

/// \brief Phase 2a of SolveIk on a chain with a closed form (geometry.has_closed_form()).
///
/// Every branch of the closed form is checked by core's FK with the strict
/// tolerances; a branch that misses them by less than 1e-2 (m / rad) gets a
/// few Levenberg-Marquardt steps without limits (its own branch: it starts
/// next to it), one that is farther is no solution. Branches are then filtered
/// by options.configuration's flags, moved to the requested turns or to the
/// whole turns nearest the seed within limits, and re-checked by FK.
/// kSolved: result.solutions (and solution_configurations) are one answer per
/// flag set closest to the seed first, then (kAll, no turns asked) the other
/// whole-turn variants within limits closest first, up to max_solutions.
/// result.iterations counts FK evaluations, result.attempts polishing descents.
ClosedFormVerdict SolveWithClosedForm(const ChainModel& model, IkData& data,
                                      const ArmGeometry& geometry, const Eigen::Isometry3d& target,
                                      const Eigen::Isometry3d& tool, const Eigen::VectorXd& seed,
                                      const IkOptions& options, IkResult& result);

}  // namespace motion
