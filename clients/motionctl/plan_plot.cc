#include "clients/motionctl/plan_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "clients/motionctl/bitmap_font.h"
#include "clients/motionctl/plot_frame.h"
#include "clients/motionctl/plot_joint_panels.h"
#include "clients/motionctl/plot_tcp_views.h"

namespace motionctl {
namespace {

// The layout, in pixels (kPlanPlotWidth x kPlanPlotHeight).
constexpr int kMargin = 12;
constexpr int kLegendY = 34;
constexpr int kSegmentRowY = 52;     // segment names over the time axis
constexpr int kDiagnosticRowY = 63;  // diagnostic numbers over the time axis
constexpr int kPanelLeft = 76;
constexpr int kPanelWidth = 850;
constexpr int kFirstPanelY = 90;
constexpr int kPanelHeight = 145;
constexpr int kPanelPitch = kPanelHeight + 14 + 10;  // the title row and a gap
constexpr int kTcpLeft = 985;
constexpr int kDiagnosticListY = 782;
constexpr int kListedDiagnostics = 8;

std::string Truncated(std::string text, int max_pixels, int scale) {
  const int max_chars = max_pixels / (kGlyphAdvance * scale);
  if (RasterCanvas::TextWidth(text, scale) <= max_pixels) return text;
  text.resize(std::max(max_chars - 3, 0));
  return text + "...";
}

std::size_t CompleteSamples(const PlanPlotData& data) {
  const std::size_t dof = data.joints.size();
  std::size_t n = data.time.size();
  if (dof > 0) {
    n = std::min({n, data.positions.size() / dof, data.velocities.size() / dof,
                  data.accelerations.size() / dof});
  }
  return n;
}

void DrawTitle(RasterCanvas& canvas, const PlanPlotData& data, std::size_t samples) {
  char rest[160];
  std::snprintf(rest, sizeof rest, ", cycle time %.3f s, %zu samples every %g ms", data.cycle_time,
                samples, data.sample_time * 1e3);
  const char* status = data.ok ? "ok" : "FAILED";
  const int room =
      kPlanPlotWidth - 2 * kMargin - RasterCanvas::TextWidth(std::string(status) + rest + ": ", 2);
  const std::string title = Truncated(data.title, room, 2) + ": ";
  int x = kMargin;
  BoldText(canvas, x, 8, title, kText, 2);
  x += RasterCanvas::TextWidth(title, 2);
  BoldText(canvas, x, 8, status, data.ok ? kOkGreen : kFailedRed, 2);
  x += RasterCanvas::TextWidth(status, 2);
  BoldText(canvas, x, 8, rest, kText, 2);
}

void DrawLegend(RasterCanvas& canvas, const PlanPlotData& data) {
  int x = kPanelLeft;
  const double mid = kLegendY + 3.0;
  for (std::size_t j = 0; j < data.joints.size(); ++j) {
    canvas.Line({x + 1.0, mid}, {x + 17.0, mid}, JointColour(static_cast<int>(j)), 3.0);
    canvas.Text(x + 22, kLegendY, data.joints[j].name, kText);
    x += 22 + RasterCanvas::TextWidth(data.joints[j].name) + 14;
  }
  canvas.DashedLine({x + 0.0, std::round(mid)}, {x + 24.0, std::round(mid)}, kBlack, 1.0, 7.0, 4.0);
  canvas.Text(x + 30, kLegendY, "limit (+-1)", kText);
  x += 30 + RasterCanvas::TextWidth("limit (+-1)") + 14;
  canvas.DashedLine({x + 4.0, kLegendY - 1.0}, {x + 4.0, kLegendY + 8.0}, kSegmentGrey, 1.0, 2.0,
                    3.0);
  canvas.Text(x + 10, kLegendY, "segment start", kText);
  x += 10 + RasterCanvas::TextWidth("segment start") + 14;
  if (!data.diagnostics.empty()) {
    canvas.FillRect({x + 3, kLegendY - 1, 2, 10}, kDiagnosticRed);
    canvas.Text(x + 10, kLegendY, "diagnostic (dashed: warning or info)", kText);
  }
}

// Segment names and diagnostic numbers above the first panel, on its time axis.
void DrawTimeLabels(RasterCanvas& canvas, const PlotFrame& axis, const PlanPlotData& data) {
  canvas.Text(kMargin - 6, kSegmentRowY, "segment", kMutedText);
  // Times off the axis (or not numbers at all) get no label.
  const auto on_axis = [&](double t) { return t >= axis.x_min && t <= axis.x_max; };
  int end = -1000;  // of the last name, which the next one must not overwrite
  for (const PlotSegment& s : data.segments) {
    if (!on_axis(s.start_time)) continue;
    const int x = static_cast<int>(std::lround(axis.X(s.start_time))) + 2;
    if (x < end + 6) continue;  // no room: the dotted line still marks it
    const std::string name = Truncated(s.id, axis.rect.x + axis.rect.width - x, 1);
    canvas.Text(x, kSegmentRowY, name, kMutedText);
    end = x + RasterCanvas::TextWidth(name);
  }
  // The listed diagnostics by time; those that would overlap share a label.
  std::vector<int> order;
  for (int i = 0; i < static_cast<int>(data.diagnostics.size()) && i < kListedDiagnostics; ++i) {
    if (data.diagnostics[i].has_time && on_axis(data.diagnostics[i].time)) order.push_back(i);
  }
  if (order.empty()) return;
  canvas.Text(kMargin - 6, kDiagnosticRowY, "diagnostic", kDiagnosticRed);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return data.diagnostics[a].time < data.diagnostics[b].time;
  });
  std::string label;
  int label_x = 0;
  const auto flush = [&] {
    if (!label.empty()) canvas.Text(label_x, kDiagnosticRowY, label, kDiagnosticRed);
  };
  for (int i : order) {
    const int x = static_cast<int>(std::lround(axis.X(data.diagnostics[i].time))) - 2;
    const std::string number = std::to_string(i + 1);
    if (!label.empty() && x < label_x + RasterCanvas::TextWidth(label) + 4) {
      label += "," + number;
      continue;
    }
    flush();
    label = number;
    label_x = std::max(x, kPanelLeft - 2);
  }
  flush();
}

void DrawDiagnosticList(RasterCanvas& canvas, const PlanPlotData& data) {
  int y = kDiagnosticListY;
  const int n = static_cast<int>(data.diagnostics.size());
  if (n == 0) {
    canvas.Text(kMargin, y, "no diagnostics", kMutedText);
    return;
  }
  char heading[120];
  std::snprintf(heading, sizeof heading, "%d diagnostic%s%s", n, n == 1 ? "" : "s",
                n > kListedDiagnostics ? " (the first 8 listed and numbered)" : "");
  BoldText(canvas, kMargin, y, heading, kText);
  y += 13;
  for (int i = 0; i < n && i < kListedDiagnostics; ++i, y += 11) {
    const PlotDiagnostic& d = data.diagnostics[i];
    const std::string number = std::to_string(i + 1);
    canvas.Text(kMargin, y, number, kDiagnosticRed);
    char at[48] = "";
    if (d.has_time) std::snprintf(at, sizeof at, " t=%.3f s", d.time);
    const std::string line = d.severity + " " + d.code + " [" +
                             (d.segment_id.empty() ? "path" : d.segment_id) + "]" + at + ": " +
                             d.message;
    const int x = kMargin + 18;
    canvas.Text(x, y, Truncated(line, kPlanPlotWidth - kMargin - x, 1), kText);
  }
  if (n > kListedDiagnostics) {
    char more[64];
    std::snprintf(more, sizeof more, "... and %d more (motionctl plan prints them all)",
                  n - kListedDiagnostics);
    canvas.Text(kMargin + 18, y, more, kMutedText);
  }
}

}  // namespace

RgbImage RenderPlanPlot(const PlanPlotData& data) {
  RasterCanvas canvas(kPlanPlotWidth, kPlanPlotHeight, kWhite);
  const std::size_t samples = CompleteSamples(data);
  DrawTitle(canvas, data, samples);
  DrawLegend(canvas, data);

  double t0 = 0, t1 = data.cycle_time;
  if (samples > 0) {
    t0 = std::min(t0, data.time.front());
    t1 = std::max(t1, data.time[samples - 1]);
  }
  if (!std::isfinite(t0) || !std::isfinite(t1) || !(t1 > t0)) t0 = 0, t1 = 1;
  const Ticks time_ticks = MakeTicks(t0, t1, 10);
  const std::vector<RatioSeries> series = JointRatios(data, samples);
  PlotFrame frame;
  for (std::size_t i = 0; i < series.size(); ++i) {
    const double range = PanelRange(series[i]);
    frame = {
        {kPanelLeft, kFirstPanelY + static_cast<int>(i) * kPanelPitch, kPanelWidth, kPanelHeight},
        t0,
        t1,
        -range,
        range};
    if (i == 0) DrawTimeLabels(canvas, frame, data);
    DrawJointPanel(canvas, frame, time_ticks, series[i], data);
  }
  DrawXTickLabels(canvas, frame, time_ticks);
  char axis[96];
  std::snprintf(axis, sizeof axis, "time (s), a sample every %g ms", data.sample_time * 1e3);
  const int axis_y = frame.rect.y + frame.rect.height + 18;
  canvas.Text(kPanelLeft + (kPanelWidth - RasterCanvas::TextWidth(axis)) / 2, axis_y, axis, kText);

  const int tcp_top = kFirstPanelY - 14;
  DrawTcpViews(canvas,
               {kTcpLeft, tcp_top, kPlanPlotWidth - kMargin - kTcpLeft, axis_y + 8 - tcp_top}, data,
               samples);
  DrawDiagnosticList(canvas, data);
  return canvas.image();
}

}  // namespace motionctl
