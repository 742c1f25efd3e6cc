#pragma once

#include "absl/strings/string_view.h"

#include <urdf_model/model.h>
#include <memory>

#include "absl/status/statusor.h"
#include "core/model/model_limits.h"

namespace motion {

/// \brief Parses URDF text with urdfdom, guarding against urdfdom's own bugs,
/// and checks what urdfdom does not.
///
/// Before urdfdom sees the text: size and XML nesting depth (TinyXML
/// recurses per level), then PrecheckUrdfXml: every value urdfdom parses,
/// the elements it requires, and a link graph that is one tree (urdfdom
/// leaks the links of a cycle). urdfdom runs with its console_bridge logging
/// unable to format (DisableUrdfdomLogFormatting: it passes URDF text to
/// printf as the format). The model returned frees its link tree when
/// dropped whatever its shape. After parsing: revolute and prismatic axes
/// non-zero (a fixed joint's axis is ignored, real files carry 0 0 0
/// there), lower <= upper, velocity >= 0, mimic targets that exist and no
/// mimic cycles. Every error is InvalidArgument,
/// starts with "urdf: ", names the link, joint, element and attribute, and
/// quotes text from the file with QuoteUntrusted (no raw '%').
absl::StatusOr<std::shared_ptr<urdf::ModelInterface>> ParseUrdf(absl::string_view urdf_text,
                                                                const ModelLimits& limits);

}  // namespace motion
