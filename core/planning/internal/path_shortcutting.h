#pragma once

#include <vector>

#include <Eigen/Core>

#include "core/collision/motion_checker.h"
#include "core/planning/internal/random_stream.h"
#include "core/planning/internal/search_interrupt.h"

namespace motion {

/// \brief Length of a polyline in joint space (sum of Euclidean edge norms).
double JointPathLength(const std::vector<Eigen::VectorXd>& path);

/// \brief Up to `rounds` random shortcuts: two points drawn uniformly by
/// length along the path, on different edges, joined by their straight
/// motion when it is clear; the pieces of the two edges they cut are parts
/// of edges the checker passed, so every edge of the result is clear. Ends early after `patience`
/// rounds in a row without a shortcut, or when `interrupt` fires. Returns the shortcuts applied.
int ShortcutPath(MotionChecker& checker, std::vector<Eigen::VectorXd>& path, int rounds,
                 int patience, RandomStream& random, SearchInterrupt& interrupt);

/// \brief Drops each interior waypoint whose neighbours see each other
/// (their straight motion is clear), first to last.
void RemoveRedundantWaypoints(MotionChecker& checker, std::vector<Eigen::VectorXd>& path,
                              SearchInterrupt& interrupt);

}  // namespace motion
