#include "clients/motionctl/cell_file.h"

#include <filesystem>

#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>

#include "clients/motionctl/program_file.h"
#include "clients/motionctl/scene_file.h"

namespace motionctl {

namespace pb = google::protobuf;

bool ReadCellFile(const std::string& path, CellFile* cell, std::string* error) {
  pb::Struct document;
  if (!ReadJsonDocument(path, &document, error)) return false;
  const std::filesystem::path dir = std::filesystem::path(path).parent_path();
  auto relative = [&](const std::string& file) { return (dir / file).string(); };
  auto& fields = *document.mutable_fields();
  if (auto it = fields.find("scene"); it != fields.end() && it->second.has_string_value()) {
    if (!ReadSceneFile(relative(it->second.string_value()), &cell->scene, error)) return false;
    cell->has_scene_file = true;
    fields.erase(it);
  }
  // Programs given as files are read here and put back in place after the
  // rest is parsed.
  std::vector<ProgramFile> programs;
  if (auto it = fields.find("robots"); it != fields.end() && it->second.has_list_value()) {
    for (pb::Value& value : *it->second.mutable_list_value()->mutable_values()) {
      ProgramFile program;
      std::string robot;
      if (value.has_struct_value()) {
        auto& robot_fields = *value.mutable_struct_value()->mutable_fields();
        if (auto p = robot_fields.find("program");
            p != robot_fields.end() && p->second.has_string_value()) {
          if (!ReadProgramFile(relative(p->second.string_value()), &program, error)) return false;
          robot = program.robot;
          robot_fields.erase(p);
        }
        if (auto r = robot_fields.find("robot");
            r != robot_fields.end() && r->second.has_string_value()) {
          robot = r->second.string_value();
          robot_fields.erase(r);
        }
      }
      programs.push_back(std::move(program));
      cell->robots.push_back(robot);
    }
  }
  std::string normalised;
  (void)pb::util::MessageToJsonString(document, &normalised);
  if (auto status = pb::util::JsonStringToMessage(normalised, &cell->request); !status.ok()) {
    *error = path + ": not a cell: " + std::string(status.message());
    return false;
  }
  for (int i = 0; i < cell->request.robots_size() && i < static_cast<int>(programs.size()); ++i) {
    if (programs[i].request.segments_size() > 0) {
      *cell->request.mutable_robots(i)->mutable_program() = std::move(programs[i].request);
    }
  }
  return true;
}

}  // namespace motionctl
