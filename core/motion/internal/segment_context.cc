#include "core/motion/internal/segment_context.h"

#include <cmath>

#include "core/profile/trapezoid_profile.h"

namespace motion {

long SegmentContext::PointsFor(double duration) const {
  const double count = SampleCount(duration, sample_time) - (Stores(0) ? 0 : 1);
  // Saturate instead of overflowing for absurd (or NaN) durations.
  return count <= 1e15 ? static_cast<long>(count) : static_cast<long>(1e15);
}

}  // namespace motion
