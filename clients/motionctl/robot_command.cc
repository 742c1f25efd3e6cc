#include "clients/motionctl/commands.h"

#include <cstdio>
#include <iostream>

#include "clients/motionctl/output.h"
#include "clients/motionctl/robot_argument.h"
#include "clients/motionctl/usage.h"

namespace motionctl {

using motion::client::MotionClient;
namespace v1 = motion::v1;

int RunRobot(MotionClient& client, const CommandLine& cli) {
  if (cli.positional.size() != 2) return PrintUsage(stderr), 1;
  v1::GetRobotRequest request;
  request.set_robot_id(ResolveRobotArgument(client, cli.positional[1]));
  if (request.robot_id().empty()) return 1;
  request.set_base_link(cli.Flag("base"));
  request.set_tip_link(cli.Flag("tip"));
  v1::RobotInfo info;
  grpc::Status status = client.GetRobot(request, &info);
  if (!status.ok()) return ReportRpcError("GetRobot", status);
  if (cli.Has("json")) return std::cout << ToJson(info) << "\n", 0;
  PrintRobotInfo(info, true);
  return 0;
}

}  // namespace motionctl
