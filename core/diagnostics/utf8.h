#pragma once

#include <cstddef>

#include "absl/strings/string_view.h"

namespace motion {

/// \brief Length (2-4) of the well-formed UTF-8 sequence of a non-ASCII
/// character starting at s[i], or 0 if there is none: no overlong forms, no
/// surrogates, nothing above U+10FFFF, no sequence cut short by the end.
std::size_t Utf8SequenceLength(absl::string_view s, std::size_t i);

}  // namespace motion
