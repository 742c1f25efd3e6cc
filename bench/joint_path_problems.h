#pragma once
// The joint path planning benchmark's problems: scenes of boxes in front of
// a robot (a table with a block, a shelf with four bins, a cage with an
// opening, a wall with a slot, a plain wall) and start / goal pairs whose
// tool lies in named regions of them, both clear, the straight motion
// between them not.

#include <memory>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "core/collision/collision_scene.h"
#include "core/collision/robot_collision_model.h"
#include "core/model/robot_model.h"

namespace motion_bench {

struct BenchRobot {
  std::string name;
  std::shared_ptr<const motion::RobotModel> model;
  std::shared_ptr<const motion::ChainModel> chain;
  std::shared_ptr<const motion::RobotCollisionModel> collision;
};

struct JointPathProblem {
  std::string name;  ///< robot/scene/pair
  const BenchRobot* robot = nullptr;
  std::shared_ptr<const motion::CollisionScene> scene;
  Eigen::VectorXd start, goal;
};

/// A bundled robot's default chain; its meshes are not sent, so every link
/// is a capsule between its joints.
BenchRobot LoadBenchRobot(const std::string& file);

/// Two problems per scene per robot. Start and goal are drawn by a fixed
/// seed (uniform joints within limits, kept when the tool is in the
/// scene's start / goal region and the whole arm is clear), so the set is
/// the same on every run and machine with the same code.
std::vector<JointPathProblem> BuildProblems(const std::vector<BenchRobot>& robots);

}  // namespace motion_bench
