#include "clients/motionctl/plot_tcp_views.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "clients/motionctl/plot_frame.h"

namespace motionctl {
namespace {

constexpr int kTickLabelWidth = 44;  // left of each view, for "-0.25"
constexpr int kViewTitleHeight = 14;
constexpr int kBelowView = 24;  // tick labels under a view

struct Extent {
  double lo = 0, hi = 0;
  double centre() const { return 0.5 * (lo + hi); }
  // A point or a line along one axis still gets some room (1 cm).
  double span() const { return std::max(hi - lo, 0.01) * 1.1; }
};

Extent ExtentOf(const std::vector<double>& tcp, std::size_t samples, int axis) {
  Extent e{tcp[axis], tcp[axis]};
  for (std::size_t k = 1; k < samples; ++k) {
    e.lo = std::min(e.lo, tcp[k * 3 + axis]);
    e.hi = std::max(e.hi, tcp[k * 3 + axis]);
  }
  return e;
}

void Cross(RasterCanvas& canvas, Point at, double half, Rgb colour) {
  canvas.Line({at.x - half, at.y - half}, {at.x + half, at.y + half}, colour, 2.0);
  canvas.Line({at.x - half, at.y + half}, {at.x + half, at.y - half}, colour, 2.0);
}

void DrawView(RasterCanvas& canvas, const PlotFrame& frame, const char* title,
              const PlanPlotData& data, std::size_t samples, int vertical_axis) {
  const PixelRect& r = frame.rect;
  BoldText(canvas, r.x, r.y - kViewTitleHeight, title, kText);
  const Ticks x_ticks = MakeTicks(frame.x_min, frame.x_max, 5);
  const Ticks y_ticks = MakeTicks(frame.y_min, frame.y_max, 5);
  DrawGrid(canvas, frame, x_ticks, y_ticks);
  canvas.SetClip(r);
  const auto at = [&](const double* xyz) {
    return Point{frame.X(xyz[0]), frame.Y(xyz[vertical_axis])};
  };
  std::vector<Point> path(samples);
  for (std::size_t k = 0; k < samples; ++k) path[k] = at(&data.tcp[k * 3]);
  canvas.Polyline(path, kPathBlue, 1.5);
  for (const PlotDiagnostic& d : data.diagnostics) {
    if (d.has_tcp) canvas.Line(at(d.tcp), at(d.tcp), kDiagnosticRed, 7.0);
  }
  canvas.Line(path.front(), path.front(), kStartGreen, 9.0);
  Cross(canvas, path.back(), 4.0, kBlack);
  canvas.ResetClip();
  DrawBorder(canvas, frame);
  DrawYTickLabels(canvas, frame, y_ticks);
  DrawXTickLabels(canvas, frame, x_ticks);
}

}  // namespace

void DrawTcpViews(RasterCanvas& canvas, PixelRect area, const PlanPlotData& data,
                  std::size_t samples) {
  BoldText(canvas, area.x, area.y, "TCP path in the base frame (m)", kText);
  int y = area.y + 14;
  canvas.Text(area.x, y, "top view: y over x; side view: z over x; one scale", kMutedText);
  y += 14;
  // The legend of the marks.
  int x = area.x;
  canvas.Line({x + 4.0, y + 3.0}, {x + 4.0, y + 3.0}, kStartGreen, 9.0);
  canvas.Text(x + 12, y, "start", kText);
  x += 50;
  Cross(canvas, {x + 4.0, y + 3.0}, 4.0, kBlack);
  canvas.Text(x + 12, y, "end", kText);
  x += 40;
  const bool any_marked = std::any_of(data.diagnostics.begin(), data.diagnostics.end(),
                                      [](const PlotDiagnostic& d) { return d.has_tcp; });
  if (any_marked) {
    canvas.Line({x + 4.0, y + 3.0}, {x + 4.0, y + 3.0}, kDiagnosticRed, 7.0);
    canvas.Text(x + 12, y, "diagnostic", kText);
  }
  y += 16;

  const int view_x = area.x + kTickLabelWidth;
  const int view_width = area.width - kTickLabelWidth;
  const int view_height = (area.y + area.height - y) / 2 - kViewTitleHeight - kBelowView;
  PlotFrame top{{view_x, y + kViewTitleHeight, view_width, view_height}};
  PlotFrame side{
      {view_x, top.rect.y + view_height + kBelowView + kViewTitleHeight, view_width, view_height}};
  if (samples == 0 || data.tcp.size() < samples * 3) {
    DrawBorder(canvas, top);
    DrawBorder(canvas, side);
    const char* note = samples == 0 ? "no samples" : "no TCP poses";
    canvas.Text(view_x + (view_width - RasterCanvas::TextWidth(note, 2)) / 2,
                top.rect.y + view_height / 2 - 8, note, kMutedText, 2);
    return;
  }
  const Extent ex = ExtentOf(data.tcp, samples, 0), ey = ExtentOf(data.tcp, samples, 1),
               ez = ExtentOf(data.tcp, samples, 2);
  // Pixels per metre, the same in both views and on both axes.
  const double scale = std::min(
      {(view_width - 1) / ex.span(), (view_height - 1) / ey.span(), (view_height - 1) / ez.span()});
  const double half_x = 0.5 * (view_width - 1) / scale, half_v = 0.5 * (view_height - 1) / scale;
  top.x_min = side.x_min = ex.centre() - half_x;
  top.x_max = side.x_max = ex.centre() + half_x;
  top.y_min = ey.centre() - half_v;
  top.y_max = ey.centre() + half_v;
  side.y_min = ez.centre() - half_v;
  side.y_max = ez.centre() + half_v;
  DrawView(canvas, top, "top view (y over x)", data, samples, 1);
  DrawView(canvas, side, "side view (z over x)", data, samples, 2);
}

}  // namespace motionctl
