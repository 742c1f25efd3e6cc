#include "clients/motionctl/commands.h"

#include <cstdio>
#include <iostream>
#include <string>

#include "clients/motionctl/output.h"
#include "clients/motionctl/usage.h"

namespace motionctl {

using motion::client::MotionClient;
namespace v1 = motion::v1;

int RunRobots(MotionClient& client, const CommandLine& cli) {
  v1::ListRobotsResponse response;
  grpc::Status status = client.ListRobots(&response);
  if (!status.ok()) return ReportRpcError("ListRobots", status);
  if (cli.Has("json")) return std::cout << ToJson(response) << "\n", 0;
  std::printf("%-24s %4s  %-34s %s\n", "name", "dof", "chain", "robot_id");
  for (const auto& r : response.robots()) {
    const std::string chain = r.base_link() + " -> " + r.tip_link();
    std::printf("%-24s %4d  %-34s %s\n", r.name().c_str(), r.dof(), chain.c_str(),
                r.robot_id().c_str());
  }
  return 0;
}

}  // namespace motionctl
