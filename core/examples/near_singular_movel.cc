// A UR5 MoveL that passes 4 cm from the wrist singularity at 0.25 m/s,
// planned in core, written as CSV for scripts/plot_near_singular_movel.py
// (docs/cartesian_motion.md): per sample the time, the TCP speed (FK
// differences), and per joint |velocity| / limit and |torque| / max_torque
// (inverse dynamics of the sampled positions). Exits 1 if the plan is not ok.
//
//   near_singular_movel robots/ur5.urdf > samples.csv
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "core/motion_core.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s UR5.urdf > samples.csv\n", argv[0]);
    return 2;
  }
  std::ifstream file(argv[1]);
  std::stringstream urdf;
  urdf << file.rdbuf();
  auto robot = motion::RobotModel::FromUrdf(urdf.str());
  if (!robot.ok()) return std::fprintf(stderr, "%s\n", robot.status().ToString().c_str()), 1;
  auto chain = (*robot)->Chain();
  if (!chain.ok()) return std::fprintf(stderr, "%s\n", chain.status().ToString().c_str()), 1;
  const motion::ChainModel& model = **chain;

  // The tool keeps its orientation while the TCP moves 0.4 m sideways around
  // the base: wrist_2 comes down from 0.15 to ~0.04 rad and back.
  const Eigen::VectorXd q0 = (Eigen::VectorXd(6) << 0.0, -1.2, 1.5, 0.0, 0.15, 0.0).finished();
  motion::IkData data(model);
  const Eigen::Isometry3d start = motion::ForwardKinematics(model, data.kinematics, q0);
  const Eigen::Vector3d p0 = start.translation();
  const Eigen::Vector3d tangent = Eigen::Vector3d(-p0.y(), p0.x(), 0.0).normalized();
  Eigen::Isometry3d goal = start;
  goal.translation() = p0 - 0.4 * tangent;
  motion::MotionSegment line;
  line.id = "past_the_wrist";
  line.kind = motion::MotionKind::kMoveL;
  line.orientation = motion::OrientationMode::kFixed;
  line.target = motion::Pose::FromIsometry(goal);
  line.speed.linear_velocity = 0.25;
  motion::PathRequest request;
  request.start_joints.assign(q0.data(), q0.data() + 6);
  request.segments = {line};
  auto plan = motion::PlanPath(model, data, request, motion::PathLimits{});
  if (!plan.ok()) return std::fprintf(stderr, "%s\n", plan.status().ToString().c_str()), 1;
  for (const motion::Diagnostic& d : plan->diagnostics)
    std::fprintf(stderr, "%s\n", d.message.c_str());
  if (!plan->ok) return 1;

  const motion::Trajectory& t = plan->trajectory;
  const double dt = request.sample_time;
  std::vector<double> torques;
  motion::DynamicsData dynamics(model);
  motion::SampledTorqueRatio(model, dynamics, model.dof_limits, t.positions, dt,
                             motion::kDefaultGravity, motion::Payload{}, 0, -1, &torques);
  std::printf("time,tcp_speed");
  for (const std::string& name : model.dof_names)
    std::printf(",%s_velocity,%s_torque", name.c_str(), name.c_str());
  std::printf("\n");
  for (std::size_t k = 0; k < t.size(); ++k) {
    const double speed = k == 0 ? 0.0 : (t.tcp[k].position - t.tcp[k - 1].position).norm() / dt;
    std::printf("%.4f,%.6f", t.time[k], speed);
    for (int j = 0; j < model.dof(); ++j) {
      const motion::JointLimits& l = model.dof_limits[j];
      std::printf(",%.6f,%.6f", std::abs(t.velocities[k * 6 + j]) / l.max_velocity,
                  l.max_torque > 0 ? std::abs(torques[k * 6 + j]) / l.max_torque : 0.0);
    }
    std::printf("\n");
  }
  std::fprintf(stderr, "%zu samples, %.3f s, max torque ratio %.3f\n", t.size(), plan->duration,
               plan->segments[0].max_joint_torque_ratio);
  return 0;
}
