#pragma once

#include <Eigen/Core>

namespace motion {

// Closed forms for a segment (a capsule's core; a point for a sphere) and a
// box, both in the box's frame: the box is centred at the origin, axis
// aligned, of half edge lengths `half`.

/// \brief Distance from segment pq to the box: the squared distance to a
/// box along the segment is convex and piecewise quadratic (its pieces end
/// where the segment crosses a face plane), so its minimum is found
/// exactly on the piece where its derivative changes sign.
double SegmentBoxDistance(const Eigen::Vector3d& p, const Eigen::Vector3d& q,
                          const Eigen::Vector3d& half);

/// \brief How far the segment must move to leave the box (> 0: they
/// intersect; <= 0: they do not, and the value is no distance). The box
/// less the segment is a polytope whose faces are normal to the box's axes
/// or to a box axis crossed with the segment, so the smallest overlap over
/// those six axes is the exact penetration depth (separating axis test).
double SegmentBoxPenetration(const Eigen::Vector3d& p, const Eigen::Vector3d& q,
                             const Eigen::Vector3d& half);

}  // namespace motion
