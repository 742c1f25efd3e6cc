#include "core/motion/internal/windowed_timing.h"

#include <algorithm>
#include <cmath>
#include <memory>

namespace motion {
namespace {

// Entries of the table that finds the programmed cruise.
constexpr int kCruiseTable = 4096;
// How often the windows may grow (doubling their padding).
constexpr int kGrowths = 4;
// Nodes per sample of the cruise inside a window, before refinement.
constexpr double kNodesPerSample = 2.0;

// Where the programmed timing cruises: its speed, the s range (a table
// step inside) and when it reaches the range's start.
struct Cruise {
  double speed = 0.0, from = 0.0, to = 0.0, t_from = 0.0;
  double TimeAt(double s) const { return t_from + (s - from) / speed; }
};

std::optional<Cruise> FindCruise(const PathProfile& exact) {
  const double duration = exact.duration();
  if (!(duration > 0)) return std::nullopt;
  std::vector<PathProfile::State> table(kCruiseTable + 1);
  double top = 0.0;
  for (int i = 0; i <= kCruiseTable; ++i) {
    table[i] = exact.At(duration * i / kCruiseTable);
    top = std::max(top, table[i].sd);
  }
  int first = -1, last = -1;
  for (int i = 0; i <= kCruiseTable; ++i) {
    if (table[i].sd < top * (1 - 1e-9) || std::abs(table[i].sdd) > 1e-9 * top) continue;
    if (first < 0) first = i;
    last = i;
  }
  if (first < 0 || last <= first + 1) return std::nullopt;
  Cruise c;
  c.speed = top;
  c.from = table[first + 1].s;
  c.to = table[last - 1].s;
  c.t_from = duration * (first + 1) / kCruiseTable;
  if (!(c.to > c.from)) return std::nullopt;
  return c;
}

// Windows of `pad` on each side of the trouble, merged, and reaching to
// rest where they leave the cruise.
std::vector<std::pair<double, double>> Windows(const std::vector<double>& trouble, double pad,
                                               const Cruise& cruise) {
  std::vector<std::pair<double, double>> out;
  for (double s : trouble) {
    double lo = s - pad, hi = s + pad;
    if (lo < cruise.from) lo = 0.0;
    if (hi > cruise.to) hi = 1.0;
    if (!out.empty() && lo <= out.back().second) {
      out.back().second = std::max(out.back().second, hi);
    } else {
      out.emplace_back(lo, hi);
    }
  }
  return out;
}

}  // namespace

std::optional<WindowedTiming> TimeInWindows(const JointCurve& curve, const SegmentContext& context,
                                            const SpeedSpec& speed, const CartesianExtent& extent,
                                            const PathProfile& exact, std::vector<double> trouble) {
  const std::optional<Cruise> cruise = FindCruise(exact);
  if (!cruise || trouble.empty()) return std::nullopt;
  std::sort(trouble.begin(), trouble.end());
  const double cruise_x = cruise->speed * cruise->speed;
  const double spacing =
      cruise->speed * context.sample_time * context.speed_override / kNodesPerSample;
  double pad = std::max(cruise->from, 1 - cruise->to);
  std::vector<std::pair<double, double>> windows;
  std::vector<std::shared_ptr<const PathTiming>> timings;
  for (int growth = 0;; ++growth, pad *= 2) {
    windows = Windows(trouble, pad, *cruise);
    if (windows.front().first <= 0.0 && windows.back().second >= 1.0 && windows.size() == 1) {
      return std::nullopt;  // the whole path
    }
    timings.clear();
    bool held = true;
    for (const auto& [lo, hi] : windows) {
      const CurveTiming t =
          SolveCurveTimingBetween(curve, context, speed, extent, lo, hi, lo > 0 ? cruise_x : 0.0,
                                  hi < 1 ? cruise_x : 0.0, spacing);
      const bool stalls = std::any_of(t.solution.x.begin() + 1, t.solution.x.end() - 1,
                                      [](double x) { return !(x > 0); });
      if (!t.solution.ends_held || stalls) {
        held = false;
        break;
      }
      timings.push_back(std::make_shared<const PathTiming>(t.solution.x, t.grid));
    }
    if (held) break;
    if (growth == kGrowths) return std::nullopt;
  }

  // The pieces in order: programmed (from a programmed time) or a window.
  struct Piece {
    double t0 = 0.0;
    std::shared_ptr<const PathTiming> window;  ///< null: programmed
    double programmed_t0 = 0.0;
  };
  auto programmed_time = [&](double s) {
    return s <= 0 ? 0.0 : s >= 1 ? exact.duration() : cruise->TimeAt(s);
  };
  std::vector<Piece> pieces;
  double t = 0.0, at = 0.0;
  for (std::size_t w = 0; w < windows.size(); ++w) {
    if (windows[w].first > at) {
      pieces.push_back(Piece{t, nullptr, programmed_time(at)});
      t += programmed_time(windows[w].first) - programmed_time(at);
    }
    pieces.push_back(Piece{t, timings[w], 0.0});
    t += timings[w]->duration();
    at = windows[w].second;
  }
  if (at < 1.0) {
    pieces.push_back(Piece{t, nullptr, programmed_time(at)});
    t += exact.duration() - programmed_time(at);
  }
  WindowedTiming out;
  out.duration = t;
  out.windows = windows;
  out.law = [pieces, exact](double time) {
    auto it = std::upper_bound(pieces.begin(), pieces.end(), time,
                               [](double v, const Piece& p) { return v < p.t0; });
    const Piece& p = *(it == pieces.begin() ? it : it - 1);
    if (p.window) return p.window->At(time - p.t0);
    const PathProfile::State st = exact.At(p.programmed_t0 + (time - p.t0));
    return PathTiming::State{st.s, st.sd, st.sdd};
  };
  return out;
}

}  // namespace motion
