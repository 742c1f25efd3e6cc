#include "clients/motionctl/commands.h"

#include <cstdio>
#include <iostream>

#include "clients/motionctl/output.h"
#include "clients/motionctl/request_arguments.h"

namespace motionctl {

using motion::client::MotionClient;
namespace v1 = motion::v1;

int RunIk(MotionClient& client, const CommandLine& cli) {
  if (cli.positional.size() != 9) return PrintUsage(stderr), 1;
  v1::ComputeIkRequest request;
  const std::string id = ResolveRobotArgument(client, cli.positional[1]);
  if (id.empty()) return 1;
  request.mutable_robot()->set_robot_id(id);
  request.mutable_robot()->set_base_link(cli.Flag("base"));
  request.mutable_robot()->set_tip_link(cli.Flag("tip"));
  google::protobuf::RepeatedField<double> pose;
  if (!ParseDoubles(cli.positional, 2, &pose)) return 1;
  SetPose(pose.data(), request.mutable_target());
  if (cli.Has("tool") && !ParseTool(cli, request.mutable_tool())) return 1;
  if (cli.Has("seed") && !ParseSeed(cli, request.mutable_seed())) return 1;
  request.mutable_options()->set_solver(cli.Flag("solver"));
  if (cli.Has("all")) request.mutable_options()->set_mode(v1::IkOptions::ALL);
  v1::IkResult result;
  grpc::Status status = client.ComputeIk(request, &result);
  if (!status.ok()) return ReportRpcError("ComputeIk", status);
  if (cli.Has("json")) return std::cout << ToJson(result) << "\n", result.ok() ? 0 : 3;
  std::printf(
      "%s  (%s)  position error %.3g m, orientation error %.3g rad, %d iterations, "
      "%d starts\n",
      result.ok() ? "ok" : "FAILED", result.outcome().c_str(), result.position_error(),
      result.orientation_error(), result.iterations(), result.attempts());
  std::printf("joints ");
  for (double q : result.joints()) std::printf(" %.6f", q);
  std::printf("\n");
  for (const auto& s : result.solutions()) {
    std::printf("  alt  ");
    for (double q : s.joints()) std::printf(" %.6f", q);
    std::printf("\n");
  }
  for (const auto& d : result.diagnostics()) {
    std::printf("%s %s: %s\n", v1::Severity_Name(d.severity()).c_str(),
                v1::DiagnosticCode_Name(d.code()).c_str(), d.message().c_str());
  }
  return result.ok() ? 0 : 3;
}

}  // namespace motionctl
