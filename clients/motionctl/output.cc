#include "clients/motionctl/output.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>

#include <google/protobuf/util/json_util.h>

#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"

namespace motionctl {

std::string ToJson(const google::protobuf::Message& message) {
  std::string json;
  google::protobuf::util::JsonPrintOptions options;
  options.add_whitespace = true;
  options.preserve_proto_field_names = true;
  options.always_print_primitive_fields = true;
  (void)google::protobuf::util::MessageToJsonString(message, &json, options);
  return json;
}

std::string FormatPose(const motion::v1::Pose& pose) {
  const auto& p = pose.position();
  const auto& q = pose.orientation();
  // Fixed-axis X-Y-Z roll/pitch/yaw (URDF's rpy), for reading at a glance.
  const double roll =
      std::atan2(2 * (q.w() * q.x() + q.y() * q.z()), 1 - 2 * (q.x() * q.x() + q.y() * q.y()));
  const double pitch = std::asin(std::clamp(2 * (q.w() * q.y() - q.z() * q.x()), -1.0, 1.0));
  const double yaw =
      std::atan2(2 * (q.w() * q.z() + q.x() * q.y()), 1 - 2 * (q.y() * q.y() + q.z() * q.z()));
  char buffer[256];
  std::snprintf(buffer, sizeof(buffer),
                "xyz %10.6f %10.6f %10.6f m   quat(xyzw) %9.6f %9.6f %9.6f %9.6f   "
                "rpy %9.6f %9.6f %9.6f rad",
                p.x(), p.y(), p.z(), q.x(), q.y(), q.z(), q.w(), roll, pitch, yaw);
  return buffer;
}

void PrintRobotInfo(const motion::v1::RobotInfo& info, bool details) {
  std::printf("robot    %s\nid       %s\nchain    %s -> %s (%d DOF)\n", info.name().c_str(),
              info.robot_id().c_str(), info.base_link().c_str(), info.tip_link().c_str(),
              info.dof());
  if (!details) return;
  std::printf("rule     %s\n\n%-24s %-10s %12s %12s %10s %10s\n", info.chain_rule().c_str(),
              "joint", "type", "lower", "upper", "vel", "acc");
  for (const auto& j : info.joints()) {
    std::printf("%-24s %-10s %12.6f %12.6f %10.4f %10.4f\n", j.name().c_str(),
                motion::v1::JointType_Name(j.type()).c_str(), j.lower(), j.upper(),
                j.max_velocity(), j.max_acceleration());
  }
  for (const auto& m : info.mimic_joints()) {
    std::printf("mimic    %s = %g * %s + %g\n", m.name().c_str(), m.multiplier(),
                m.mimics().c_str(), m.offset());
  }
  std::printf("\nchains (--base/--tip):\n");
  for (const auto& c : info.candidate_chains()) {
    std::printf("  %s -> %s (%d DOF)\n", c.base_link().c_str(), c.tip_link().c_str(), c.dof());
  }
  if (info.link_geometry_size() == 0) return;
  std::printf("\ncollision geometry (meshes sent: %d):\n", info.meshes_size());
  for (const auto& l : info.link_geometry()) {
    std::printf("  %-24s %-13s %d shape(s)", l.link().c_str(), l.source().c_str(), l.shapes());
    if (l.missing_meshes_size() > 0) std::printf("  missing %s", l.missing_meshes(0).c_str());
    std::printf("\n");
  }
  int adjacent = 0, always = 0;
  for (const auto& p : info.disabled_pairs()) (p.reason() == "adjacent" ? adjacent : always)++;
  std::printf(
      "self-collision pairs never checked: %d adjacent, %d always in contact; %d never "
      "seen in contact\n",
      adjacent, always, info.never_colliding_pairs_size());
}

int ReportRpcError(const std::string& what, const grpc::Status& status) {
  std::cerr << "motionctl: " << what << " failed: " << status.error_code() << " "
            << status.error_message() << "\n";
  google::rpc::Status details;
  if (details.ParseFromString(status.error_details())) {
    for (const auto& any : details.details()) {
      google::rpc::BadRequest bad_request;
      google::rpc::ErrorInfo info;
      if (any.UnpackTo(&bad_request)) {
        for (const auto& v : bad_request.field_violations()) {
          std::cerr << "  bad field: " << v.field() << "\n";
        }
      } else if (any.UnpackTo(&info)) {
        std::cerr << "  reason " << info.reason() << " (" << info.domain() << ")\n";
      }
    }
  }
  return 2;
}

}  // namespace motionctl
