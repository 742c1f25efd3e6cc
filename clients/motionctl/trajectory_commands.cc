// `check-trajectory` and `resample`: trajectories from elsewhere, as CSV.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "clients/motionctl/commands.h"
#include "clients/motionctl/output.h"
#include "clients/motionctl/robot_argument.h"
#include "clients/motionctl/trajectory_csv.h"
#include "clients/motionctl/usage.h"

namespace motionctl {
namespace {

using motion::client::MotionClient;
namespace v1 = motion::v1;

// The robot (ROBOT word, --base, --tip), its chain's joint names, and the
// CSV (FILE word) with its position columns in that chain's order.
struct TrajectoryInput {
  v1::RobotRef robot;
  std::vector<std::string> joints;
  TrajectoryCsv csv;
};

bool ReadInput(MotionClient& client, const CommandLine& cli, TrajectoryInput* in) {
  if (cli.positional.size() != 3) return PrintUsage(stderr), false;
  const std::string id = ResolveRobotArgument(client, cli.positional[1]);
  if (id.empty()) return false;
  in->robot.set_robot_id(id);
  in->robot.set_base_link(cli.Flag("base"));
  in->robot.set_tip_link(cli.Flag("tip"));
  std::string error;
  if (!ReadTrajectoryCsv(cli.positional[2], &in->csv, &error)) {
    std::fprintf(stderr, "motionctl: %s\n", error.c_str());
    return false;
  }
  v1::GetRobotRequest get;
  get.set_robot_id(id);
  get.set_base_link(cli.Flag("base"));
  get.set_tip_link(cli.Flag("tip"));
  v1::RobotInfo info;
  const grpc::Status status = client.GetRobot(get, &info);
  if (!status.ok()) return ReportRpcError("GetRobot", status), false;
  for (const auto& joint : info.joints()) in->joints.push_back(joint.name());
  // A `plan --csv` file names its joints: they must be this chain's, in order.
  if (in->csv.named_joints && in->csv.joints != in->joints) {
    std::string chain;
    for (const auto& name : in->joints) chain += " " + name;
    std::fprintf(stderr,
                 "motionctl: %s: its columns are not the chain's joints in order (expected"
                 "%s)\n",
                 cli.positional[2].c_str(), chain.c_str());
    return false;
  }
  return true;
}

}  // namespace

int RunCheckTrajectory(MotionClient& client, const CommandLine& cli) {
  TrajectoryInput in;
  if (!ReadInput(client, cli, &in)) return 1;
  v1::CheckTrajectoryRequest request;
  *request.mutable_robot() = in.robot;
  request.mutable_time()->Assign(in.csv.time.begin(), in.csv.time.end());
  request.mutable_positions()->Assign(in.csv.positions.begin(), in.csv.positions.end());
  v1::CheckTrajectoryResponse response;
  const grpc::Status status = client.CheckTrajectory(request, &response);
  if (!status.ok()) return ReportRpcError("CheckTrajectory", status);
  if (cli.Has("json")) return std::cout << ToJson(response) << "\n", response.ok() ? 0 : 3;
  std::printf("%zu samples every %.6g s, cycle time %.6g s\n", in.csv.time.size(),
              response.sample_time(), response.cycle_time());
  std::printf("worst ratios: velocity %.4f  acceleration %.4f  jerk %.4f\n",
              response.max_joint_velocity_ratio(), response.max_joint_acceleration_ratio(),
              response.max_joint_jerk_ratio());
  for (const v1::Diagnostic& d : response.diagnostics()) {
    std::printf("%s  %s\n", v1::DiagnosticCode_Name(d.code()).c_str(), d.message().c_str());
  }
  std::printf("%s\n", response.ok() ? "ok: within every limit" : "NOT ok");
  return response.ok() ? 0 : 3;
}

int RunResample(MotionClient& client, const CommandLine& cli) {
  TrajectoryInput in;
  if (!ReadInput(client, cli, &in)) return 1;
  const std::string dt = cli.Flag("dt");
  char* end = nullptr;
  const double sample_time = std::strtod(dt.c_str(), &end);
  if (dt.empty() || *end != '\0') {
    std::fprintf(stderr, "motionctl: resample needs --dt=SECONDS (the new sample time)\n");
    return 1;
  }
  v1::ResampleTrajectoryRequest request;
  *request.mutable_robot() = in.robot;
  request.mutable_time()->Assign(in.csv.time.begin(), in.csv.time.end());
  request.mutable_positions()->Assign(in.csv.positions.begin(), in.csv.positions.end());
  request.set_sample_time(sample_time);
  v1::ResampleTrajectoryResponse response;
  const grpc::Status status = client.ResampleTrajectory(request, &response);
  if (!status.ok()) return ReportRpcError("ResampleTrajectory", status);
  if (cli.Has("json")) return std::cout << ToJson(response) << "\n", 0;
  const std::string out = cli.Flag("csv");
  if (!out.empty()) {
    std::string error;
    const std::vector<double> time(response.time().begin(), response.time().end()),
        q(response.positions().begin(), response.positions().end()),
        qd(response.velocities().begin(), response.velocities().end()),
        qdd(response.accelerations().begin(), response.accelerations().end());
    if (!WriteTrajectoryCsv(out, in.joints, time, q, qd, qdd, &error)) {
      std::fprintf(stderr, "motionctl: %s\n", error.c_str());
      return 1;
    }
  }
  std::printf("%zu samples at %.6g s -> %d samples at %.6g s (%.6g to %.6g s)%s%s\n",
              in.csv.time.size(), in.csv.time.size() > 1 ? in.csv.time[1] - in.csv.time[0] : 0.0,
              response.time_size(), sample_time, response.time(0),
              response.time(response.time_size() - 1), out.empty() ? "" : "; written to ",
              out.c_str());
  return 0;
}

}  // namespace motionctl
