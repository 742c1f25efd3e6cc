#pragma once

#include <string_view>
#include <vector>

#include "clients/motionctl/raster_canvas.h"

namespace motionctl {

/// \brief Tick positions along one axis and the step between them.
struct Ticks {
  std::vector<double> values;
  double step = 1;
};

/// \brief 1-2-5 ticks over [lo, hi], about `target` intervals (NiceTicks).
Ticks MakeTicks(double lo, double hi, int target);

/// \brief A chart's plotting area: the pixel rectangle and the data values
/// at its edges (x_min at the left column, y_max at the top row).
struct PlotFrame {
  PixelRect rect;
  double x_min = 0, x_max = 1, y_min = 0, y_max = 1;

  double X(double x) const;  ///< pixel column of a data x (fractional)
  double Y(double y) const;  ///< pixel row of a data y (fractional)
};

/// \brief Light lines at every tick inside the frame.
void DrawGrid(RasterCanvas& canvas, const PlotFrame& frame, const Ticks& x, const Ticks& y);
/// \brief The frame's outline, one pixel outside its rectangle.
void DrawBorder(RasterCanvas& canvas, const PlotFrame& frame);
/// \brief Tick values right-aligned left of the frame, centred on their row.
void DrawYTickLabels(RasterCanvas& canvas, const PlotFrame& frame, const Ticks& y);
/// \brief Tick values centred under the frame.
void DrawXTickLabels(RasterCanvas& canvas, const PlotFrame& frame, const Ticks& x);

/// \brief Text whose right end is at `right`.
void TextRightAligned(RasterCanvas& canvas, int right, int y, std::string_view text, Rgb colour,
                      int scale = 1);
/// \brief Text drawn twice, one pixel apart: a bold face for titles.
void BoldText(RasterCanvas& canvas, int x, int y, std::string_view text, Rgb colour, int scale = 1);

}  // namespace motionctl
