#pragma once

#include <functional>

#include "absl/status/statusor.h"
#include "core/ik/ik_data.h"
#include "core/model/chain_model.h"
#include "core/motion/motion_request.h"
#include "core/motion/trajectory.h"

namespace motion {

/// \brief Plans a whole program: segments in order, each starting where the
/// previous one ended (same time, same joints; the shared sample appears
/// once), times and indices continuous, per-segment reports, cycle time.
///
/// A motion that cannot be done is a result with ok = false and diagnostics
/// saying why and where (segment id, sample index), never an error. After a
/// failed segment (or any segment with an error diagnostic, even one sampled
/// to its end), stop_on_error stops the path; otherwise planning goes on
/// from that segment's target (joints, or IK of its pose seeded with the
/// segment's start) so later problems are reported too, and the trajectory
/// is marked discontinuous there. An empty program is PATH_EMPTY; non-fine
/// zones stop at the target and say ZONE_APPROXIMATED.
///
/// Errors: InvalidArgument naming the field (sample_time <= 0 or below
/// limits.min_sample_time, speed_override outside (0, 1], negative or
/// non-finite speeds, wrong joint counts, too many segments, and samples that
/// would exceed limits.max_points
/// (checked per segment before it is sampled), Cancelled when `cancelled`
/// returns true (polled between segments and every 64 samples).
/// `data` is this thread's IkData for `model` (ChainDataCache::For).
absl::StatusOr<PathResult> PlanPath(const ChainModel& model, IkData& data,
                                    const PathRequest& request, const PathLimits& limits,
                                    const std::function<bool()>& cancelled = {});

}  // namespace motion
