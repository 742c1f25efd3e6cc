#pragma once

#include <cstddef>
#include <functional>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

#include <Eigen/Geometry>

#include "core/cell/cell_program.h"
#include "core/collision/collision_scene.h"
#include "core/collision/robot_snapshot.h"

namespace motion {

/// \brief Two robots' links in contact at one instant or halving.
struct PairHit {
  int robot_a = 0, robot_b = 0, link_a = 0, link_b = 0;
  std::size_t interval = 0;  ///< instant index; a halving: its interval's first instant
  double time = 0.0;         ///< s, cell time
  double depth = 0.0;        ///< m
};

/// \brief Robots of a cell on their common instants (CellInstants): each
/// robot's swept boxes per window of instants, then the pairs whose boxes
/// meet checked instant by instant and between instants.
class CellSweep {
 public:
  CellSweep(const std::vector<const CellRobotProgram*>& robots,
            const std::vector<double>& start_times, const CellOptions& options);
  ~CellSweep();

  /// \brief Every robot placed at every instant: its swept box per window
  /// (inflated by its links' motion bounds between instants) and, for a
  /// non-empty `scene` (cell frame), its smallest distance to it. False
  /// when `cancelled` fired.
  bool SweepRobots(const CollisionScene* scene, const std::function<bool()>& cancelled);

  /// \brief The `pairs` (indices into the robots), windows of nearest
  /// boxes first; windows whose boxes are farther apart than the margin
  /// and than the nearest distance found are skipped (they can neither
  /// touch nor be nearer). With `stop_at_first`, returns at the first
  /// contact. False when stopped (a contact or `cancelled`).
  bool CheckPairs(const std::vector<std::pair<int, int>>& pairs, bool stop_at_first,
                  const std::function<bool()>& cancelled);

  const std::vector<double>& instants() const { return instants_; }
  const std::vector<PairHit>& hits() const { return hits_; }
  /// m, smallest robot-robot distance found; +inf for none.
  double min_robot_distance() const { return min_robot_; }
  /// m, smallest robot-scene distance over the instants; +inf for none.
  double min_scene_distance() const { return min_scene_; }
  const RobotPlacer& placer(int robot) const { return *placers_[robot]; }
  /// With options.record_clearance: per instant, the smallest distance
  /// measured there (+inf: nothing measured).
  const std::vector<double>& instant_clearance() const { return instant_min_; }

 private:
  struct Point;
  struct RobotWindow;
  // Robot r placed at every instant of `window`, kept until another window
  // of r is asked for: the pairs of one window share their robots' work.
  const RobotWindow& WindowOf(int r, std::size_t window);
  // `instant`: the instant measured, or npos for a halving.
  void Measure(int a, int b, std::size_t interval, std::size_t instant, double time, Point& p);
  // Its distances and contacts into the results, at `instant` and `time`.
  void Record(int a, int b, std::size_t interval, std::size_t instant, double time, const Point& p);
  bool CheckWindow(int a, int b, std::size_t window, bool stop_at_first);
  // `bound_a`, `bound_b`: the robots' link bounds over the interval, when
  // known (null: computed).
  bool Walk(int a, int b, const Point& p0, const Point& p1, double t0, double t1,
            std::size_t interval, int depth, bool stop_at_first, const double* bound_a,
            const double* bound_b);

  std::vector<const CellRobotProgram*> robots_;
  std::vector<double> starts_;
  CellOptions options_;
  std::vector<double> instants_;
  std::size_t windows_ = 1;
  std::vector<std::unique_ptr<ChainData>> data_;
  std::vector<std::unique_ptr<RobotPlacer>> placers_;
  std::vector<std::vector<Eigen::AlignedBox3d>> boxes_;  ///< per robot, per window
  /// Per robot, per interval between instants, per link: its motion bound.
  std::vector<std::vector<double>> link_bounds_;
  std::vector<std::unique_ptr<RobotWindow>> windows_of_;  ///< per robot
  std::vector<std::unique_ptr<Point>> points_;  ///< two ends, then one middle per halving depth
  std::vector<std::vector<double>> bounds_a_, bounds_b_;  ///< per halving depth
  std::vector<PairHit> hits_;
  std::vector<double> instant_min_;
  double min_robot_ = std::numeric_limits<double>::infinity();
  double min_scene_ = std::numeric_limits<double>::infinity();
};

}  // namespace motion
