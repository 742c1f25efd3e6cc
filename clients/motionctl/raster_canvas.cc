#include "clients/motionctl/raster_canvas.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "clients/motionctl/bitmap_font.h"

namespace motionctl {
namespace {

bool IsUtf8Continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// Liang-Barsky: trims the segment a-b to the box; false when none of it is
// inside. Also what keeps far-away or huge coordinates from reaching the
// per-pixel loop.
bool ClipSegment(double x0, double y0, double x1, double y1, Point* a, Point* b) {
  const double dx = b->x - a->x, dy = b->y - a->y;
  double t0 = 0, t1 = 1;
  const double p[4] = {-dx, dx, -dy, dy};
  const double q[4] = {a->x - x0, x1 - a->x, a->y - y0, y1 - a->y};
  for (int i = 0; i < 4; ++i) {
    if (p[i] == 0) {
      if (q[i] < 0) return false;
      continue;
    }
    const double t = q[i] / p[i];
    if (p[i] < 0) {
      t0 = std::max(t0, t);
    } else {
      t1 = std::min(t1, t);
    }
    if (t0 > t1) return false;
  }
  const Point start = *a;
  *a = {start.x + t0 * dx, start.y + t0 * dy};
  *b = {start.x + t1 * dx, start.y + t1 * dy};
  return true;
}

}  // namespace

RasterCanvas::RasterCanvas(int width, int height, Rgb background) {
  image_.width = std::max(width, 0);
  image_.height = std::max(height, 0);
  image_.pixels.resize(static_cast<std::size_t>(image_.width) * image_.height * 3);
  for (std::size_t i = 0; i < image_.pixels.size(); i += 3) {
    image_.pixels[i] = background.r;
    image_.pixels[i + 1] = background.g;
    image_.pixels[i + 2] = background.b;
  }
  coverage_.assign(static_cast<std::size_t>(image_.width) * image_.height, 0.0f);
  ResetClip();
  dirty_x0_ = dirty_y0_ = std::numeric_limits<int>::max();
  dirty_x1_ = dirty_y1_ = -1;
}

Rgb RasterCanvas::At(int x, int y) const {
  if (x < 0 || y < 0 || x >= image_.width || y >= image_.height) return {};
  const std::uint8_t* p = &image_.pixels[(static_cast<std::size_t>(y) * image_.width + x) * 3];
  return {p[0], p[1], p[2]};
}

void RasterCanvas::SetClip(PixelRect clip) {
  const int x0 = std::max(clip.x, 0), y0 = std::max(clip.y, 0);
  const int x1 = std::min(clip.x + clip.width, image_.width);
  const int y1 = std::min(clip.y + clip.height, image_.height);
  clip_ = {x0, y0, std::max(x1 - x0, 0), std::max(y1 - y0, 0)};
}

void RasterCanvas::ResetClip() { clip_ = {0, 0, image_.width, image_.height}; }

void RasterCanvas::Blend(int x, int y, Rgb colour, double alpha) {
  std::uint8_t* p = &image_.pixels[(static_cast<std::size_t>(y) * image_.width + x) * 3];
  if (alpha >= 1.0) {
    p[0] = colour.r, p[1] = colour.g, p[2] = colour.b;
    return;
  }
  const std::uint8_t target[3] = {colour.r, colour.g, colour.b};
  for (int i = 0; i < 3; ++i) {
    p[i] = static_cast<std::uint8_t>(std::lround(p[i] + (target[i] - p[i]) * alpha));
  }
}

void RasterCanvas::FillRect(PixelRect rect, Rgb colour) {
  const int x0 = std::max(rect.x, clip_.x), y0 = std::max(rect.y, clip_.y);
  const int x1 = std::min(rect.x + rect.width, clip_.x + clip_.width);
  const int y1 = std::min(rect.y + rect.height, clip_.y + clip_.height);
  for (int y = y0; y < y1; ++y) {
    for (int x = x0; x < x1; ++x) Blend(x, y, colour, 1.0);
  }
}

void RasterCanvas::Cover(Point a, Point b, double width) {
  if (!std::isfinite(a.x) || !std::isfinite(a.y) || !std::isfinite(b.x) || !std::isfinite(b.y) ||
      !(width > 0) || clip_.width == 0 || clip_.height == 0) {
    return;
  }
  const double half = 0.5 * width;
  const double reach = half + 1.0;  // the farthest a pixel centre can be and still be touched
  if (!ClipSegment(clip_.x - reach, clip_.y - reach, clip_.x + clip_.width - 1 + reach,
                   clip_.y + clip_.height - 1 + reach, &a, &b)) {
    return;
  }
  const int x0 = std::max(clip_.x, static_cast<int>(std::floor(std::min(a.x, b.x) - reach)));
  const int x1 =
      std::min(clip_.x + clip_.width - 1, static_cast<int>(std::ceil(std::max(a.x, b.x) + reach)));
  const int y0 = std::max(clip_.y, static_cast<int>(std::floor(std::min(a.y, b.y) - reach)));
  const int y1 =
      std::min(clip_.y + clip_.height - 1, static_cast<int>(std::ceil(std::max(a.y, b.y) + reach)));
  const double dx = b.x - a.x, dy = b.y - a.y;
  const double length2 = dx * dx + dy * dy;
  for (int y = y0; y <= y1; ++y) {
    for (int x = x0; x <= x1; ++x) {
      double t = length2 > 0 ? ((x - a.x) * dx + (y - a.y) * dy) / length2 : 0.0;
      t = std::clamp(t, 0.0, 1.0);
      const double distance = std::hypot(x - (a.x + t * dx), y - (a.y + t * dy));
      const double c =
          antialias_ ? std::clamp(half + 0.5 - distance, 0.0, 1.0) : (distance <= half ? 1.0 : 0.0);
      if (c <= 0) continue;
      float& cell = coverage_[static_cast<std::size_t>(y) * image_.width + x];
      cell = std::max(cell, static_cast<float>(c));
      dirty_x0_ = std::min(dirty_x0_, x), dirty_x1_ = std::max(dirty_x1_, x);
      dirty_y0_ = std::min(dirty_y0_, y), dirty_y1_ = std::max(dirty_y1_, y);
    }
  }
}

void RasterCanvas::PaintCoverage(Rgb colour) {
  for (int y = dirty_y0_; y <= dirty_y1_; ++y) {
    for (int x = dirty_x0_; x <= dirty_x1_; ++x) {
      float& cell = coverage_[static_cast<std::size_t>(y) * image_.width + x];
      if (cell > 0) Blend(x, y, colour, cell);
      cell = 0;
    }
  }
  dirty_x0_ = dirty_y0_ = std::numeric_limits<int>::max();
  dirty_x1_ = dirty_y1_ = -1;
}

void RasterCanvas::Line(Point a, Point b, Rgb colour, double width) {
  Cover(a, b, width);
  PaintCoverage(colour);
}

void RasterCanvas::Polyline(const std::vector<Point>& points, Rgb colour, double width) {
  for (std::size_t i = 1; i < points.size(); ++i) Cover(points[i - 1], points[i], width);
  // A lone finite point between breaks is still shown, as a dot.
  for (std::size_t i = 0; i < points.size(); ++i) {
    const auto finite = [&](std::size_t k) {
      return k < points.size() && std::isfinite(points[k].x) && std::isfinite(points[k].y);
    };
    if (finite(i) && (i == 0 || !finite(i - 1)) && !finite(i + 1)) {
      Cover(points[i], points[i], width);
    }
  }
  PaintCoverage(colour);
}

void RasterCanvas::DashedLine(Point a, Point b, Rgb colour, double width, double dash, double gap) {
  const double length = std::hypot(b.x - a.x, b.y - a.y);
  if (!std::isfinite(length) || !(dash > 0) || !(gap >= 0)) return;
  if (length == 0) return Line(a, b, colour, width);
  const double ux = (b.x - a.x) / length, uy = (b.y - a.y) / length;
  // A dash's round ends add half the width on each side; shortening it by
  // that keeps dashes and gaps the lengths asked for.
  const double trim = std::min(0.5 * width, 0.5 * dash);
  for (double s = 0; s < length; s += dash + gap) {
    const double s0 = s + trim, s1 = std::min(s + dash, length) - trim;
    if (s1 < s0) continue;
    Cover({a.x + s0 * ux, a.y + s0 * uy}, {a.x + s1 * ux, a.y + s1 * uy}, width);
  }
  PaintCoverage(colour);
}

void RasterCanvas::Text(int x, int y, std::string_view text, Rgb colour, int scale) {
  scale = std::max(scale, 1);
  int pen = x;
  for (char c : text) {
    if (IsUtf8Continuation(c)) continue;
    const std::uint8_t* rows = GlyphRows(c);
    for (int row = 0; row < kGlyphHeight; ++row) {
      for (int col = 0; col < kGlyphWidth; ++col) {
        if (rows[row] & (1u << (kGlyphWidth - 1 - col))) {
          FillRect({pen + col * scale, y + row * scale, scale, scale}, colour);
        }
      }
    }
    pen += kGlyphAdvance * scale;
  }
}

int RasterCanvas::TextWidth(std::string_view text, int scale) {
  int glyphs = 0;
  for (char c : text) glyphs += IsUtf8Continuation(c) ? 0 : 1;
  return glyphs * kGlyphAdvance * std::max(scale, 1);
}

}  // namespace motionctl
