#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "clients/motionctl/png_writer.h"

namespace motionctl {

struct Rgb {
  std::uint8_t r = 0, g = 0, b = 0;
  bool operator==(const Rgb& o) const { return r == o.r && g == o.g && b == o.b; }
  bool operator!=(const Rgb& o) const { return !(*this == o); }
};

/// \brief A point in canvas coordinates: pixel (x, y) has its centre at
/// (x, y), x to the right and y down from the top-left pixel.
struct Point {
  double x = 0, y = 0;
};

/// \brief Pixels x to x + width - 1, y to y + height - 1.
struct PixelRect {
  int x = 0, y = 0, width = 0, height = 0;
};

/// \brief An RGB canvas to draw a chart on: filled rectangles, lines of any
/// width (anti-aliased or not), dashed lines and text in the 5 x 8 bitmap
/// font. Everything is confined to the clip rectangle.
///
/// A stroke is drawn by coverage: a pixel whose centre lies within width/2
/// of the segment is fully covered, anti-aliasing fades the next pixel out.
/// A polyline's segments share one coverage mask (the larger coverage
/// wins), so the many short segments of a sampled curve do not darken
/// where they overlap.
class RasterCanvas {
 public:
  RasterCanvas(int width, int height, Rgb background);

  int width() const { return image_.width; }
  int height() const { return image_.height; }
  const RgbImage& image() const { return image_; }
  /// The pixel's colour; black outside the canvas.
  Rgb At(int x, int y) const;

  /// Off: a pixel is either the stroke's colour or left as it was.
  void set_antialias(bool on) { antialias_ = on; }

  /// Confines drawing to `clip` (within the canvas) until the next call.
  void SetClip(PixelRect clip);
  void ResetClip();

  void FillRect(PixelRect rect, Rgb colour);
  /// A segment from `a` to `b` with round ends; a == b draws a dot of
  /// diameter `width`.
  void Line(Point a, Point b, Rgb colour, double width = 1.0);
  /// Joined segments; a point with a non-finite coordinate breaks the line.
  void Polyline(const std::vector<Point>& points, Rgb colour, double width = 1.0);
  /// Dashes of `dash` pixels with gaps of `gap` pixels, from `a` on.
  void DashedLine(Point a, Point b, Rgb colour, double width, double dash, double gap);

  /// Text with its top-left corner at (x, y), each font pixel drawn as a
  /// `scale` x `scale` square. Bytes outside printable ASCII are drawn as
  /// '?', one per UTF-8 character.
  void Text(int x, int y, std::string_view text, Rgb colour, int scale = 1);
  /// Pixels the text advances by (its last glyph's spacing included).
  static int TextWidth(std::string_view text, int scale = 1);

 private:
  void Cover(Point a, Point b, double width);  // into coverage_, not yet painted
  void PaintCoverage(Rgb colour);
  void Blend(int x, int y, Rgb colour, double alpha);

  RgbImage image_;
  PixelRect clip_;
  bool antialias_ = true;
  std::vector<float> coverage_;                    // one per pixel, 0 outside the last stroke
  int dirty_x0_, dirty_y0_, dirty_x1_, dirty_y1_;  // the stroke's box, inclusive
};

}  // namespace motionctl
