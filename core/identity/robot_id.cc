#include "core/identity/robot_id.h"

#include <openssl/evp.h>

namespace motion {

std::string RobotIdForUrdf(absl::string_view urdf_text) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(urdf_text.data(), urdf_text.size(), digest, &length, EVP_sha256(), nullptr);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string id = "sha256:";
  for (unsigned int i = 0; i < length; ++i) {
    id.push_back(kHex[digest[i] >> 4]);
    id.push_back(kHex[digest[i] & 0xf]);
  }
  return id;
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
