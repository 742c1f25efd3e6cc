#include <cstdio>
#include <iostream>
#include <string>

#include "clients/motionctl/commands.h"
#include "clients/motionctl/output.h"
#include "clients/motionctl/request_arguments.h"
#include "clients/motionctl/scene_file.h"

namespace motionctl {

using motion::client::MotionClient;
namespace v1 = motion::v1;

int RunCheck(MotionClient& client, const CommandLine& cli) {
  if (cli.positional.size() < 3) return PrintUsage(stderr), 1;
  v1::CheckCollisionRequest request;
  const std::string id = ResolveRobotArgument(client, cli.positional[1], cli.Flag("meshes"));
  if (id.empty()) return 1;
  request.mutable_robot()->set_robot_id(id);
  request.mutable_robot()->set_base_link(cli.Flag("base"));
  request.mutable_robot()->set_tip_link(cli.Flag("tip"));
  if (!ParseDoubles(cli.positional, 2, request.add_configurations()->mutable_values())) return 1;
  if (cli.Has("scene")) {
    std::string error;
    if (!ReadSceneFile(cli.Flag("scene"), request.mutable_scene()->mutable_scene(), &error)) {
      return std::fprintf(stderr, "motionctl: %s\n", error.c_str()), 1;
    }
  }
  request.set_compute_distance(cli.Has("distance"));
  if (cli.Has("margin")) request.set_safety_margin(std::atof(cli.Flag("margin").c_str()));
  if (cli.Has("no_self")) request.set_check_self_collision(false);
  if (std::string error;
      cli.Has("allow") &&
      !ParseAllowedPairs(cli.Flag("allow"), request.mutable_allowed_collisions(), &error)) {
    return std::fprintf(stderr, "motionctl: %s\n", error.c_str()), 1;
  }
  v1::CheckCollisionResponse response;
  const grpc::Status status = client.CheckCollision(request, &response);
  if (!status.ok()) return ReportRpcError("CheckCollision", status);
  const v1::CollisionResult& result = response.results(0);
  if (cli.Has("json")) {
    std::cout << ToJson(response) << "\n";
    return result.in_collision() ? 3 : 0;
  }
  std::printf("%s\n", result.in_collision() ? "IN COLLISION" : "collision-free");
  for (const v1::Contact& c : result.contacts()) {
    std::printf("  %-22s touches %-22s %.4f m deep\n", c.link().c_str(), c.other().c_str(),
                c.depth());
  }
  if (request.compute_distance()) {
    std::printf("min distance %.4f m (%s / %s)\n", result.min_distance(),
                result.nearest_link().c_str(), result.nearest_other().c_str());
  }
  for (const v1::LinkGeometryInfo& l : response.links()) {
    if (l.source() != "urdf")
      std::printf("  %-22s geometry: %s\n", l.link().c_str(), l.source().c_str());
  }
  return result.in_collision() ? 3 : 0;
}

}  // namespace motionctl
