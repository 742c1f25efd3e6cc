#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "clients/motionctl/plan_plot.h"
#include "clients/motionctl/plot_frame.h"

namespace motionctl {

/// \brief One quantity of every joint over time as a ratio to the joint's
/// limit, and its largest magnitude.
struct RatioSeries {
  std::string title;
  std::vector<double> time;   ///< one per row of `ratio`
  std::vector<double> ratio;  ///< time.size() x dof; NaN where the joint has no such limit
  double peak = 0;            ///< the largest |ratio|
  int peak_joint = -1;        ///< -1: no finite ratio at all
  std::size_t peak_row = 0;   ///< the row of `time` and `ratio` it is in
};

/// \brief Position (-1 at the lower, +1 at the upper limit; continuous
/// joints NaN), velocity, acceleration and jerk (divided differences of
/// consecutive accelerations over the sample time, at the interval's
/// midpoint), each over its limit, from the first `samples` samples.
std::vector<RatioSeries> JointRatios(const PlanPlotData& data, std::size_t samples);

/// \brief The half-height of a panel's y range: 1.15 so that the limit
/// lines show, more for a ratio beyond them, at most 3.
double PanelRange(const RatioSeries& series);

/// \brief One panel in `frame` (its x range the time axis), with the
/// title row above it: grid, the limit lines at +-1, segment starts, one
/// curve per joint, the peak, the diagnostics, y tick labels.
void DrawJointPanel(RasterCanvas& canvas, const PlotFrame& frame, const Ticks& time_ticks,
                    const RatioSeries& series, const PlanPlotData& data);

}  // namespace motionctl
