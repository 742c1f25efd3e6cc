#include "core/identity/robot_id.h"

#include <algorithm>

#include <openssl/evp.h>

namespace motion {
namespace {

std::string Sha256Hex(absl::string_view bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_sha256(), nullptr);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  for (unsigned int i = 0; i < length; ++i) {
    hex.push_back(kHex[digest[i] >> 4]);
    hex.push_back(kHex[digest[i] & 0xf]);
  }
  return hex;
}

}  // namespace

std::string ContentId(absl::string_view bytes) { return "sha256:" + Sha256Hex(bytes); }

std::string RobotIdForUrdf(absl::string_view urdf_text) { return ContentId(urdf_text); }

std::string RobotIdForUrdfAndMeshes(
    absl::string_view urdf_text,
    std::vector<std::pair<absl::string_view, absl::string_view>> filename_and_data) {
  if (filename_and_data.empty()) return RobotIdForUrdf(urdf_text);
  std::sort(filename_and_data.begin(), filename_and_data.end(),
            [](const auto& x, const auto& y) { return x.first < y.first; });
  std::string text = Sha256Hex(urdf_text) + "\n";
  for (const auto& [filename, data] : filename_and_data) {
    text.append(filename.data(), filename.size());
    text += "\n" + Sha256Hex(data) + "\n";
  }
  return "sha256:" + Sha256Hex(text);
}

bool IsWellFormedRobotId(absl::string_view id) {
  constexpr absl::string_view kPrefix = "sha256:";
  if (id.size() != kPrefix.size() + 64 || id.substr(0, kPrefix.size()) != kPrefix) return false;
  for (char c : id.substr(kPrefix.size())) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

}  // namespace motion
