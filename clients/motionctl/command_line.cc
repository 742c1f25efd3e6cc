#include "clients/motionctl/command_line.h"

#include <algorithm>

namespace motionctl {

std::string CommandLine::Flag(const std::string& name, const std::string& fallback) const {
  auto it = flags.find(name);
  return it == flags.end() ? fallback : it->second;
}

CommandLine ParseCommandLine(int argc, char** argv, const std::vector<std::string>& boolean_flags) {
  CommandLine out;
  for (int i = 1; i < argc; ++i) {
    std::string word = argv[i];
    if (word.rfind("--", 0) != 0 || word.size() == 2) {
      out.positional.push_back(word);
      continue;
    }
    word = word.substr(2);
    if (const auto eq = word.find('='); eq != std::string::npos) {
      out.flags[word.substr(0, eq)] = word.substr(eq + 1);
    } else if (std::find(boolean_flags.begin(), boolean_flags.end(), word) != boolean_flags.end() ||
               i + 1 >= argc) {
      out.flags[word] = "true";
    } else {
      out.flags[word] = argv[++i];
    }
  }
  return out;
}

}  // namespace motionctl
