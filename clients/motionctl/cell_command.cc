#include <cstdio>
#include <iostream>
#include <string>

#include "clients/motionctl/cell_file.h"
#include "clients/motionctl/commands.h"
#include "clients/motionctl/output.h"
#include "clients/motionctl/robot_argument.h"
#include "clients/motionctl/usage.h"

namespace motionctl {

using motion::client::MotionClient;
namespace v1 = motion::v1;

int RunCell(MotionClient& client, const CommandLine& cli) {
  if (cli.positional.size() != 2) return PrintUsage(stderr), 1;
  CellFile cell;
  std::string error;
  if (!ReadCellFile(cli.positional[1], &cell, &error)) {
    return std::fprintf(stderr, "motionctl: %s\n", error.c_str()), 1;
  }
  v1::ValidateCellRequest& request = cell.request;
  for (int i = 0; i < request.robots_size(); ++i) {
    if (cell.robots[i].empty()) continue;
    const std::string id = ResolveRobotArgument(client, cell.robots[i], cli.Flag("meshes"));
    if (id.empty()) return 1;
    request.mutable_robots(i)->mutable_robot()->set_robot_id(id);
  }
  if (cell.has_scene_file) {
    request.mutable_scene()->set_scene_id(client.AddScene(cell.scene));
  }
  if (cli.Has("find_start_times")) request.set_find_start_times(true);
  if (cli.Has("clearance")) request.set_report_clearance(true);
  if (cli.Has("margin")) request.set_safety_margin(std::atof(cli.Flag("margin").c_str()));
  v1::ValidateCellResponse response;
  const grpc::Status status = client.ValidateCell(request, &response);
  if (!status.ok()) return ReportRpcError("ValidateCell", status);
  if (cli.Has("json")) {
    std::cout << ToJson(response) << "\n";
    return response.collision_free() ? 0 : 3;
  }
  std::printf("%d robots, collision-free: %s, min clearance %.4f m\n", response.robots_size(),
              response.collision_free() ? "yes" : "NO", response.min_clearance());
  std::printf("%-16s %-4s %9s  %s\n", "robot", "ok", "cycle", "start");
  for (int i = 0; i < response.robots_size(); ++i) {
    const v1::CellRobotResult& r = response.robots(i);
    std::printf("%-16s %-4s %8.3fs  %.3fs\n", r.name().c_str(), r.result().ok() ? "yes" : "NO",
                r.result().cycle_time(), request.robots(i).start_time());
  }
  for (const v1::CellContact& c : response.contacts()) {
    const std::string other =
        c.robot_b().empty() ? "scene/" + c.other() : c.robot_b() + "/" + c.other();
    std::printf("contact %s/%s - %s  %.3f .. %.3f s  depth %.4f m\n", c.robot_a().c_str(),
                c.link_a().c_str(), other.c_str(), c.start_time(), c.end_time(), c.depth());
  }
  if (request.find_start_times()) {
    if (response.suggested_start_times_size() == 0) {
      std::printf("no start times found: %s\n", response.start_times_note().c_str());
    } else {
      std::printf("suggested start times:");
      for (int i = 0; i < response.suggested_start_times_size(); ++i) {
        std::printf(" %s %.3fs", response.robots(i).name().c_str(),
                    response.suggested_start_times(i));
      }
      std::printf("\n");
    }
  }
  return response.collision_free() ? 0 : 3;
}

}  // namespace motionctl
