#pragma once

#include <optional>

#include "core/geometry/pose.h"
#include "core/ik/ik_data.h"
#include "core/ik/ik_result.h"
#include "core/model/chain_model.h"
#include "motion/v1/kinematics.pb.h"

namespace motion::server {

/// \brief An IK result as answered by ComputeIk and CheckReachability: the
/// result, and when it is not ok the TCP (flange * tool) where its joints,
/// the closest the search came, put it. That pose is in `frame` when the
/// target was given in one (frame^-1 * tcp), else in the base frame, so a
/// client compares it with the target it sent.
void IkAnswerToProto(const ChainModel& chain, IkData& data, const IkResult& result,
                     const Pose& tool, const std::optional<Pose>& frame, v1::IkResult* out);

}  // namespace motion::server
