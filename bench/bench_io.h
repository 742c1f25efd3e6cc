#pragma once
// Small helpers the benchmark programs share: their command lines and the
// files they read.

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace motion_bench {

/// \brief `--name=value` split at the first '=' (value empty without one).
struct FlagArgument {
  std::string name;
  std::string value;
};

inline FlagArgument SplitFlag(const std::string& arg) {
  const auto eq = arg.find('=');
  return {arg.substr(0, eq), eq == std::string::npos ? "" : arg.substr(eq + 1)};
}

/// \brief The whole of `text` as a number; false when it is empty or has
/// anything after the number.
inline bool ParseNumber(const std::string& text, double& out) {
  char* end = nullptr;
  out = std::strtod(text.c_str(), &end);
  return !text.empty() && *end == '\0';
}

/// \brief A file's bytes; empty when it cannot be read.
inline std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace motion_bench
