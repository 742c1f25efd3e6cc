#include "clients/motionctl/commands.h"

#include <cstdio>
#include <iostream>

#include "clients/motionctl/output.h"
#include "clients/motionctl/request_arguments.h"

namespace motionctl {

using motion::client::MotionClient;
namespace v1 = motion::v1;

int RunFk(MotionClient& client, const CommandLine& cli) {
  v1::ComputeFkRequest request;
  if (!FillRobotAndJoints(client, cli, &request)) return 1;
  request.set_all_links(cli.Has("all_links"));
  v1::ComputeFkResponse response;
  grpc::Status status = client.ComputeFk(request, &response);
  if (!status.ok()) return ReportRpcError("ComputeFk", status);
  if (cli.Has("json")) return std::cout << ToJson(response) << "\n", 0;
  std::printf("flange  %s\ntcp     %s\n", FormatPose(response.flange()).c_str(),
              FormatPose(response.tcp()).c_str());
  for (const auto& link : response.links()) {
    std::printf("  %-22s %s\n", link.link().c_str(), FormatPose(link.pose()).c_str());
  }
  return 0;
}

}  // namespace motionctl
