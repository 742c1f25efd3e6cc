#pragma once

#include <cstddef>
#include <vector>

#include <Eigen/Core>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace motion {

/// \brief A triangle soup: three vertices per triangle, in the mesh file's
/// units and frame (URDF meshes are metres, in the link's collision frame
/// before the element's `scale`).
struct TriangleMesh {
  std::vector<Eigen::Vector3d> vertices;  ///< 3 per triangle, in order

  std::size_t triangle_count() const { return vertices.size() / 3; }
};

/// \brief Bounds that keep one mesh's memory and parse time finite.
struct MeshLimits {
  std::size_t max_bytes = 64u << 20;      ///< 64 MiB of file
  std::size_t max_triangles = 1'000'000;  ///< per mesh
};

/// \brief Parses an STL file sent by a client, binary or ASCII.
///
/// Binary: an 80-byte header, a little-endian uint32 triangle count, then
/// exactly count x 50 bytes (normal, three vertices as float32, a 16-bit
/// attribute). The size must match the count exactly; the count is checked
/// against the limit before anything is read, so a header claiming 10^7
/// triangles costs nothing. A binary file whose header happens to start
/// with "solid" is still binary when its size matches its count.
/// ASCII: "solid name", then per triangle "facet normal x y z / outer loop /
/// vertex x y z (three times) / endloop / endfacet", then "endsolid";
/// numbers in the C locale.
///
/// Every coordinate must be finite. Errors are InvalidArgument led by
/// `field` (e.g. "meshes[2]") saying what is wrong and where (byte offset,
/// triangle or line); a mesh with no triangle is refused too.
absl::StatusOr<TriangleMesh> ParseStl(absl::string_view bytes, absl::string_view field,
                                      const MeshLimits& limits = MeshLimits());

}  // namespace motion
