#pragma once

#include <vector>

#include <Eigen/Geometry>

#include "absl/status/statusor.h"
#include "core/geometry/pose.h"
#include "core/ik/ik_data.h"
#include "core/ik/ik_options.h"
#include "core/ik/ik_result.h"
#include "core/model/chain_model.h"

namespace motion {

/// \brief Inverse kinematics: joints that put the TCP (tip * tool) at
/// `target` (base frame), within the joint limits.
///
/// Default solver (IkSolverKind::kLevenbergMarquardt): the first descent
/// starts at `seed` (empty: mid-range), later ones at seeded-random
/// configurations within limits (deterministic: the same request gives the
/// same answer), until a strict solution is found or the iteration / time
/// budget runs out. Rotary joint values are returned as the whole-turn
/// equivalent nearest the seed that stays within limits (continuous joints:
/// the representative nearest the seed), then re-checked.
///
/// Not ok is a result, not an error: outcome says why (kUnreachable: beyond
/// the reach bound or the residual never got small; kJointLimit: a search
/// without limits finds a solution, so only limits forbid it; kTimeout /
/// kMaxIterations otherwise), with the best residuals and a diagnostic.
/// InvalidArgument only for malformed input: seed length or NaN, negative
/// tolerances or budgets, unknown mode. KDL baselines refuse mimic chains.
/// `data` is this thread's IkData for `model` (ChainDataCache::For).
absl::StatusOr<IkResult> SolveIk(const ChainModel& model, IkData& data, const Pose& target,
                                 const Pose& tool, const std::vector<double>& seed,
                                 const IkOptions& options);

}  // namespace motion
