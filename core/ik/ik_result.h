#pragma once

#include <vector>

#include <Eigen/Core>

#include "core/diagnostics/diagnostic.h"
#include "core/ik/robot_configuration.h"

namespace motion {

/// \brief How a solve ended; the failure reasons map onto diagnostics.
enum class IkOutcome {
  kOk,
  kUnreachable,    ///< best residual stays large: the target is outside the workspace
  kJointLimit,     ///< a solution exists only with joints outside their limits
  kMaxIterations,  ///< iteration budget spent, residual small but not within tolerance
  kTimeout,        ///< wall-time budget spent, idem
  kInCollision,    ///< solutions exist, and every one collides (SolveCollisionFreeIk)
};

const char* IkOutcomeName(IkOutcome outcome);

/// \brief Which path produced an answer.
enum class IkMethod {
  kNumeric,     ///< Levenberg-Marquardt with restarts
  kClosedForm,  ///< the closed form of the chain's family, FK-checked (and polished)
  kKdl,         ///< a KDL baseline
};

/// \brief "numeric", "closed_form", "kdl".
const char* IkMethodName(IkMethod method);

struct IkResult {
  bool ok = false;
  IkOutcome outcome = IkOutcome::kMaxIterations;
  /// The solution (ok) or the best configuration found (not ok). When ok,
  /// these exact values were checked against the tolerances.
  Eigen::VectorXd joints;
  double position_error = 0.0;     ///< m
  double orientation_error = 0.0;  ///< rad
  int iterations = 0;
  int attempts = 0;
  double min_singular_value = 0.0;         ///< of the Jacobian at `joints` (ok only)
  std::vector<Eigen::VectorXd> solutions;  ///< IkMode::kAll, closest to the seed first
  std::vector<Diagnostic> diagnostics;
  /// The configuration of `joints` (ok or not), and of each of `solutions`.
  RobotConfiguration configuration;
  std::vector<RobotConfiguration> solution_configurations;
  IkMethod method = IkMethod::kNumeric;
};

}  // namespace motion
