// IK benchmark: command line.
#include "bench/bench_io.h"
#include "bench/ik_bench_protocol.h"

namespace ik_bench {

void Usage() {
  std::fprintf(stderr,
               "usage: ik_bench [--out=FILE] [--samples=10000] [--kdl_samples=2000]\n"
               "                [--singular_samples=1000] [--sigma_pool=100000]\n"
               "                [--sigma_fraction=0.01] [--straight_window=0.05]\n"
               "                [--timeout_ms=5] [--robots=ur5,panda,...] [--no_kdl]\n"
               "                [--no_singular]\n");
}

bool ParseFlags(int argc, char** argv, Flags& f) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const motion_bench::FlagArgument flag = motion_bench::SplitFlag(arg);
    const std::string& name = flag.name;
    const std::string& value = flag.value;
    char* end = nullptr;
    auto as_int = [&](int& out) {
      out = static_cast<int>(std::strtol(value.c_str(), &end, 10));
      return !value.empty() && *end == '\0' && out >= 0;
    };
    auto as_double = [&](double& out) {
      out = std::strtod(value.c_str(), &end);
      return !value.empty() && *end == '\0' && out > 0;
    };
    bool ok = true;
    if (name == "--out") {
      f.out = value;
    } else if (name == "--samples") {
      ok = as_int(f.samples);
    } else if (name == "--kdl_samples") {
      ok = as_int(f.kdl_samples);
    } else if (name == "--singular_samples") {
      ok = as_int(f.singular_samples);
    } else if (name == "--sigma_pool") {
      ok = as_int(f.sigma_pool);
    } else if (name == "--sigma_fraction") {
      ok = as_double(f.sigma_fraction) && f.sigma_fraction <= 1.0;
    } else if (name == "--straight_window") {
      ok = as_double(f.straight_window);
    } else if (name == "--timeout_ms") {
      ok = as_double(f.timeout_ms);
    } else if (name == "--no_kdl") {
      f.kdl = false;
    } else if (name == "--no_singular") {
      f.singular = false;
    } else if (name == "--robots") {
      std::stringstream list(value);
      for (std::string robot; std::getline(list, robot, ',');) {
        if (!robot.empty()) f.robots.push_back(robot);
      }
    } else if (name == "--help" || name == "-h") {
      Usage();
      std::exit(0);
    } else {
      ok = false;
    }
    if (!ok) {
      std::fprintf(stderr, "ik_bench: bad argument '%s'\n", arg.c_str());
      Usage();
      return false;
    }
  }
  return true;
}

}  // namespace ik_bench
