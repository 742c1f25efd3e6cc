#include "clients/motionctl/plot_frame.h"

#include <cmath>
#include <string>

#include "clients/motionctl/bitmap_font.h"
#include "clients/motionctl/plot_style.h"
#include "clients/motionctl/plot_ticks.h"

namespace motionctl {

Ticks MakeTicks(double lo, double hi, int target) {
  return {NiceTicks(lo, hi, target), NiceStep(lo, hi, target)};
}

double PlotFrame::X(double x) const {
  return rect.x + (x - x_min) / (x_max - x_min) * (rect.width - 1);
}

double PlotFrame::Y(double y) const {
  return rect.y + (y_max - y) / (y_max - y_min) * (rect.height - 1);
}

void DrawGrid(RasterCanvas& canvas, const PlotFrame& frame, const Ticks& x, const Ticks& y) {
  const PixelRect& r = frame.rect;
  // Whole pixels: a grid line is crisp, not two half-grey rows.
  for (double v : x.values) {
    canvas.FillRect({static_cast<int>(std::lround(frame.X(v))), r.y, 1, r.height}, kGridGrey);
  }
  for (double v : y.values) {
    canvas.FillRect({r.x, static_cast<int>(std::lround(frame.Y(v))), r.width, 1}, kGridGrey);
  }
}

void DrawBorder(RasterCanvas& canvas, const PlotFrame& frame) {
  const PixelRect& r = frame.rect;
  canvas.FillRect({r.x - 1, r.y - 1, r.width + 2, 1}, kFrameGrey);
  canvas.FillRect({r.x - 1, r.y + r.height, r.width + 2, 1}, kFrameGrey);
  canvas.FillRect({r.x - 1, r.y - 1, 1, r.height + 2}, kFrameGrey);
  canvas.FillRect({r.x + r.width, r.y - 1, 1, r.height + 2}, kFrameGrey);
}

void DrawYTickLabels(RasterCanvas& canvas, const PlotFrame& frame, const Ticks& y) {
  for (double v : y.values) {
    const int row = static_cast<int>(std::lround(frame.Y(v)));
    canvas.FillRect({frame.rect.x - 4, row, 3, 1}, kFrameGrey);
    TextRightAligned(canvas, frame.rect.x - 6, row - 3, FormatTick(v, y.step), kText);
  }
}

void DrawXTickLabels(RasterCanvas& canvas, const PlotFrame& frame, const Ticks& x) {
  const int below = frame.rect.y + frame.rect.height + 1;
  for (double v : x.values) {
    const int column = static_cast<int>(std::lround(frame.X(v)));
    canvas.FillRect({column, below, 1, 3}, kFrameGrey);
    const std::string label = FormatTick(v, x.step);
    // The last glyph's spacing column is not part of what is seen.
    const int width = RasterCanvas::TextWidth(label) - (kGlyphAdvance - kGlyphWidth);
    canvas.Text(column - width / 2, below + 5, label, kText);
  }
}

void TextRightAligned(RasterCanvas& canvas, int right, int y, std::string_view text, Rgb colour,
                      int scale) {
  const int width = RasterCanvas::TextWidth(text, scale) - (kGlyphAdvance - kGlyphWidth) * scale;
  canvas.Text(right - width + 1, y, text, colour, scale);
}

void BoldText(RasterCanvas& canvas, int x, int y, std::string_view text, Rgb colour, int scale) {
  canvas.Text(x, y, text, colour, scale);
  canvas.Text(x + 1, y, text, colour, scale);
}

}  // namespace motionctl
