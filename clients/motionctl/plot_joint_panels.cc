#include "clients/motionctl/plot_joint_panels.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace motionctl {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double Ratio(double value, double limit) {
  return std::isfinite(limit) && limit > 0 ? value / limit : kNaN;
}

void FindPeak(RatioSeries* s, std::size_t dof) {
  for (std::size_t k = 0; k < s->time.size(); ++k) {
    for (std::size_t j = 0; j < dof; ++j) {
      const double r = std::fabs(s->ratio[k * dof + j]);
      if (std::isfinite(r) && (s->peak_joint < 0 || r > s->peak)) {
        s->peak = r;
        s->peak_joint = static_cast<int>(j);
        s->peak_row = k;
      }
    }
  }
}

}  // namespace

std::vector<RatioSeries> JointRatios(const PlanPlotData& data, std::size_t samples) {
  const std::size_t dof = data.joints.size();
  std::vector<RatioSeries> out(4);
  out[0].title = "position in its range (-1 lower, +1 upper limit)";
  out[1].title = "velocity / max velocity";
  out[2].title = "acceleration / max acceleration";
  out[3].title = "jerk / max jerk (differences of accelerations)";
  for (int i = 0; i < 3; ++i) {
    out[i].time.assign(data.time.begin(), data.time.begin() + samples);
    out[i].ratio.resize(samples * dof);
  }
  for (std::size_t k = 0; k < samples; ++k) {
    for (std::size_t j = 0; j < dof; ++j) {
      const PlotJoint& joint = data.joints[j];
      const std::size_t at = k * dof + j;
      const bool ranged = joint.bounded && std::isfinite(joint.lower) &&
                          std::isfinite(joint.upper) && joint.upper > joint.lower;
      out[0].ratio[at] = ranged ? Ratio(data.positions[at] - 0.5 * (joint.lower + joint.upper),
                                        0.5 * (joint.upper - joint.lower))
                                : kNaN;
      out[1].ratio[at] = Ratio(data.velocities[at], joint.max_velocity);
      out[2].ratio[at] = Ratio(data.accelerations[at], joint.max_acceleration);
    }
  }
  // Jerk is not sent: the mean jerk over each sample interval.
  RatioSeries& jerk = out[3];
  for (std::size_t k = 0; k + 1 < samples; ++k) {
    const double dt = data.sample_time > 0 ? data.sample_time : data.time[k + 1] - data.time[k];
    jerk.time.push_back(0.5 * (data.time[k] + data.time[k + 1]));
    for (std::size_t j = 0; j < dof; ++j) {
      const double d = data.accelerations[(k + 1) * dof + j] - data.accelerations[k * dof + j];
      jerk.ratio.push_back(dt > 0 ? Ratio(d / dt, data.joints[j].max_jerk) : kNaN);
    }
  }
  // A joint left out is named, so that a missing curve is not taken for a flat one.
  for (int i = 0; i < 4; ++i) {
    std::string missing;
    for (const PlotJoint& joint : data.joints) {
      const bool has = i == 0   ? joint.bounded && joint.upper > joint.lower
                       : i == 1 ? joint.max_velocity > 0
                       : i == 2 ? joint.max_acceleration > 0
                                : joint.max_jerk > 0;
      if (!has) missing += (missing.empty() ? "" : ", ") + joint.name;
    }
    if (!missing.empty()) out[i].title += "; no limit, not shown: " + missing;
  }
  for (RatioSeries& s : out) FindPeak(&s, dof);
  return out;
}

double PanelRange(const RatioSeries& series) {
  return std::min(std::max(1.15, 1.05 * series.peak), 3.0);
}

void DrawJointPanel(RasterCanvas& canvas, const PlotFrame& frame, const Ticks& time_ticks,
                    const RatioSeries& series, const PlanPlotData& data) {
  const PixelRect& r = frame.rect;
  const std::size_t dof = data.joints.size();
  const int title_y = r.y - 14;
  BoldText(canvas, r.x, title_y, series.title, kText);
  if (series.peak_joint >= 0) {
    char peak[160];
    std::snprintf(peak, sizeof peak, "peak %.2f: %s at %.3f s%s", series.peak,
                  data.joints[series.peak_joint].name.c_str(), series.time[series.peak_row],
                  series.peak > 1.001 ? "  OVER THE LIMIT" : "");
    TextRightAligned(canvas, r.x + r.width - 1, title_y, peak, JointColour(series.peak_joint));
  }

  const Ticks y_ticks = MakeTicks(frame.y_min, frame.y_max, 5);
  DrawGrid(canvas, frame, time_ticks, y_ticks);
  canvas.SetClip(r);
  for (const PlotSegment& segment : data.segments) {
    if (segment.start_time <= frame.x_min) continue;  // the left border marks the first
    const double x = std::round(frame.X(segment.start_time));
    canvas.DashedLine({x, static_cast<double>(r.y)}, {x, static_cast<double>(r.y + r.height)},
                      kSegmentGrey, 1.0, 2.0, 3.0);
  }
  for (const double limit : {-1.0, 1.0}) {
    const double y = std::round(frame.Y(limit));
    canvas.DashedLine({static_cast<double>(r.x), y}, {static_cast<double>(r.x + r.width), y},
                      kBlack, 1.0, 7.0, 4.0);
  }
  // Diagnostics under the curves: a red line must not hide the value it is about.
  for (const PlotDiagnostic& d : data.diagnostics) {
    if (!d.has_time) continue;
    canvas.set_antialias(false);
    // Between two pixel centres: a stroke of width 2 covers exactly those two columns.
    const double x = std::floor(frame.X(d.time)) + 0.5;
    const Point top{x, static_cast<double>(r.y)}, bottom{x, static_cast<double>(r.y + r.height)};
    if (d.severity == "ERROR") {
      canvas.Line(top, bottom, kDiagnosticRed, 2.0);
    } else {
      canvas.DashedLine(top, bottom, kDiagnosticRed, 2.0, 6.0, 3.0);
    }
    canvas.set_antialias(true);
  }
  std::vector<Point> points(series.time.size());
  for (std::size_t j = 0; j < dof; ++j) {
    for (std::size_t k = 0; k < series.time.size(); ++k) {
      points[k] = {frame.X(series.time[k]), frame.Y(series.ratio[k * dof + j])};
    }
    canvas.Polyline(points, JointColour(static_cast<int>(j)), 1.5);
  }
  if (series.peak_joint >= 0) {
    const std::size_t k = series.peak_row;
    const Point at{frame.X(series.time[k]), frame.Y(series.ratio[k * dof + series.peak_joint])};
    canvas.Line(at, at, kBlack, 8.0);
    canvas.Line(at, at, JointColour(series.peak_joint), 5.0);
  }
  if (series.time.empty()) {
    const char* note = data.time.empty() ? "no samples" : "too few samples";
    canvas.Text(r.x + (r.width - RasterCanvas::TextWidth(note, 2)) / 2, r.y + r.height / 2 - 8,
                note, kMutedText, 2);
  }
  canvas.ResetClip();
  DrawBorder(canvas, frame);
  DrawYTickLabels(canvas, frame, y_ticks);
}

}  // namespace motionctl
