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
