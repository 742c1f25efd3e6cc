#pragma once

// The UR5 programs more than one benchmark plans, so their figures compare:
// the robot file, poses with the tool pointing down, and the long MoveL.

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <Eigen/Geometry>

#include "core/geometry/pose.h"
#include "core/motion/motion_request.h"

namespace bench_programs {

inline std::string ReadRobot(const std::string& name) {
  std::ifstream in(std::string(MOTIOND_ROBOTS_DIR) + "/" + name, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

inline const std::vector<double> kHome = {0.0, -1.5708, 1.5708, -1.5708, -1.5708, 0.0};

/// The TCP at (x, y, z), tool z pointing down.
inline motion::Pose Down(double x, double y, double z) {
  motion::Pose p;
  p.position = Eigen::Vector3d(x, y, z);
  p.orientation = Eigen::Quaterniond(0, 0, 1, 0);
  return p;
}

/// A MoveJ approach, then 0.3 m at 0.0305 m/s with 1 m/s^2: ~2 700 samples
/// at 4 ms.
inline motion::PathRequest LongMoveL() {
  motion::PathRequest r;
  r.start_joints = kHome;
  motion::MotionSegment approach;
  approach.kind = motion::MotionKind::kMoveJ;
  approach.target = Down(0.40, -0.15, 0.25);
  motion::MotionSegment line;
  line.kind = motion::MotionKind::kMoveL;
  line.target = Down(0.40, 0.15, 0.25);
  line.speed.linear_velocity = 0.0305;
  r.segments = {approach, line};
  return r;
}

}  // namespace bench_programs
