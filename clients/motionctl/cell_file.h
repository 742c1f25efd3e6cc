#pragma once

#include <string>
#include <vector>

#include "motion/v1/motion_planner.pb.h"

namespace motionctl {

/// \brief A cell file: the JSON form of motion.v1.ValidateCellRequest
/// (proto field names), except that a robot's "robot" may be a plain string
/// (resolved like the ROBOT argument), its "program" a path to a program
/// file (as `motionctl plan` reads, relative to the cell file), and "scene"
/// a path to a scene file (as --scene reads). See clients/examples/*cell*.json.
struct CellFile {
  motion::v1::ValidateCellRequest request;
  /// Per robot, the string form of its robot (or its program file's), ""
  /// when the request already names it.
  std::vector<std::string> robots;
  bool has_scene_file = false;
  motion::v1::Scene scene;  ///< the scene file's, when has_scene_file
};

/// \brief Reads and parses `path`; false with a message in `error`.
bool ReadCellFile(const std::string& path, CellFile* cell, std::string* error);

}  // namespace motionctl
