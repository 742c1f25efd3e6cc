#include "clients/motionctl/commands.h"

#include <cstdio>
#include <iostream>

#include "clients/motionctl/output.h"
#include "clients/motionctl/request_arguments.h"

namespace motionctl {

using motion::client::MotionClient;
namespace v1 = motion::v1;

int RunJacobian(MotionClient& client, const CommandLine& cli) {
  v1::ComputeJacobianRequest request;
  if (!FillRobotAndJoints(client, cli, &request)) return 1;
  v1::ComputeJacobianResponse response;
  grpc::Status status = client.ComputeJacobian(request, &response);
  if (!status.ok()) return ReportRpcError("ComputeJacobian", status);
  if (cli.Has("json")) return std::cout << ToJson(response) << "\n", 0;
  static const char* kRows[] = {"vx", "vy", "vz", "wx", "wy", "wz"};
  for (int r = 0; r < response.rows(); ++r) {
    std::printf("%s ", kRows[r % 6]);
    for (int c = 0; c < response.cols(); ++c) {
      std::printf(" %10.6f", response.data(r * response.cols() + c));
    }
    std::printf("\n");
  }
  std::printf("manipulability %.6g   condition number %.6g\n", response.manipulability(),
              response.condition_number());
  return 0;
}

}  // namespace motionctl
