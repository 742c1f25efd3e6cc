#include "clients/motionctl/limits_file.h"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <utility>
#include <vector>

#include <google/protobuf/util/json_util.h>

#include "motion/v1/common.pb.h"

namespace motionctl {

bool ApplyLimitsFlag(motion::client::MotionClient& client, const CommandLine& cli,
                     const std::string& robot_id,
                     std::vector<motion::v1::JointLimitOverride>* applied) {
  if (!cli.Has("limits")) return true;
  const std::string path = cli.Flag("limits");
  std::ifstream in(path);
  if (!in)
    return std::fprintf(stderr, "motionctl: --limits: cannot read %s\n", path.c_str()), false;
  std::stringstream text;
  text << in.rdbuf();
  motion::v1::RobotRef ref;
  const auto status = google::protobuf::util::JsonStringToMessage(text.str(), &ref);
  if (!status.ok()) {
    std::fprintf(stderr, "motionctl: --limits: %s: %s\n", path.c_str(),
                 std::string(status.message()).c_str());
    return false;
  }
  std::vector<motion::v1::JointLimitOverride> limits(ref.joint_limits().begin(),
                                                     ref.joint_limits().end());
  if (applied) *applied = limits;
  client.SetJointLimits(robot_id, std::move(limits));
  return true;
}

}  // namespace motionctl
