// The whole core API in one program: URDF -> model -> FK -> IK -> a
// two-segment program (MoveJ, then a 10 cm MoveL), as a user would write it.
// Usage: urdf_to_program ROBOT.urdf   (exit 0 when every step worked)
#include <algorithm>
#include <fstream>
#include <iostream>
#include <sstream>

#include "core/motion_core.h"

int main(int argc, char** argv) {
  if (argc != 2) return std::cerr << "usage: urdf_to_program ROBOT.urdf\n", 2;
  std::stringstream urdf;
  urdf << std::ifstream(argv[1]).rdbuf();
  auto robot = motion::RobotModel::FromUrdf(urdf.str());  // default chain below
  if (!robot.ok()) return std::cerr << robot.status() << "\n", 1;
  auto chain = (*robot)->Chain();
  if (!chain.ok()) return std::cerr << chain.status() << "\n", 1;
  const motion::ChainModel& model = **chain;

  motion::ChainDataCache cache;  // one per thread
  motion::IkData& data = cache.For(*chain);
  // Start a quarter of the way from mid-range to the upper limits (mid-range
  // is the stretched-out singular pose on some arms).
  Eigen::VectorXd q0 = motion::MidRangeConfiguration(model);
  for (int j = 0; j < model.dof(); ++j) {
    const double upper = std::min(model.dof_limits[j].upper, q0[j] + 3.0);
    q0[j] += 0.25 * (upper - q0[j]);
  }
  const Eigen::Isometry3d flange = motion::ForwardKinematics(model, data.kinematics, q0);
  std::cout << "chain " << model.base_link << " -> " << model.tip_link << ", flange at "
            << flange.translation().transpose() << " m\n";

  // IK of a pose 5 cm lower, seeded at q0.
  Eigen::Isometry3d lower = flange;
  lower.translation().z() -= 0.05;
  const std::vector<double> seed(q0.data(), q0.data() + q0.size());
  auto ik = motion::SolveIk(model, data, motion::Pose::FromIsometry(lower),
                            motion::Pose::Identity(), seed, motion::IkOptions());
  if (!ik.ok() || !ik->ok) return std::cerr << "IK failed\n", 1;
  std::cout << "IK: " << ik->iterations << " iterations, error " << ik->position_error << " m\n";

  motion::PathRequest program;  // every speed and zone field has a default
  program.start_joints = seed;
  motion::MotionSegment to_pose;
  to_pose.id = "down";
  to_pose.joint_target = true;
  to_pose.target_joints.assign(ik->joints.data(), ik->joints.data() + ik->joints.size());
  motion::MotionSegment line;
  line.id = "line";
  line.kind = motion::MotionKind::kMoveL;
  // 10 cm towards the base axis, staying inside the workspace.
  const Eigen::Vector3d inwards(-lower.translation().x(), -lower.translation().y(), 0.0);
  line.target =
      motion::Pose::FromIsometry(Eigen::Translation3d(0.1 * inwards.normalized()) * lower);
  program.segments = {to_pose, line};
  auto path = motion::PlanPath(model, data, program, motion::PathLimits());
  if (!path.ok()) return std::cerr << path.status() << "\n", 1;
  for (const auto& d : path->diagnostics) std::cout << "  " << d.message << "\n";
  std::cout << "program " << (path->ok ? "ok" : "not ok") << ": " << path->trajectory.size()
            << " samples, cycle time " << path->duration << " s\n";
  return path->ok ? 0 : 1;
}
