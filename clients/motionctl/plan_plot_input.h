#pragma once

#include <string>
#include <vector>

#include "clients/motionctl/plan_plot.h"
#include "motion/v1/common.pb.h"
#include "motion/v1/motion_planner.pb.h"
#include "motion/v1/robot_registry.pb.h"

namespace motionctl {

/// \brief Gathers a PlanPath stream and the robot's limits into the
/// protobuf-free PlanPlotData that RenderPlanPlot draws.
class PlanPlotCollector {
 public:
  /// Feed every message of the stream, in order.
  void Add(const motion::v1::PlanPathResponse& message);

  /// \brief The joints' limits, in the header's (chain) order: the robot's
  /// description (GetRobot for the header's chain) with the request's
  /// joint limit overrides applied as the server applies them (a value
  /// above 0 replaces). False with a message when a joint of the plan is
  /// not in the description.
  bool SetLimits(const motion::v1::RobotInfo& info,
                 const std::vector<motion::v1::JointLimitOverride>& overrides, std::string* error);

  const motion::v1::PlanPathHeader& header() const { return header_; }

  /// \brief The data to draw, titled "<title> on <robot name>"; call after
  /// the stream ended and SetLimits.
  PlanPlotData Finish(const std::string& title);

 private:
  motion::v1::PlanPathHeader header_;
  motion::v1::PlanPathSummary summary_;
  std::string robot_name_;
  PlanPlotData data_;
  bool tcp_complete_ = true;  // every sample so far came with its TCP pose
};

}  // namespace motionctl
