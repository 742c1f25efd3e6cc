#pragma once

#include <cstddef>

#include "clients/motionctl/plan_plot.h"

namespace motionctl {

/// \brief The TCP path of the first `samples` samples in `area`: a caption,
/// then the path seen from above (y over x) and from the side (z over x),
/// both at one scale equal on both axes, so that a straight MoveL looks
/// straight and the two views compare. Start (green dot), end (black
/// cross) and the diagnostics tied to a sample (red dots) are marked.
void DrawTcpViews(RasterCanvas& canvas, PixelRect area, const PlanPlotData& data,
                  std::size_t samples);

}  // namespace motionctl
