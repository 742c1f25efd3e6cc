#include "core/motion/joint_samples.h"

#include <cmath>

#include "absl/strings/str_cat.h"

namespace motion {

absl::Status CheckJointSamples(int dof, const std::vector<double>& time,
                               const std::vector<double>& positions) {
  if (time.empty()) return absl::InvalidArgumentError("time: no samples");
  if (dof <= 0 || positions.size() != time.size() * static_cast<std::size_t>(dof)) {
    return absl::InvalidArgumentError(
        absl::StrCat("positions: ", positions.size(), " values for ", time.size(), " samples of ",
                     dof, " joints; expected ", time.size() * dof, " (n x dof, row-major)"));
  }
  for (std::size_t k = 0; k < time.size(); ++k) {
    if (!std::isfinite(time[k])) {
      return absl::InvalidArgumentError(absl::StrCat("time[", k, "]: ", time[k], " is not finite"));
    }
    if (k > 0 && !(time[k] > time[k - 1])) {
      return absl::InvalidArgumentError(absl::StrCat("time[", k, "]: ", time[k],
                                                     " s does not increase (time[", k - 1,
                                                     "] = ", time[k - 1], " s)"));
    }
  }
  for (std::size_t i = 0; i < positions.size(); ++i) {
    if (!std::isfinite(positions[i])) {
      return absl::InvalidArgumentError(absl::StrCat("positions[", i, "]: ", positions[i],
                                                     " is not finite (sample ", i / dof, ", joint ",
                                                     i % dof, ")"));
    }
  }
  return absl::OkStatus();
}

}  // namespace motion
