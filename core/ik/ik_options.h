#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace motion {

enum class IkSolverKind {
  kLevenbergMarquardt,  ///< motiond's default (see levenberg_marquardt_ik.h)
  kKdlNrJl,             ///< KDL ChainIkSolverPos_NR_JL, a baseline
  kKdlLma,              ///< KDL ChainIkSolverPos_LMA, a baseline
};

/// \brief What to return when several solutions are found.
enum class IkMode {
  kFirst,    ///< the first strict solution (the first attempt starts at the seed)
  kClosest,  ///< keep searching until max_solutions or the budget; closest to the seed
  kAll,      ///< every distinct solution found, up to max_solutions, closest first
};

/// \brief Options of one IK solve (the proto layer maps zero fields to
/// these defaults; here every value must be positive).
struct IkOptions {
  IkSolverKind solver = IkSolverKind::kLevenbergMarquardt;
  double position_tolerance = 1e-5;     ///< m, on |p_target - p|
  double orientation_tolerance = 1e-5;  ///< rad, on the angle of R_target R^T
  int max_iterations = 5000;            ///< over all attempts
  double timeout = 0.005;               ///< s of the solving thread's CPU time (see ik_solver.cc)
  IkMode mode = IkMode::kFirst;
  int max_solutions = 8;  ///< kClosest / kAll
  /// sigma_min of the Jacobian below which a solution is reported with a
  /// SINGULARITY warning (same mixed m/rad units as the Jacobian).
  double singularity_threshold = 1e-3;
};

/// \brief "" or "lm" -> kLevenbergMarquardt; "kdl_nr_jl"; "kdl_lma".
absl::StatusOr<IkSolverKind> ParseIkSolverKind(absl::string_view name);
const char* IkSolverName(IkSolverKind kind);

}  // namespace motion
