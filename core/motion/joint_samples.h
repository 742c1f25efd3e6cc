#pragma once

#include <vector>

#include "absl/status/status.h"

namespace motion {

/// \brief Checks a joint trajectory as a client sends it: `time` (n >= 1
/// samples, s) finite and strictly increasing, `positions` exactly n x dof
/// (row-major) finite values. InvalidArgument names the first bad entry
/// (`time[k]`, `positions[k]`, with k the flat index) or the sizes.
absl::Status CheckJointSamples(int dof, const std::vector<double>& time,
                               const std::vector<double>& positions);

}  // namespace motion
