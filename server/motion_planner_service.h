#pragma once

#include "motion/v1/motion_planner.grpc.pb.h"

namespace motion::server {

/// \brief motion.v1.MotionPlanner. PlanPath and ValidatePath arrive with the
/// planners; until then the generated base class answers UNIMPLEMENTED, and
/// registering the service makes that explicit (instead of "unknown service").
class MotionPlannerService final : public v1::MotionPlanner::CallbackService {};

}  // namespace motion::server
