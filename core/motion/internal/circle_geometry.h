#pragma once

#include <Eigen/Core>

#include "absl/status/statusor.h"
#include "core/motion/trajectory.h"

namespace motion {

/// \brief The circle through three points and the arc from `start` through
/// `via` to `end`.
///
/// With a = via - start, b = end - start and n = a x b, the centre is
///   c = start + ((|a|^2 b - |b|^2 a) x n) / (2 |n|^2),
/// the normal n / |n| makes start -> via -> end counter-clockwise, and the
/// swept angle is the angle of `end` seen from c, measured counter-clockwise
/// from `start` in (0, 2 pi).
struct Arc {
  ArcGeometry geometry;
  Eigen::Vector3d u;  ///< unit, centre -> start
  Eigen::Vector3d v;  ///< normal x u
  Eigen::Vector3d PointAt(double angle) const;
};

/// \brief The arc, or FailedPrecondition (ARC_DEGENERATE) when two points
/// are closer than `min_distance` (m), the three are collinear (the sine
/// of the angle between `via - start` and `end - start` below 1e-6), or
/// nearly so: a circle of more than kMaxRadiusPerChord times the longest
/// distance between the points (an arc that far from a line is a line
/// programmed as a circle, and a huge one if the via is off by a little).
inline constexpr double kMaxRadiusPerChord = 50.0;
absl::StatusOr<Arc> ArcThroughPoints(const Eigen::Vector3d& start, const Eigen::Vector3d& via,
                                     const Eigen::Vector3d& end, double min_distance = 1e-6);

}  // namespace motion
