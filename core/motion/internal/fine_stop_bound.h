#pragma once

#include <cstddef>

#include "core/geometry/pose.h"
#include "core/motion/motion_request.h"

namespace motion {

/// \brief A lower bound (s) on how long MoveL/MoveC segments first..last
/// take when planned one by one with fine stops, the first from the TCP
/// pose `start`: none is faster than its programmed timing (the TCP's own
/// profile under its speed, CartesianProfile), played request.speed_override
/// slower, whatever binds on the joints; the first counts half when a zone
/// before it may blend into it (an overlap reaches at most its middle).
/// Negative when some segment has no path (a degenerate arc): no bound.
///
/// A blended run that is no slower than this beats fine stops without
/// planning them.
double FineStopsLowerBound(const PathRequest& request, std::size_t first, std::size_t last,
                           const Pose& start, bool blend_into_first);

}  // namespace motion
