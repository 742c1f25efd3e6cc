#pragma once

#include "absl/strings/string_view.h"

#include <urdf_model/model.h>
#include <memory>

#include "absl/status/statusor.h"
#include "core/model/model_limits.h"

namespace motion {

/// \brief Parses URDF text with urdfdom and checks what urdfdom does not.
///
/// Before parsing: size and XML nesting depth (TinyXML recurses per level).
/// urdfdom itself rejects non-XML, a missing <robot>, undefined links, two
/// roots and links with two parents; its messages are captured and returned
/// instead of being printed. After parsing: every origin finite, revolute and
/// prismatic axes non-zero and finite (a fixed joint's axis is ignored, real
/// files carry 0 0 0 there), lower <= upper, finite limits, mimic targets
/// that exist and no mimic cycles, and at most `limits.max_links` links.
/// Every error is InvalidArgument and names the link or joint.
absl::StatusOr<std::shared_ptr<urdf::ModelInterface>> ParseUrdf(absl::string_view urdf_text,
                                                                const ModelLimits& limits);

}  // namespace motion
