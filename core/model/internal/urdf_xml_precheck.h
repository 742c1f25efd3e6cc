#pragma once

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "core/model/model_limits.h"

namespace motion {

/// \brief Checks URDF text, read with TinyXML as urdfdom reads it, before
/// urdfdom builds anything from it.
///
/// Two reasons. urdfdom's own messages cannot be shown (it formats URDF text
/// as printf directives; see DisableUrdfdomLogFormatting), so every value
/// urdfdom parses is checked here first, with a message that names the
/// element and attribute: the origin xyz/rpy of joints, visuals, collisions
/// and inertials; axis xyz; box size, cylinder radius/length, sphere radius,
/// mesh scale; mass and inertia; colour rgba (4 numbers in [0, 1]); limit,
/// safety_controller, calibration, dynamics and mimic values; and the
/// elements and attributes urdfdom requires (names, joint type, parent and
/// child, geometry, limit effort/velocity). And urdfdom links its tree with
/// shared pointers from parent to child, so joints that form a cycle leave a
/// ring of links that is never freed, even when urdfdom itself then rejects
/// the file: the link graph is checked here, so urdfdom only ever sees a
/// tree. Links must be unique and within `limits.max_links`, every joint
/// must name defined links, no link may have two parent joints, no chain of
/// parents may come back to where it started, and exactly one link may be
/// without a parent (the root).
///
/// Every error is InvalidArgument, starts with "urdf: ", and quotes names
/// and values with QuoteUntrusted. Assumes the XML nesting depth was
/// already bounded (TinyXML parses recursively).
absl::Status PrecheckUrdfXml(absl::string_view urdf_text, const ModelLimits& limits);

}  // namespace motion
