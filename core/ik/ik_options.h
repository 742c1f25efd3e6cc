#pragma once

#include <functional>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/ik/robot_configuration.h"

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
  /// kFirst / kClosest: the solution nearest the seed (the closed form, when
  /// the chain has one, enumerates every branch). kAll: every distinct
  /// configuration, closest first (see ik_solver.h).
  IkMode mode = IkMode::kFirst;
  int max_solutions = 8;  ///< kClosest / kAll
  /// Only solutions in this configuration: flags -1 / +1, 0 = any; turns
  /// empty = the whole turns nearest the seed within limits, else exactly
  /// these (one per DOF). Not for the KDL baselines.
  std::optional<RobotConfiguration> configuration;
  /// Use the closed form when the chain's family has one (ArmGeometry);
  /// false: the numeric search only (baselines, comparisons).
  bool closed_form = true;
  /// sigma_min of the Jacobian below which a solution is reported with a
  /// SINGULARITY warning (same mixed m/rad units as the Jacobian).
  double singularity_threshold = 1e-3;
  /// Polled between restarts of the numeric search (each well under a
  /// millisecond); true ends the search as if its budget were spent. The
  /// service sets it to "the call was cancelled or its deadline passed", so a
  /// large `timeout` never outlives the call that asked for it.
  std::function<bool()> stop;
};

/// \brief "" or "lm" -> kLevenbergMarquardt; "kdl_nr_jl"; "kdl_lma".
absl::StatusOr<IkSolverKind> ParseIkSolverKind(absl::string_view name);
const char* IkSolverName(IkSolverKind kind);

}  // namespace motion
