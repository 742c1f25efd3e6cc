#include "clients/motionctl/commands.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "clients/motionctl/mesh_files.h"
#include "clients/motionctl/output.h"
#include "clients/motionctl/usage.h"

namespace motionctl {

using motion::client::MotionClient;
namespace v1 = motion::v1;

int RunRegister(MotionClient& client, const CommandLine& cli) {
  if (cli.positional.size() != 2) return PrintUsage(stderr), 1;
  std::ifstream in(cli.positional[1], std::ios::binary);
  if (!in) return std::fprintf(stderr, "motionctl: cannot read %s\n", cli.positional[1].c_str()), 1;
  std::stringstream text;
  text << in.rdbuf();
  v1::RegisterRobotResponse response;
  std::vector<v1::MeshFile> meshes;
  if (cli.Has("meshes")) meshes = CollisionMeshFiles(text.str(), cli.Flag("meshes"));
  grpc::Status status = client.RegisterRobot(text.str(), &response, std::move(meshes));
  if (!status.ok()) return ReportRpcError("RegisterRobot", status);
  if (cli.Has("json")) return std::cout << ToJson(response) << "\n", 0;
  PrintRobotInfo(response.info(), false);
  return 0;
}

}  // namespace motionctl
