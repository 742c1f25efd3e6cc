// Bytes -> ParseStl, binary or ASCII, as a mesh arrives in RegisterRobot,
// RobotRef.meshes or a scene's Mesh shape. A parsed mesh must hold whole,
// finite triangles (what the collision engine builds its BVH from).

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "absl/strings/string_view.h"
#include "core/collision/stl_mesh.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
  const absl::string_view stl(reinterpret_cast<const char*>(bytes), size);
  absl::StatusOr<motion::TriangleMesh> mesh = motion::ParseStl(stl, "meshes[0].data");
  if (!mesh.ok()) return 0;
  if (mesh->vertices.empty() || mesh->vertices.size() % 3 != 0) {
    std::fprintf(stderr, "ParseStl accepted %zu vertices\n", mesh->vertices.size());
    std::abort();
  }
  for (const Eigen::Vector3d& v : mesh->vertices) {
    if (!v.allFinite()) {
      std::fprintf(stderr, "ParseStl accepted a non-finite vertex\n");
      std::abort();
    }
  }
  return 0;
}
