#pragma once

#include <cstddef>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <Eigen/Geometry>

#include "core/collision/robot_collision_model.h"
#include "core/model/chain_model.h"

namespace motion {

/// \brief One robot of a cell: its chain and collision geometry, where its
/// base stands, and the sampled program it runs from `start_time` on.
///
/// The program is in the robot's base frame: `times` (s from the program's
/// own start, increasing, the first 0) and `positions` (row-major,
/// chain->dof() per sample). In the cell the robot holds its first
/// configuration before `start_time` and its last one after the program
/// ends; between samples its joints move linearly.
struct CellRobotProgram {
  std::string name;
  std::shared_ptr<const ChainModel> chain;
  std::shared_ptr<const RobotCollisionModel> collision;
  Eigen::Isometry3d X_CB = Eigen::Isometry3d::Identity();  ///< base frame B in the cell frame C
  std::vector<double> times;
  std::vector<double> positions;
  double start_time = 0.0;  ///< s from the cell's zero, >= 0
  /// Its own links against each other too (off for a robot whose geometry
  /// is only the stand-ins for meshes not sent: too coarse to fail on).
  bool self_collision = true;

  double duration() const { return times.empty() ? 0.0 : times.back(); }
};

/// \brief Bounds and tolerances of one cell check.
struct CellOptions {
  double sample_time = 0.004;  ///< s, > 0: the grid suggested start times lie on
  double safety_margin = 0.0;  ///< m, >= 0: closer than this is a contact
  /// Below this bound on how far two robots' points move together (m), an
  /// interval whose ends are clear is taken as clear (as for one robot).
  double resolution = 1e-4;
  /// Instants per broad-phase window: each robot's swept box over that many
  /// instants decides whether a pair is checked instant by instant there.
  int window = 32;
  /// Instants the cell is checked at, over all robots (each robot's samples
  /// shifted by its start time, merged): a bound on the work of one check.
  std::size_t max_instants = 400000;
  /// Start times SuggestStartTimes may try per robot (its horizon over the
  /// sample time): each is a check of that robot against the earlier ones.
  std::size_t max_start_candidates = 50000;
  /// Record the smallest distance at every instant (CellVerdict::clearance):
  /// every window of every pair is then measured, none skipped.
  bool record_clearance = false;
};

/// \brief Two things in contact over a stretch of the cell's time: a link
/// of robot_a and a link of robot_b (`other`), or, with robot_b empty, a
/// scene object (`other` its id). A robot's self contact names it twice.
struct CellContact {
  std::string robot_a, link_a, robot_b, other;
  double start_time = 0.0;  ///< s, cell time: earliest instant found in contact
  double end_time = 0.0;    ///< s, latest
  double depth = 0.0;       ///< m, deepest penetration seen (margin included)
};

/// \brief Outcome of a cell check.
struct CellVerdict {
  bool collision_free = true;
  std::vector<CellContact> contacts;
  /// m, smallest distance robot-robot and robot-scene at the instants and
  /// halvings checked (< 0: penetration); +inf when there is nothing to
  /// measure (one robot, empty scene).
  double min_clearance = std::numeric_limits<double>::infinity();
  /// With CellOptions::record_clearance: the cell's instants (s) and the
  /// smallest robot-robot or robot-scene distance at each (m).
  std::vector<double> clearance_times, clearance;
};

}  // namespace motion
