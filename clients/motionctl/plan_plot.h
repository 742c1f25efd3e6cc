#pragma once

#include <string>
#include <vector>

#include "clients/motionctl/plot_style.h"
#include "clients/motionctl/png_writer.h"

namespace motionctl {

/// \brief One joint of the chain and its limits (rad or m, per s^k).
struct PlotJoint {
  std::string name;
  bool bounded = false;  ///< has position limits (a continuous joint has none)
  double lower = 0, upper = 0;
  double max_velocity = 0, max_acceleration = 0, max_jerk = 0;  ///< 0: not known
};

struct PlotSegment {
  std::string id;
  double start_time = 0;  ///< s from the path's start
};

struct PlotDiagnostic {
  std::string severity;  ///< "ERROR", "WARNING" or "INFO"
  std::string code;      ///< e.g. "COLLISION"
  std::string segment_id;
  std::string message;
  bool has_time = false;  ///< tied to a sample; only then marked on the time axis
  double time = 0;        ///< s from the path's start
  bool has_tcp = false;   ///< `tcp` holds the TCP position at that sample
  double tcp[3] = {0, 0, 0};
};

/// \brief What a planned path's picture shows: the samples of a PlanPath
/// stream, the chain's limits and the summary, without protobuf.
struct PlanPlotData {
  std::string title;  ///< what was planned, e.g. "ur5: glue_path.json"
  bool ok = false;
  double cycle_time = 0;
  double sample_time = 0;
  std::vector<PlotJoint> joints;  ///< chain order, the column order below
  std::vector<double> time;       ///< one per sample
  /// time.size() x joints.size(), row-major, as TrajectoryChunk has them.
  std::vector<double> positions, velocities, accelerations;
  std::vector<double> tcp;  ///< time.size() x 3 (x, y, z in m), or empty
  std::vector<PlotSegment> segments;
  std::vector<PlotDiagnostic> diagnostics;
};

inline constexpr int kPlanPlotWidth = 1400;
inline constexpr int kPlanPlotHeight = 900;

/// \brief The picture, kPlanPlotWidth x kPlanPlotHeight on white:
/// - a title line (data.title, ok or FAILED, cycle time, sample count and
///   interval) and a legend with one colour per joint;
/// - left, four panels over time: position, velocity, acceleration and jerk
///   of every joint as a ratio to its limit, so that every limit is the
///   dashed line at +1 or -1 (position: -1 the lower, +1 the upper limit;
///   jerk: the divided differences of accelerations). The y range grows up
///   to +-3 to show how far a value goes beyond its limit; each panel's
///   title names its peak ratio, joint and time;
/// - segment starts as grey dotted lines (named above the first panel),
///   diagnostics tied to a sample as red vertical lines, numbered;
/// - right, the TCP path in the base frame seen from above (x-y) and from
///   the side (x-z) at one common scale, start and end marked;
/// - below, one line per diagnostic (number, severity, code, segment, time,
///   message), the first eight.
/// Inconsistent input (vectors of the wrong size) draws what is complete;
/// no samples draws the frames with a "no samples" note.
RgbImage RenderPlanPlot(const PlanPlotData& data);

}  // namespace motionctl
