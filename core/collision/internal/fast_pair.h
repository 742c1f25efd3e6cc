#pragma once

#include <optional>

#include "core/collision/internal/pair_outcome.h"
#include "core/collision/internal/primitive.h"

namespace motion {

/// \brief The own narrowphase for two placed convex primitives, exact
/// distances and depths: spheres and capsules against each other and
/// against boxes in closed form, box-box depth by separating axes, every
/// other distance by GJK on the cores (gjk.h).
///
/// Empty when FCL must decide: a mesh, or a cylinder pair whose cores
/// overlap (no closed form for that depth here; contacts are rare).
/// With neither want_distance nor a margin, a pair apart reports
/// distance 0 (as TestPair: no distance was asked).
std::optional<PairOutcome> FastPair(const Primitive& a, const Primitive& b, bool want_distance,
                                    double margin);

}  // namespace motion
