#pragma once

#include <vector>
#include "absl/strings/string_view.h"

#include "absl/status/status.h"
#include "core/model/chain_model.h"

namespace motion {

/// \brief InvalidArgument naming `field` unless `q` has exactly model.dof()
/// finite values. Limits are not checked here: FK of an out-of-limit
/// configuration is well defined and planners report limits as diagnostics.
absl::Status CheckJointVector(const ChainModel& model, const std::vector<double>& q,
                              absl::string_view field);

}  // namespace motion
