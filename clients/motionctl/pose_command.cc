// `pose`: one pose in every form (Geometry.ConvertPose).
#include <cstdio>
#include <iostream>

#include "clients/motionctl/commands.h"
#include "clients/motionctl/output.h"
#include "clients/motionctl/request_arguments.h"
#include "clients/motionctl/usage.h"

namespace motionctl {

using motion::client::MotionClient;
namespace v1 = motion::v1;

int RunPose(MotionClient& client, const CommandLine& cli) {
  google::protobuf::RepeatedField<double> numbers;
  if (!ParseDoubles(cli.positional, 1, &numbers)) return 1;
  const bool degrees = cli.Has("deg"), radians = cli.Has("rad");
  v1::ConvertPoseRequest request;
  request.set_rpy_unit(degrees ? v1::DEGREES : v1::RADIANS);
  if (numbers.size() == 7) {  // x y z qx qy qz qw
    SetPose(numbers.data(), request.mutable_pose());
  } else if (numbers.size() == 6) {  // x y z roll pitch yaw: the unit must be said
    if (degrees == radians) {
      std::fprintf(stderr, "motionctl: pose x y z roll pitch yaw needs --deg or --rad\n");
      return 1;
    }
    v1::Pose* pose = request.mutable_pose();
    pose->mutable_position()->set_x(numbers[0]);
    pose->mutable_position()->set_y(numbers[1]);
    pose->mutable_position()->set_z(numbers[2]);
    v1::Rpy* rpy = pose->mutable_rpy();
    rpy->set_roll(numbers[3]);
    rpy->set_pitch(numbers[4]);
    rpy->set_yaw(numbers[5]);
    rpy->set_unit(degrees ? v1::DEGREES : v1::RADIANS);
  } else if (numbers.size() == 16) {  // a 4 x 4 matrix, row-major
    request.mutable_matrix()->mutable_values()->CopyFrom(numbers);
  } else {
    std::fprintf(stderr,
                 "motionctl: pose takes 7 numbers (x y z qx qy qz qw), 6 (x y z roll pitch yaw, "
                 "with --deg or --rad) or 16 (a 4 x 4 matrix, row-major); got %d\n",
                 numbers.size());
    return 1;
  }
  v1::ConvertPoseResponse response;
  const grpc::Status status = client.ConvertPose(request, &response);
  if (!status.ok()) return ReportRpcError("ConvertPose", status);
  if (cli.Has("json")) return std::cout << ToJson(response) << "\n", 0;
  const v1::Pose& p = response.pose();
  std::printf("xyz   %.6f %.6f %.6f m\n", p.position().x(), p.position().y(), p.position().z());
  std::printf("quat  %.9f %.9f %.9f %.9f (x y z w)\n", p.orientation().x(), p.orientation().y(),
              p.orientation().z(), p.orientation().w());
  std::printf("rpy   %.6f %.6f %.6f %s (fixed axes X, Y, Z)\n", response.rpy().roll(),
              response.rpy().pitch(), response.rpy().yaw(), degrees ? "deg" : "rad");
  for (int r = 0; r < 4; ++r) {
    std::printf("%s", r == 0 ? "T    " : "     ");
    for (int c = 0; c < 4; ++c) std::printf(" %10.6f", response.matrix().values(r * 4 + c));
    std::printf("\n");
  }
  return 0;
}

int RunInfo(MotionClient& client, const CommandLine& cli) {
  v1::GetServerInfoResponse info;
  const grpc::Status status = client.GetServerInfo(&info);
  if (!status.ok()) return ReportRpcError("GetServerInfo", status);
  if (cli.Has("json")) return std::cout << ToJson(info) << "\n", 0;
  std::printf("motiond %s (%s, %s)\n", info.version().c_str(), info.build_architecture().c_str(),
              info.compiler().c_str());
  std::printf("KDL %s, FCL %s, gRPC %s, protobuf %s; %d solver workers + %d for short calls\n",
              info.kdl_version().c_str(), info.fcl_version().c_str(), info.grpc_version().c_str(),
              info.protobuf_version().c_str(), info.workers(), info.short_workers());
  std::printf("capabilities:");
  for (const std::string& c : info.capabilities()) std::printf(" %s", c.c_str());
  std::printf("\n%-30s %14s %-10s %-28s %s\n", "limit", "value", "unit", "flag", "bounds");
  for (const v1::ServerLimit& l : info.limits()) {
    std::printf("%-30s %14.6g %-10s %-28s %s\n", l.name().c_str(), l.value(), l.unit().c_str(),
                l.flag().empty() ? "-" : l.flag().c_str(), l.applies_to().c_str());
  }
  return 0;
}

}  // namespace motionctl
