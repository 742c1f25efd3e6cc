// STL meshes as a client sends them: a box written here in binary and in
// ASCII parses to the same 12 triangles with the box's corners; every
// malformed or oversized file is refused with a message naming the field
// and saying what is wrong, never read past its end.

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/Core>

#include "box_triangles.h"
#include "core/collision/stl_mesh.h"

namespace motion {
namespace {

using motion_test::BoxTriangles;
using motion_test::Triangle;

void PutUint32(std::string& s, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

void PutFloat(std::string& s, float f) {
  std::uint32_t bits;
  std::memcpy(&bits, &f, 4);
  PutUint32(s, bits);
}

std::string BinaryStl(const std::vector<Triangle>& triangles, const std::string& header = "") {
  std::string s = header;
  s.resize(80, ' ');
  PutUint32(s, static_cast<std::uint32_t>(triangles.size()));
  for (const Triangle& t : triangles) {
    for (int k = 0; k < 3; ++k) PutFloat(s, 0.0f);  // normal, unused
    for (const Eigen::Vector3d& p : t) {
      for (int k = 0; k < 3; ++k) PutFloat(s, static_cast<float>(p[k]));
    }
    s.append(2, '\0');
  }
  return s;
}

std::string AsciiStl(const std::vector<Triangle>& triangles) {
  std::string s = "solid box exported by a test\n";
  for (const Triangle& t : triangles) {
    s += "  facet normal 0 0 0\n    outer loop\n";
    for (const Eigen::Vector3d& p : t) {
      s += "      vertex " + std::to_string(p.x()) + " " + std::to_string(p.y()) + " " +
           std::to_string(p.z()) + "\n";
    }
    s += "    endloop\n  endfacet\n";
  }
  return s + "endsolid box\n";
}

void ExpectIsTheBox(const TriangleMesh& mesh, const Eigen::Vector3d& h) {
  ASSERT_EQ(mesh.triangle_count(), 12u);
  Eigen::Vector3d lo = mesh.vertices[0], hi = mesh.vertices[0];
  for (const Eigen::Vector3d& p : mesh.vertices) {
    lo = lo.cwiseMin(p);
    hi = hi.cwiseMax(p);
    // Every vertex is a corner of the box.
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(std::abs(p[k]), h[k], 1e-6);
  }
  EXPECT_LT((lo + h).norm(), 1e-6);
  EXPECT_LT((hi - h).norm(), 1e-6);
}

bool Refused(const absl::StatusOr<TriangleMesh>& mesh, const std::string& field,
             const std::string& words) {
  EXPECT_FALSE(mesh.ok());
  if (mesh.ok()) return false;
  EXPECT_EQ(mesh.status().code(), absl::StatusCode::kInvalidArgument);
  const std::string message(mesh.status().message());
  EXPECT_EQ(message.rfind(field, 0), 0u) << message;
  EXPECT_NE(message.find(words), std::string::npos) << message;
  return message.rfind(field, 0) == 0 && message.find(words) != std::string::npos;
}

const Eigen::Vector3d kHalf(0.1, 0.2, 0.05);

TEST(StlMeshTest, BinaryAndAsciiBoxesAreTheBox) {
  const auto binary = ParseStl(BinaryStl(BoxTriangles(kHalf)), "meshes[0]");
  ASSERT_TRUE(binary.ok()) << binary.status();
  ExpectIsTheBox(*binary, kHalf);
  const auto ascii = ParseStl(AsciiStl(BoxTriangles(kHalf)), "meshes[0]");
  ASSERT_TRUE(ascii.ok()) << ascii.status();
  ExpectIsTheBox(*ascii, kHalf);
}

TEST(StlMeshTest, BinaryWhoseHeaderSaysSolidIsStillBinary) {
  const auto mesh = ParseStl(BinaryStl(BoxTriangles(kHalf), "solid exported by CAD"), "m");
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  ExpectIsTheBox(*mesh, kHalf);
}

TEST(StlMeshTest, NotAnStlFileIsRefused) {
  EXPECT_TRUE(
      Refused(ParseStl("hello, this is a text file", "meshes[1]"), "meshes[1]", "not an STL file"));
  EXPECT_TRUE(Refused(ParseStl("", "meshes[1]"), "meshes[1]", "not an STL file"));
  // Long enough for a binary header: the bytes where the count would be say
  // something no file of this size holds.
  EXPECT_TRUE(
      Refused(ParseStl(std::string(300, 'x'), "meshes[1]"), "meshes[1]", "not an STL file"));
}

TEST(StlMeshTest, TruncatedOrMiscountedBinaryIsRefused) {
  const std::string good = BinaryStl(BoxTriangles(kHalf));
  EXPECT_TRUE(Refused(ParseStl(good.substr(0, good.size() - 7), "m"), "m", "truncated"));
  std::string overcounted = good;
  overcounted[80] = 13;  // 13 triangles declared, 12 present
  EXPECT_TRUE(Refused(ParseStl(overcounted, "m"), "m", "declares 13 triangles"));
  std::string undercounted = good;
  undercounted[80] = 11;
  EXPECT_TRUE(Refused(ParseStl(undercounted, "m"), "m", "declares 11 triangles"));
}

TEST(StlMeshTest, TenMillionTrianglesAreRefusedByTheLimitBeforeAnyIsRead) {
  // The header of a 10^7-triangle file (500 MB); the count alone refuses it.
  std::string header(80, ' ');
  PutUint32(header, 10'000'000);
  header.append(50, '\0');
  EXPECT_TRUE(Refused(ParseStl(header, "m"), "m", "limit is 1000000"));
  // And a file with more triangles than a given limit, counted either way.
  MeshLimits small;
  small.max_triangles = 10;
  EXPECT_TRUE(Refused(ParseStl(BinaryStl(BoxTriangles(kHalf)), "m", small), "m", "limit"));
  EXPECT_TRUE(Refused(ParseStl(AsciiStl(BoxTriangles(kHalf)), "m", small), "m", "limit"));
  MeshLimits tiny_file;
  tiny_file.max_bytes = 100;
  EXPECT_TRUE(Refused(ParseStl(AsciiStl(BoxTriangles(kHalf)), "m", tiny_file), "m", "bytes"));
}

TEST(StlMeshTest, NonFiniteCoordinatesAreRefused) {
  std::vector<Triangle> triangles = BoxTriangles(kHalf);
  triangles[5][1].y() = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(Refused(ParseStl(BinaryStl(triangles), "m"), "m", "triangle 5"));
  std::string ascii = AsciiStl(BoxTriangles(kHalf));
  ascii.replace(ascii.find("vertex ") + 7, 1, "nan");
  EXPECT_TRUE(Refused(ParseStl(ascii, "m"), "m", "not a finite number"));
  ascii = AsciiStl(BoxTriangles(kHalf));
  ascii.replace(ascii.find("vertex ") + 7, 1, "1e999");
  EXPECT_TRUE(Refused(ParseStl(ascii, "m"), "m", "not a finite number"));
}

TEST(StlMeshTest, MalformedAsciiIsRefusedWithTheLine) {
  const std::string good = AsciiStl(BoxTriangles(kHalf));
  std::string no_endfacet = good;
  no_endfacet.replace(no_endfacet.find("endfacet"), 8, "endfacez");
  EXPECT_TRUE(Refused(ParseStl(no_endfacet, "m"), "m", "expected 'endfacet'"));
  EXPECT_TRUE(Refused(ParseStl(no_endfacet, "m"), "m", "line 8"));
  EXPECT_TRUE(Refused(ParseStl(good.substr(0, good.size() / 2), "m"), "m", "ends"));
  EXPECT_TRUE(Refused(ParseStl("solid empty\nendsolid empty\n", "m"), "m", "no triangles"));
  std::string two_vertices = good;
  const std::size_t third = two_vertices.find("vertex", two_vertices.find("vertex") + 30);
  two_vertices.erase(third, two_vertices.find('\n', third) - third);
  EXPECT_TRUE(Refused(ParseStl(two_vertices, "m"), "m", "expected"));
}

// Mutated files (bytes flipped, cut, duplicated) never crash or read past
// the end: each parses to finite triangles or is refused with the field.
TEST(StlMeshTest, MutatedFilesParseOrAreRefusedNeverCrash) {
  std::mt19937 rng(14);
  int parsed = 0, refused = 0;
  for (const std::string& good : {BinaryStl(BoxTriangles(kHalf)), AsciiStl(BoxTriangles(kHalf))}) {
    for (int trial = 0; trial < 3000; ++trial) {
      std::string bytes = good;
      const int edits = 1 + static_cast<int>(rng() % 4);
      for (int e = 0; e < edits && !bytes.empty(); ++e) {
        const std::size_t at = rng() % bytes.size();
        switch (rng() % 3) {
          case 0:
            bytes[at] = static_cast<char>(rng());
            break;
          case 1:
            bytes.resize(at);
            break;
          default:
            bytes.insert(at, bytes.substr(at, rng() % 64));
        }
      }
      const auto mesh = ParseStl(bytes, "mutant");
      if (mesh.ok()) {
        ++parsed;
        for (const Eigen::Vector3d& p : mesh->vertices) ASSERT_TRUE(p.allFinite());
      } else {
        ++refused;
        ASSERT_EQ(std::string(mesh.status().message()).rfind("mutant: ", 0), 0u);
      }
    }
  }
  EXPECT_GT(parsed, 0);
  EXPECT_GT(refused, 0);
}

}  // namespace
}  // namespace motion
