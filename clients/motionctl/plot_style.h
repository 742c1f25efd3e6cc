#pragma once

#include "clients/motionctl/raster_canvas.h"

// The colours of the plan picture, in one place so that each means one
// thing: a joint, a limit, a diagnostic.
namespace motionctl {

inline constexpr Rgb kWhite{255, 255, 255};
inline constexpr Rgb kBlack{0, 0, 0};
inline constexpr Rgb kText{30, 30, 30};
inline constexpr Rgb kMutedText{105, 105, 105};
inline constexpr Rgb kFrameGrey{120, 120, 120};
inline constexpr Rgb kGridGrey{228, 228, 228};
inline constexpr Rgb kSegmentGrey{160, 160, 160};
inline constexpr Rgb kOkGreen{0, 128, 0};
inline constexpr Rgb kFailedRed{180, 0, 0};  ///< the title's FAILED, not a marker
inline constexpr Rgb kPathBlue{52, 73, 94};
inline constexpr Rgb kStartGreen{0, 160, 60};

/// \brief The diagnostic markers' colour (matplotlib's tab:red); nothing
/// else in the picture uses it, so its pixels are there exactly when a
/// diagnostic is marked.
inline constexpr Rgb kDiagnosticRed{214, 39, 40};

/// \brief Joint `index`'s colour: matplotlib's tab10 without its red (the
/// diagnostics') and grey (the grid's), repeating after eight joints.
inline Rgb JointColour(int index) {
  constexpr Rgb kPalette[] = {{31, 119, 180}, {255, 127, 14},  {44, 160, 44},  {148, 103, 189},
                              {140, 86, 75},  {227, 119, 194}, {188, 189, 34}, {23, 190, 207}};
  constexpr int kCount = sizeof kPalette / sizeof kPalette[0];
  return kPalette[((index % kCount) + kCount) % kCount];
}

}  // namespace motionctl
