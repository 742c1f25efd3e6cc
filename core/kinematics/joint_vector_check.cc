#include "core/kinematics/joint_vector_check.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace motion {

absl::Status CheckJointVector(const ChainModel& model, const std::vector<double>& q,
                              absl::string_view field) {
  if (static_cast<int>(q.size()) != model.dof()) {
    return absl::InvalidArgumentError(absl::StrCat(
        field, ": expected ", model.dof(), " values (", absl::StrJoin(model.dof_names, ", "),
        ") for chain ", model.base_link, " -> ", model.tip_link, ", got ", q.size()));
  }
  for (std::size_t i = 0; i < q.size(); ++i) {
    if (!std::isfinite(q[i])) {
      return absl::InvalidArgumentError(absl::StrCat(field, "[", i, "] (", model.dof_names[i],
                                                     "): ", q[i], " is not a finite value"));
    }
  }
  return absl::OkStatus();
}

}  // namespace motion
