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

bool ParseAllowedPairs(const std::string& flag,
                       google::protobuf::RepeatedPtrField<motion::v1::LinkPair>* pairs,
                       std::string* error) {
  std::size_t start = 0;
  while (start <= flag.size()) {
    const std::size_t comma = std::min(flag.find(',', start), flag.size());
    const std::string item = flag.substr(start, comma - start);
    const std::size_t colon = item.find(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == item.size()) {
      *error = "--allow: '" + item + "' is not LINK:OTHER";
      return false;
    }
    motion::v1::LinkPair* pair = pairs->Add();
    pair->set_a(item.substr(0, colon));
    pair->set_b(item.substr(colon + 1));
    start = comma + 1;
  }
  return true;
}

}  // namespace motionctl
