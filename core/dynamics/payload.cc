#include "core/dynamics/payload.h"

#include <algorithm>
#include <cmath>

#include <Eigen/Eigenvalues>

#include "absl/strings/str_cat.h"

namespace motion {
namespace {

absl::Status NotFinite(absl::string_view field, absl::string_view what, double value) {
  return absl::InvalidArgumentError(absl::StrCat(field, what, ": must be finite, got ", value));
}

}  // namespace

absl::Status CheckPayload(const Payload& payload, absl::string_view field) {
  if (!std::isfinite(payload.mass)) return NotFinite(field, ".mass", payload.mass);
  if (payload.mass < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ".mass: must be >= 0 kg, got ", payload.mass));
  }
  static const char* const kAxes = "xyz";
  for (int i = 0; i < 3; ++i) {
    if (!std::isfinite(payload.center_of_mass[i])) {
      return NotFinite(field, absl::StrCat(".center_of_mass.", std::string(1, kAxes[i])),
                       payload.center_of_mass[i]);
    }
  }
  const Eigen::Matrix3d& I = payload.inertia;
  for (int r = 0; r < 3; ++r) {
    for (int c = r; c < 3; ++c) {
      const std::string name =
          absl::StrCat(".inertia.i", std::string(1, kAxes[r]), std::string(1, kAxes[c]));
      if (!std::isfinite(I(r, c))) return NotFinite(field, name, I(r, c));
      if (!std::isfinite(I(c, r)) || I(c, r) != I(r, c)) {
        return absl::InvalidArgumentError(
            absl::StrCat(field, name, ": the inertia matrix must be symmetric"));
      }
    }
  }
  for (int i = 0; i < 3; ++i) {
    if (I(i, i) < 0) {
      return absl::InvalidArgumentError(absl::StrCat(field, ".inertia.i", std::string(2, kAxes[i]),
                                                     ": must be >= 0 kg*m^2, got ", I(i, i)));
    }
  }
  if (I.isZero(0.0)) return absl::OkStatus();  // a point mass, or no payload
  if (payload.mass == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ".inertia: a payload of mass 0 cannot have an inertia"));
  }
  const Eigen::Vector3d moments = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(I).eigenvalues();
  if (!(moments[0] > 0)) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ".inertia: must be positive definite; its principal moments are ",
                     moments[0], ", ", moments[1], ", ", moments[2], " kg*m^2"));
  }
  // Sorted ascending, the binding inequality is I1 + I2 >= I3.
  if (moments[0] + moments[1] < moments[2] * (1.0 - 1e-9)) {
    return absl::InvalidArgumentError(absl::StrCat(
        field, ".inertia: principal moments ", moments[0], ", ", moments[1], ", ", moments[2],
        " kg*m^2 violate the triangle inequality (no mass distribution has I1 + I2 < I3)"));
  }
  return absl::OkStatus();
}

absl::Status CheckGravity(const Eigen::Vector3d& gravity, absl::string_view field) {
  static const char* const kAxes[] = {".x", ".y", ".z"};
  for (int i = 0; i < 3; ++i) {
    if (!std::isfinite(gravity[i])) return NotFinite(field, kAxes[i], gravity[i]);
  }
  return absl::OkStatus();
}

}  // namespace motion
