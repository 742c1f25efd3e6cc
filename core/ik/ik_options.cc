#include "core/ik/ik_options.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/ik/ik_result.h"

namespace motion {

absl::StatusOr<IkSolverKind> ParseIkSolverKind(absl::string_view name) {
  if (name.empty() || name == "lm") return IkSolverKind::kLevenbergMarquardt;
  if (name == "kdl_nr_jl") return IkSolverKind::kKdlNrJl;
  if (name == "kdl_lma") return IkSolverKind::kKdlLma;
  return absl::InvalidArgumentError(absl::StrCat(
      "options.solver: unknown solver '", name, "'; use \"\" (default, lm), kdl_nr_jl or kdl_lma"));
}

const char* IkSolverName(IkSolverKind kind) {
  switch (kind) {
    case IkSolverKind::kLevenbergMarquardt:
      return "lm";
    case IkSolverKind::kKdlNrJl:
      return "kdl_nr_jl";
    case IkSolverKind::kKdlLma:
      return "kdl_lma";
  }
  return "unknown";
}

const char* IkOutcomeName(IkOutcome outcome) {
  switch (outcome) {
    case IkOutcome::kOk:
      return "ok";
    case IkOutcome::kUnreachable:
      return "unreachable";
    case IkOutcome::kJointLimit:
      return "joint_limit";
    case IkOutcome::kMaxIterations:
      return "max_iterations";
    case IkOutcome::kTimeout:
      return "timeout";
    case IkOutcome::kInCollision:
      return "in_collision";
  }
  return "unknown";
}

const char* IkMethodName(IkMethod method) {
  switch (method) {
    case IkMethod::kNumeric:
      return "numeric";
    case IkMethod::kClosedForm:
      return "closed_form";
    case IkMethod::kKdl:
      return "kdl";
  }
  return "unknown";
}

}  // namespace motion
