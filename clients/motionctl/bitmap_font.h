#pragma once

#include <cstdint>

namespace motionctl {

/// \brief A 5 x 8 pixel font for printable ASCII (32 to 126): rows 0 to 6
/// hold capitals and digits, row 7 the descenders (g, j, p, q, y, comma,
/// underscore). Drawn in a 6 x 10 pixel cell: one column and two rows of
/// spacing.
inline constexpr int kGlyphWidth = 5;
inline constexpr int kGlyphHeight = 8;
inline constexpr int kGlyphAdvance = 6;
inline constexpr int kLineHeight = 10;

/// \brief The glyph of `c`, one byte per row from the top, bit 4 the
/// leftmost column. Characters outside 32 to 126 get the glyph of '?'.
const std::uint8_t* GlyphRows(char c);

}  // namespace motionctl
