#pragma once

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"

namespace motion {

/// \brief "sha256:" + lowercase hex SHA-256 of `bytes`.
std::string ContentId(absl::string_view bytes);

/// \brief The content address of a URDF: "sha256:" + lowercase hex SHA-256
/// of the bytes exactly as sent (no normalisation, so any client can compute
/// it with `sha256sum`).
std::string RobotIdForUrdf(absl::string_view urdf_text);

/// \brief The content address of a URDF with mesh files: "sha256:" + hex
/// SHA-256 of the text hex(SHA-256(urdf)) "\n" then, per mesh in byte order
/// of filename, filename "\n" hex(SHA-256(data)) "\n". Without meshes it
/// is RobotIdForUrdf. Filenames are assumed unique and free of line breaks
/// (the registry refuses others), which keeps the text unambiguous.
std::string RobotIdForUrdfAndMeshes(
    absl::string_view urdf_text,
    std::vector<std::pair<absl::string_view, absl::string_view>> filename_and_data);

/// \brief True when `id` has the form "sha256:" + 64 lowercase hex digits.
bool IsWellFormedRobotId(absl::string_view id);

}  // namespace motion
