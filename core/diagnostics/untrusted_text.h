#pragma once

#include <cstddef>
#include <string>

#include "absl/strings/string_view.h"

namespace motion {

/// \brief `text` from a request (a link name, an attribute value) made safe
/// to put into an error message, in single quotes.
///
/// A client or a log reader may hand the message to a printf-style function,
/// and urdfdom once did exactly that with URDF text: '%' therefore never
/// appears raw. Kept as they are: printable ASCII and well-formed UTF-8
/// (link names in Chinese stay readable). Written as \xNN: '%', '\'', '\\',
/// control bytes and malformed UTF-8. Longer than `max_bytes`: cut there,
/// with the number of bytes left out, so a 4 MB value costs no 4 MB reply.
std::string QuoteUntrusted(absl::string_view text, std::size_t max_bytes = 96);

/// \brief `message` with every '%' written as \x25: the last guard before a
/// message leaves the process, whatever it quotes.
std::string WithoutPercentSigns(absl::string_view message);

}  // namespace motion
