#pragma once

#include <vector>

#include <Eigen/Core>

#include "core/collision/motion_checker.h"
#include "core/planning/internal/random_stream.h"
#include "core/planning/internal/search_interrupt.h"

namespace motion {

struct RrtConnectSettings {
  Eigen::VectorXd lower, upper;  ///< the sampling box (contains start and goal)
  double step = 0.5;             ///< longest edge, Euclidean joint norm
  int max_iterations = 0;        ///< tree extensions over both trees
  double goal_bias = 0.0;
};

struct RrtConnectOutcome {
  bool connected = false;
  std::vector<Eigen::VectorXd> path;  ///< start ... goal when connected
  int start_tree_nodes = 0, goal_tree_nodes = 0, iterations = 0;
};

/// \brief RRT-Connect (Kuffner & LaValle 2000) between two clear joint
/// vectors: the trees take turns to extend one step towards a sample and,
/// when that worked, the other tree connects (extends repeatedly) towards
/// the new node. Every edge is checked by `checker`. Stops when the trees
/// meet, at max_iterations, or when `interrupt` says so.
RrtConnectOutcome RrtConnect(MotionChecker& checker, const Eigen::VectorXd& start,
                             const Eigen::VectorXd& goal, const RrtConnectSettings& settings,
                             RandomStream& random, SearchInterrupt& interrupt);

}  // namespace motion
