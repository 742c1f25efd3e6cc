#include "core/collision/stl_mesh.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "core/diagnostics/untrusted_text.h"

namespace motion {
namespace {

constexpr std::size_t kBinaryHeader = 80 + 4;
constexpr std::size_t kBinaryTriangle = 50;

absl::Status Invalid(absl::string_view field, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat(field, ": ", what));
}

std::uint32_t ReadUint32(const char* p) {
  const auto* b = reinterpret_cast<const unsigned char*>(p);
  return static_cast<std::uint32_t>(b[0]) | static_cast<std::uint32_t>(b[1]) << 8 |
         static_cast<std::uint32_t>(b[2]) << 16 | static_cast<std::uint32_t>(b[3]) << 24;
}

float ReadFloat(const char* p) {
  const std::uint32_t bits = ReadUint32(p);
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

absl::StatusOr<TriangleMesh> ParseBinary(absl::string_view bytes, absl::string_view field,
                                         const MeshLimits& limits) {
  const std::uint32_t count = ReadUint32(bytes.data() + 80);
  if (count > limits.max_triangles) {
    return Invalid(field,
                   absl::StrCat("binary STL header declares ", count, " triangles; the limit is ",
                                limits.max_triangles, " (or this is not an STL file)"));
  }
  const std::size_t expected = kBinaryHeader + std::size_t{count} * kBinaryTriangle;
  if (bytes.size() != expected) {
    return Invalid(field, absl::StrCat("binary STL header declares ", count, " triangles (",
                                       expected, " bytes) but the file has ", bytes.size(),
                                       " bytes: truncated, or not an STL file"));
  }
  if (count == 0) return Invalid(field, "the mesh has no triangles");
  TriangleMesh mesh;
  mesh.vertices.reserve(std::size_t{count} * 3);
  for (std::uint32_t t = 0; t < count; ++t) {
    const char* record = bytes.data() + kBinaryHeader + std::size_t{t} * kBinaryTriangle;
    for (int v = 0; v < 3; ++v) {
      Eigen::Vector3d p;
      for (int k = 0; k < 3; ++k) p[k] = ReadFloat(record + 12 + 12 * v + 4 * k);
      if (!p.allFinite()) {
        return Invalid(field, absl::StrCat("triangle ", t, " has a vertex that is not finite"));
      }
      mesh.vertices.push_back(p);
    }
  }
  return mesh;
}

// Whitespace-separated tokens of the ASCII form, with their line numbers.
class Tokens {
 public:
  explicit Tokens(absl::string_view text) : text_(text) {}
  bool Next(absl::string_view& token) {
    while (pos_ < text_.size() && absl::ascii_isspace(static_cast<unsigned char>(text_[pos_]))) {
      if (text_[pos_] == '\n') ++line_;
      ++pos_;
    }
    if (pos_ >= text_.size()) return false;
    const std::size_t start = pos_;
    while (pos_ < text_.size() && !absl::ascii_isspace(static_cast<unsigned char>(text_[pos_]))) {
      ++pos_;
    }
    token = text_.substr(start, pos_ - start);
    return true;
  }
  // Skips the rest of the current line (the solid's name).
  void SkipLine() {
    while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
  }
  int line() const { return line_; }

 private:
  absl::string_view text_;
  std::size_t pos_ = 0;
  int line_ = 1;
};

absl::StatusOr<TriangleMesh> ParseAscii(absl::string_view text, absl::string_view field,
                                        const MeshLimits& limits) {
  Tokens tokens(text);
  absl::string_view token;
  auto where = [&] { return absl::StrCat(" at line ", tokens.line()); };
  auto expect = [&](absl::string_view word) -> absl::Status {
    if (!tokens.Next(token))
      return Invalid(field, absl::StrCat("ASCII STL ends before '", word, "'"));
    if (token != word) {
      return Invalid(field, absl::StrCat("ASCII STL: expected '", word, "', found ",
                                         QuoteUntrusted(token, 32), where()));
    }
    return absl::OkStatus();
  };
  auto number = [&](double& out) -> absl::Status {
    if (!tokens.Next(token)) return Invalid(field, "ASCII STL ends inside a number triple");
    if (!absl::SimpleAtod(token, &out) || !std::isfinite(out)) {
      return Invalid(field, absl::StrCat("ASCII STL: ", QuoteUntrusted(token, 32),
                                         " is not a finite number", where()));
    }
    return absl::OkStatus();
  };
  if (auto s = expect("solid"); !s.ok()) return s;
  tokens.SkipLine();
  TriangleMesh mesh;
  while (true) {
    if (!tokens.Next(token)) return Invalid(field, "ASCII STL ends without 'endsolid'");
    if (token == "endsolid") break;
    if (token != "facet") {
      return Invalid(field, absl::StrCat("ASCII STL: expected 'facet' or 'endsolid', found ",
                                         QuoteUntrusted(token, 32), where()));
    }
    if (mesh.triangle_count() >= limits.max_triangles) {
      return Invalid(field, absl::StrCat("ASCII STL has more than ", limits.max_triangles,
                                         " triangles, the limit"));
    }
    double ignored;
    if (auto s = expect("normal"); !s.ok()) return s;
    for (int k = 0; k < 3; ++k) {
      if (auto s = number(ignored); !s.ok()) return s;
    }
    if (auto s = expect("outer"); !s.ok()) return s;
    if (auto s = expect("loop"); !s.ok()) return s;
    for (int v = 0; v < 3; ++v) {
      if (auto s = expect("vertex"); !s.ok()) return s;
      Eigen::Vector3d p;
      for (int k = 0; k < 3; ++k) {
        if (auto s = number(p[k]); !s.ok()) return s;
      }
      mesh.vertices.push_back(p);
    }
    if (auto s = expect("endloop"); !s.ok()) return s;
    if (auto s = expect("endfacet"); !s.ok()) return s;
  }
  if (mesh.triangle_count() == 0) return Invalid(field, "the mesh has no triangles");
  return mesh;
}

}  // namespace

absl::StatusOr<TriangleMesh> ParseStl(absl::string_view bytes, absl::string_view field,
                                      const MeshLimits& limits) {
  if (bytes.size() > limits.max_bytes) {
    return Invalid(field, absl::StrCat("the mesh is ", bytes.size(), " bytes; the limit is ",
                                       limits.max_bytes));
  }
  // Binary when the size matches the declared count, whatever the header
  // says (exporters write "solid" into binary headers too).
  const bool ascii = absl::StartsWith(absl::StripLeadingAsciiWhitespace(bytes), "solid");
  if (bytes.size() >= kBinaryHeader) {
    const std::uint32_t count = ReadUint32(bytes.data() + 80);
    const bool sized_as_binary =
        bytes.size() == kBinaryHeader + std::size_t{count} * kBinaryTriangle;
    if (sized_as_binary || !ascii) return ParseBinary(bytes, field, limits);
  }
  if (ascii) return ParseAscii(bytes, field, limits);
  return Invalid(field, absl::StrCat("not an STL file (", bytes.size(),
                                     " bytes: too short for binary STL and not 'solid ...')"));
}

}  // namespace motion
