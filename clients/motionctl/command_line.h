#pragma once

#include <map>
#include <string>
#include <vector>

namespace motionctl {

/// \brief argv split into --flags and positional words.
///
/// Hand-rolled instead of absl flags because joint values are positional and
/// negative ("-1.57" must not be read as a flag): only words starting with
/// "--" are flags, as --name=value or --name value (booleans: --name).
struct CommandLine {
  std::map<std::string, std::string> flags;
  std::vector<std::string> positional;

  std::string Flag(const std::string& name, const std::string& fallback = "") const;
  bool Has(const std::string& name) const { return flags.count(name) > 0; }
};

/// \brief Parses argv[1..]; `boolean_flags` take no value.
CommandLine ParseCommandLine(int argc, char** argv, const std::vector<std::string>& boolean_flags);

}  // namespace motionctl
