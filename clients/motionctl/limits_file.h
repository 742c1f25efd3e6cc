#pragma once

#include <string>
#include <vector>

#include "clients/motion_client.h"
#include "clients/motionctl/command_line.h"

namespace motionctl {

/// \brief --limits=FILE.json: the robot's real joint limits, the JSON form
/// of motion.v1.RobotRef's joint_limits, e.g.
///   {"joint_limits": [{"joint_name": "elbow_joint", "max_velocity": 1.5,
///                      "max_jerk": 40}]}
/// (0 or absent keeps a value). Attaches them to every request for
/// `robot_id` the client sends, and copies them to `applied` when given
/// (a plot draws against them). True without the flag; false with a
/// message on stderr when the file cannot be read or parsed.
bool ApplyLimitsFlag(motion::client::MotionClient& client, const CommandLine& cli,
                     const std::string& robot_id,
                     std::vector<motion::v1::JointLimitOverride>* applied = nullptr);

}  // namespace motionctl
