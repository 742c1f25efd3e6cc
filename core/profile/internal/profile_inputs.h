#pragma once

#include "absl/status/status.h"

namespace motion {

/// \brief The checks every one-dimensional profile makes of its inputs:
/// length finite and >= 0, max_velocity and max_acceleration finite and > 0,
/// start/end velocity within [0, max_velocity]. InvalidArgument naming the
/// parameter and its value.
absl::Status CheckProfileInputs(double length, double max_velocity, double max_acceleration,
                                double start_velocity, double end_velocity);

}  // namespace motion
