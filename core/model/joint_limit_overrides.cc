#include "core/model/joint_limit_overrides.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/diagnostics/untrusted_text.h"

namespace motion {

absl::StatusOr<std::vector<JointLimits>> ApplyJointLimitOverrides(
    const ChainModel& model, const std::vector<JointLimitOverride>& overrides,
    absl::string_view field) {
  std::vector<JointLimits> limits = model.dof_limits;
  std::set<std::string> seen;
  for (std::size_t i = 0; i < overrides.size(); ++i) {
    const JointLimitOverride& o = overrides[i];
    const std::string at = absl::StrCat(field, "[", i, "]");
    const auto it = std::find(model.dof_names.begin(), model.dof_names.end(), o.joint_name);
    if (it == model.dof_names.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat(at, ".joint_name: ", QuoteUntrusted(o.joint_name),
                       " is not a joint of the chain ", model.base_link, " -> ", model.tip_link,
                       " (", absl::StrJoin(model.dof_names, ", "), ")"));
    }
    if (!seen.insert(o.joint_name).second) {
      return absl::InvalidArgumentError(
          absl::StrCat(at, ".joint_name: ", QuoteUntrusted(o.joint_name), " is overridden twice"));
    }
    JointLimits& l = limits[it - model.dof_names.begin()];
    const struct {
      const char* name;
      double value;
      double* target;
      std::string* source;
    } values[] = {
        {"max_velocity", o.max_velocity, &l.max_velocity, &l.velocity_source},
        {"max_acceleration", o.max_acceleration, &l.max_acceleration, &l.acceleration_source},
        {"max_jerk", o.max_jerk, &l.max_jerk, &l.jerk_source},
        {"max_torque", o.max_torque, &l.max_torque, &l.torque_source}};
    for (const auto& v : values) {
      if (!std::isfinite(v.value) || v.value < 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            at, ".", v.name, ": must be finite and >= 0 (0 keeps the chain's), got ", v.value));
      }
      if (v.value > 0) {
        *v.target = v.value;
        *v.source = "override";
      }
    }
  }
  return limits;
}

}  // namespace motion
