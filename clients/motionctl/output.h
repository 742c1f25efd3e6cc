#pragma once

#include <string>

#include <google/protobuf/message.h>
#include <grpcpp/grpcpp.h>

#include "motion/v1/common.pb.h"
#include "motion/v1/robot_registry.pb.h"

namespace motionctl {

/// \brief The message as JSON (proto3 mapping, field names as in the proto).
std::string ToJson(const google::protobuf::Message& message);

/// \brief "x y z  |  qx qy qz qw  |  rpy r p y" with fixed precision.
std::string FormatPose(const motion::v1::Pose& pose);

/// \brief Prints name, id and chain of a robot; with `details`, its joints,
/// limits, mimic joints and candidate chains too.
void PrintRobotInfo(const motion::v1::RobotInfo& info, bool details);

/// \brief Prints a failed call: code, message and the field named by a
/// google.rpc.BadRequest detail; returns the process exit code (2).
int ReportRpcError(const std::string& what, const grpc::Status& status);

}  // namespace motionctl
