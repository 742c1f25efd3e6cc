#include "core/profile/internal/profile_inputs.h"

#include <cmath>

#include "absl/strings/str_cat.h"

namespace motion {
namespace {

bool FiniteNonNegative(double x) { return std::isfinite(x) && x >= 0; }

}  // namespace

absl::Status CheckProfileInputs(double length, double max_velocity, double max_acceleration,
                                double start_velocity, double end_velocity) {
  if (!FiniteNonNegative(length)) {
    return absl::InvalidArgumentError(
        absl::StrCat("length: must be finite and >= 0, got ", length));
  }
  if (!(max_velocity > 0) || !std::isfinite(max_velocity)) {
    return absl::InvalidArgumentError(
        absl::StrCat("max_velocity: must be finite and > 0, got ", max_velocity));
  }
  if (!(max_acceleration > 0) || !std::isfinite(max_acceleration)) {
    return absl::InvalidArgumentError(
        absl::StrCat("max_acceleration: must be finite and > 0, got ", max_acceleration));
  }
  if (!FiniteNonNegative(start_velocity) || start_velocity > max_velocity) {
    return absl::InvalidArgumentError(
        absl::StrCat("start_velocity: must be within [0, max_velocity], got ", start_velocity));
  }
  if (!FiniteNonNegative(end_velocity) || end_velocity > max_velocity) {
    return absl::InvalidArgumentError(
        absl::StrCat("end_velocity: must be within [0, max_velocity], got ", end_velocity));
  }
  return absl::OkStatus();
}

}  // namespace motion
