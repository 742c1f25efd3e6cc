#pragma once

#include <vector>

#include "absl/status/status.h"
#include "core/cell/cell_program.h"

namespace motion {

/// \brief InvalidArgument naming the field ("robots[i].start_time",
/// "sample_time", ...) unless every robot has a chain, a collision model
/// and a program (times finite, increasing from 0; positions times x dof
/// finite values), start times are finite and >= 0, the sample time
/// finite and > 0, the margin finite and >= 0, and the cell's instants
/// within options.max_instants.
absl::Status CheckCellInput(const std::vector<CellRobotProgram>& robots,
                            const CellOptions& options);

}  // namespace motion
