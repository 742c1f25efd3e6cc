#include "clients/motionctl/program_file.h"

#include <fstream>
#include <sstream>

#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>

namespace motionctl {

bool ReadJsonDocument(const std::string& path, google::protobuf::Struct* document,
                      std::string* error) {
  std::ifstream in(path);
  if (!in) {
    *error = "cannot read " + path;
    return false;
  }
  std::stringstream text;
  text << in.rdbuf();
  auto status = google::protobuf::util::JsonStringToMessage(text.str(), document);
  if (!status.ok()) {
    *error = path + ": not JSON: " + std::string(status.message());
    return false;
  }
  return true;
}

bool ReadProgramFile(const std::string& path, ProgramFile* program, std::string* error) {
  // Parse generically first, to accept "robot": "ur5".
  google::protobuf::Struct document;
  if (!ReadJsonDocument(path, &document, error)) return false;
  auto& fields = *document.mutable_fields();
  if (auto it = fields.find("robot"); it != fields.end() && it->second.has_string_value()) {
    program->robot = it->second.string_value();
    fields.erase(it);
  }
  std::string normalised;
  (void)google::protobuf::util::MessageToJsonString(document, &normalised);
  auto status = google::protobuf::util::JsonStringToMessage(normalised, &program->request);
  if (!status.ok()) {
    *error = path + ": not a motion program: " + std::string(status.message());
    return false;
  }
  return true;
}

}  // namespace motionctl
