#include "clients/motionctl/robot_argument.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <vector>

#include "clients/motionctl/mesh_files.h"
#include "clients/motionctl/output.h"

namespace motionctl {

std::string ResolveRobotArgument(motion::client::MotionClient& client, const std::string& word,
                                 const std::string& meshes_dir) {
  if (word.rfind("sha256:", 0) == 0 && word.size() == 71) return word;
  if (std::filesystem::is_regular_file(word)) {
    std::ifstream in(word, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    if (meshes_dir.empty()) return client.AddRobot(text.str());
    return client.AddRobot(text.str(), CollisionMeshFiles(text.str(), meshes_dir));
  }
  motion::v1::ListRobotsResponse robots;
  if (grpc::Status status = client.ListRobots(&robots); !status.ok()) {
    ReportRpcError("ListRobots", status);
    return "";
  }
  std::vector<std::string> matches;
  for (const auto& robot : robots.robots()) {
    if (robot.name() == word) return robot.robot_id();
    if (robot.name().rfind(word, 0) == 0 || robot.robot_id().rfind(word, 0) == 0 ||
        robot.robot_id().rfind("sha256:" + word, 0) == 0) {
      matches.push_back(robot.robot_id());
    }
  }
  if (matches.size() == 1) return matches.front();
  std::cerr << "motionctl: robot '" << word << "' "
            << (matches.empty() ? "matches no registered robot, URDF file or robot_id"
                                : "is ambiguous")
            << " (see `motionctl robots`)\n";
  return "";
}

}  // namespace motionctl
