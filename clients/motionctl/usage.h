#pragma once

#include <cstdio>

namespace motionctl {

/// \brief Prints the command summary (`motionctl help`) to `out`; returns 1,
/// the exit code of a command line that does not parse.
int PrintUsage(std::FILE* out);

}  // namespace motionctl
