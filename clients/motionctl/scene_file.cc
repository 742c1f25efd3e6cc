#include "clients/motionctl/scene_file.h"

#include <fstream>
#include <sstream>

#include <google/protobuf/util/json_util.h>

namespace motionctl {

bool ReadSceneFile(const std::string& path, motion::v1::Scene* scene, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = "cannot read scene file " + path;
    return false;
  }
  std::ostringstream text;
  text << in.rdbuf();
  const auto status = google::protobuf::util::JsonStringToMessage(text.str(), scene);
  if (!status.ok()) {
    *error = path + ": not a motion.v1.Scene: " + std::string(status.message());
    return false;
  }
  return true;
}

}  // namespace motionctl
