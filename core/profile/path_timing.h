#pragma once

#include <cstddef>
#include <vector>

namespace motion {

/// \brief The time-optimal timing problem along a fixed path s in [0, 1],
/// on a grid of `nodes` values of s (nodes >= 2): `s` increasing from 0 to
/// 1, or empty for a uniform grid.
///
/// Each of `quantities` values y(s) (a joint, the TCP's distance along the
/// path, its rotation) is described at every node by its derivatives with
/// respect to s, so that along a timing s(t) its rates are
///   velocity      y' sd
///   acceleration  y' sdd + y'' sd^2
///   jerk          y' sddd + 3 y'' sd sdd + y''' sd^3
/// and each is bounded by the quantity's limit (infinite: unbounded; a
/// jerk limit of infinity drops jerk altogether, as a trapezoid does).
/// `linear` adds constraints lo <= a sdd + b sd^2 + c <= hi per node (joint
/// torques: a = M q', b = M q'' + C q', c = g).
struct PathTimingProblem {
  int nodes = 0;
  std::vector<double> s;
  int quantities = 0;
  std::vector<double> d1, d2, d3;                                ///< nodes x quantities, row-major
  std::vector<double> max_velocity, max_acceleration, max_jerk;  ///< per quantity
  struct Linear {
    std::vector<double> a, b, c;  ///< per node
    double lower = 0.0, upper = 0.0;
  };
  std::vector<Linear> linear;
  /// Optional caps on sd^2 per node (empty: none), for a caller that found
  /// the sampled motion beyond a limit somewhere and slows it there.
  std::vector<double> max_speed_squared;
  /// sd^2 at each end (0: at rest). A positive one is held over the end's
  /// interval (its two nodes, sdd = 0 there), so that a stretch of a longer
  /// timing that cruises where it is cut out can be solved on its own and
  /// put back (nodes >= 5 then).
  double start_speed_squared = 0.0;
  double end_speed_squared = 0.0;
};

/// \brief sd^2 at every node of the fastest timing found, at rest at both
/// ends (sd = sdd = 0), with the rates of every quantity within its limits at
/// the nodes: acceleration on every interval (at both of its nodes), jerk at
/// every node by central differences of sd^2 (sddd = (sd^2)'' sd / 2).
struct PathTimingSolution {
  std::vector<double> x;  ///< sd^2
  int sweeps = 0;
  bool converged = false;
  /// False when a held end speed (start_speed_squared, end_speed_squared)
  /// could not be kept: some constraint next to it asked for less.
  bool ends_held = true;
};

/// \brief Reachability analysis in the manner of TOPP-RA (Pham & Pham,
/// 2018), extended to jerk: starting from the maximum-velocity curve, sd^2
/// at each node is only ever lowered, by backward (braking) and forward
/// (accelerating) sweeps that each enforce a node's constraints given its
/// neighbours, until nothing changes. Velocity and acceleration bounds are
/// monotone in the neighbours, so these sweeps give TOPP-RA's time-optimal
/// answer; jerk, linearised at the current speed (sqrt(sd^2) frozen over a
/// sweep, exact at the fixed point), rounds the corners of that answer from
/// below: braking starts early enough, accelerating builds up.
PathTimingSolution SolvePathTiming(const PathTimingProblem& problem);

/// \brief s(t) of a solution, as the sweeps model it: sdd constant on each
/// interval between nodes (sd^2 linear in s), except the intervals from and
/// to rest, where jerk is constant (s ~ t^3) so that the motion starts and
/// stops with zero acceleration. Jerk is then the change of sdd at each node
/// over the time between nodes, which is what the sweeps bound; on a grid
/// whose intervals are shorter than a sample the samples' third divided
/// differences average those changes. Uniformly slower by StretchTo.
class PathTiming {
 public:
  struct State {
    double s = 0.0, sd = 0.0, sdd = 0.0;
  };
  /// \brief Through sd^2 = x at nodes s (empty: uniform on [0, 1]).
  explicit PathTiming(const std::vector<double>& x, const std::vector<double>& s = {});

  double duration() const { return scale_ * time_.back(); }
  /// \brief Plays the same timing in `duration` (>= duration()).
  void StretchTo(double duration);
  State At(double t) const;
  /// \brief sd^2 at s, linear between nodes (for comparisons).
  double SpeedSquaredAt(double s) const;
  /// \brief The time each interval between nodes takes (own time).
  double IntervalTime(std::size_t i) const { return time_[i + 1] - time_[i]; }
  const std::vector<double>& nodes() const { return s_; }

 private:
  bool Cubic(std::size_t interval) const;

  std::vector<double> s_, v_, time_;  ///< per node
  std::vector<double> a_;             ///< per interval: sdd
  double scale_ = 1.0;                ///< path time per own time
  std::vector<double> x_;
};

/// \brief The nodes of `timing` with every interval longer than
/// `max_interval_time` (own time) split into equal parts in s that are not
/// (an interval from rest lasts ~ h^(1/3), so those are split
/// geometrically, halving towards the rest), at most `max_nodes` in all.
std::vector<double> RefinedGrid(const PathTiming& timing, double max_interval_time, int max_nodes);

}  // namespace motion
