#pragma once

#include <string>
#include <vector>

#include <google/protobuf/repeated_field.h>

#include "clients/motion_client.h"
#include "clients/motionctl/command_line.h"
#include "clients/motionctl/robot_argument.h"
#include "clients/motionctl/usage.h"
#include "motion/v1/common.pb.h"

// Request fields from command-line words, shared by the commands.
namespace motionctl {

/// \brief words[from..] as numbers; prints which word is not one.
bool ParseDoubles(const std::vector<std::string>& words, std::size_t from,
                  google::protobuf::RepeatedField<double>* out);

/// \brief --tool="x y z qx qy qz qw".
bool ParseTool(const CommandLine& cli, motion::v1::Pose* tool);

/// \brief Position and orientation from 7 numbers: x y z qx qy qz qw.
void SetPose(const double* xyz_qxyzw, motion::v1::Pose* pose);

/// \brief --seed="q1 ... qn".
bool ParseSeed(const CommandLine& cli, google::protobuf::RepeatedField<double>* seed);

/// \brief Fills robot (the ROBOT word, --base, --tip), --tool and the joints
/// (the words after ROBOT) of an FK or Jacobian request.
template <typename Request>
bool FillRobotAndJoints(motion::client::MotionClient& client, const CommandLine& cli,
                        Request* request) {
  if (cli.positional.size() < 2) return PrintUsage(stderr), false;
  const std::string id = ResolveRobotArgument(client, cli.positional[1]);
  if (id.empty()) return false;
  request->mutable_robot()->set_robot_id(id);
  request->mutable_robot()->set_base_link(cli.Flag("base"));
  request->mutable_robot()->set_tip_link(cli.Flag("tip"));
  if (cli.Has("tool") && !ParseTool(cli, request->mutable_tool())) return false;
  return ParseDoubles(cli.positional, 2, request->mutable_joints());
}

}  // namespace motionctl
