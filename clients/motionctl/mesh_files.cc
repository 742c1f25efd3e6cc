#include "clients/motionctl/mesh_files.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace motionctl {
namespace {

// Every filename="..." inside <collision> ... </collision>: a scan, not an
// XML parser (the server parses and validates the URDF; this only decides
// which files to send).
std::set<std::string> CollisionMeshNames(const std::string& urdf) {
  std::set<std::string> names;
  for (std::size_t at = urdf.find("<collision"); at != std::string::npos;
       at = urdf.find("<collision", at + 1)) {
    const std::size_t end = urdf.find("</collision>", at);
    const std::string element = urdf.substr(at, end == std::string::npos ? end : end - at);
    for (std::size_t m = element.find("filename="); m != std::string::npos;
         m = element.find("filename=", m + 1)) {
      const std::size_t open = m + 9;
      if (open >= element.size()) break;
      const char quote = element[open];
      const std::size_t close = element.find(quote, open + 1);
      if ((quote != '"' && quote != '\'') || close == std::string::npos) continue;
      names.insert(element.substr(open + 1, close - open - 1));
    }
  }
  return names;
}

std::vector<std::filesystem::path> Candidates(const std::string& name,
                                              const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> out;
  constexpr const char* kPackage = "package://";
  constexpr const char* kFile = "file://";
  if (name.rfind(kPackage, 0) == 0) {
    const std::string rest = name.substr(10);
    out.push_back(dir / rest);
    if (const std::size_t slash = rest.find('/'); slash != std::string::npos) {
      out.push_back(dir / rest.substr(slash + 1));
    }
  } else {
    const std::string path = name.rfind(kFile, 0) == 0 ? name.substr(7) : name;
    out.push_back(path);
    out.push_back(dir / path);
  }
  out.push_back(dir / std::filesystem::path(name).filename());
  return out;
}

}  // namespace

std::vector<motion::v1::MeshFile> CollisionMeshFiles(const std::string& urdf,
                                                     const std::string& dir) {
  std::vector<motion::v1::MeshFile> files;
  for (const std::string& name : CollisionMeshNames(urdf)) {
    bool found = false;
    for (const std::filesystem::path& path : Candidates(name, dir)) {
      std::error_code error;
      if (!std::filesystem::is_regular_file(path, error)) continue;
      std::ifstream in(path, std::ios::binary);
      std::stringstream bytes;
      bytes << in.rdbuf();
      motion::v1::MeshFile& file = files.emplace_back();
      file.set_filename(name);
      file.set_data(bytes.str());
      found = true;
      break;
    }
    if (!found) {
      std::fprintf(stderr, "motionctl: %s not found under %s; its link is approximated\n",
                   name.c_str(), dir.c_str());
    }
  }
  return files;
}

}  // namespace motionctl
