#pragma once

#include <string>

#include "absl/strings/string_view.h"

namespace motion {

/// \brief The content address of a URDF: "sha256:" + lowercase hex SHA-256
/// of the bytes exactly as sent (no normalisation, so any client can compute
/// it with `sha256sum`).
std::string RobotIdForUrdf(absl::string_view urdf_text);

/// \brief True when `id` has the form "sha256:" + 64 lowercase hex digits.
bool IsWellFormedRobotId(absl::string_view id);

}  // namespace motion
