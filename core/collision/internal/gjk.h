#pragma once

#include <limits>

#include "core/collision/internal/primitive.h"

namespace motion {

/// \brief Distance between the cores of two convex primitives (the shapes
/// less their swept radii: see Primitive), by GJK (Gilbert, Johnson,
/// Keerthi) over their support functions; 0 when the cores intersect (or
/// are within ~1e-12 of their size of touching).
/// Meshes are not convex primitives: never pass one.
///
/// Polytope pairs end on an exact face of the Minkowski difference; curved
/// ones (cylinders) when the gap between the distance found and GJK's lower
/// bound is below 1e-12 of it, so the result is exact to ~1e-12 relative.
/// Once the lower bound exceeds `enough` it returns that bound (> enough):
/// a caller that only asks "closer than x?" stops there.
double CoreDistance(const Primitive& a, const Primitive& b,
                    double enough = std::numeric_limits<double>::infinity());

}  // namespace motion
