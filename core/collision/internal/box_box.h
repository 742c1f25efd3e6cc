#pragma once

#include "core/collision/internal/primitive.h"

namespace motion {

/// \brief How far box `b` must move to leave box `a` (> 0: they
/// intersect; <= 0: they do not, and the value is no distance). Separating
/// axis test over the 15 axes (3 + 3 face normals, 9 edge cross products,
/// normalised): the faces of the Minkowski difference of two boxes are
/// normal to those, so the smallest overlap is the exact penetration depth.
double BoxBoxPenetration(const Primitive& a, const Primitive& b);

}  // namespace motion
