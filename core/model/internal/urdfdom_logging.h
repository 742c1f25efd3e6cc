#pragma once

namespace motion {

/// \brief Makes sure urdfdom can never run printf over text from a URDF.
///
/// urdfdom 3.0.1 (Debian 12) reports many parse errors as
/// `CONSOLE_BRIDGE_logError(e.what())` or with a link or material name
/// spliced into the format, so "%s" or "%n" in a URDF attribute becomes a
/// printf directive: a read through a garbage pointer (crash), a write
/// (abort), or stack and heap addresses in the text (fixed upstream in
/// urdfdom 5.1.0). console_bridge formats only when an output handler is
/// installed and the message's level is at or above the threshold, so with
/// no handler and the threshold at NONE no format string is ever expanded.
/// urdfdom's messages are lost with it; ParseUrdf checks the XML itself
/// first and writes its own messages, naming the element and attribute.
///
/// Process-wide and idempotent; cheap enough to call before every parse,
/// which also undoes any handler someone installed since.
void DisableUrdfdomLogFormatting();

}  // namespace motion
