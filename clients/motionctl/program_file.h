#pragma once

#include <string>

#include <google/protobuf/struct.pb.h>

#include "motion/v1/motion_planner.pb.h"

namespace motionctl {

/// \brief A motion program file: the JSON form of motion.v1.PlanPathRequest
/// (proto field names), except that "robot" may be a plain string — a
/// robot name, robot_id or URDF path, resolved like the ROBOT argument —
/// instead of a RobotRef object. See clients/examples/*.json.
struct ProgramFile {
  std::string robot;  ///< the string form, empty when "robot" was an object
  motion::v1::PlanPathRequest request;
};

/// \brief Reads `path` as a generic JSON document (so that fields a
/// message would refuse, such as "robot": "ur5", can be taken out first);
/// false with a message in `error`.
bool ReadJsonDocument(const std::string& path, google::protobuf::Struct* document,
                      std::string* error);

/// \brief Reads and parses `path`; false with a message in `error`.
bool ReadProgramFile(const std::string& path, ProgramFile* program, std::string* error);

}  // namespace motionctl
