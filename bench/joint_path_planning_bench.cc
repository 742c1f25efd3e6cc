// Joint path planning benchmark: PlanJointPath on 20 problems (UR5 and
// Panda, arms of capsules, in five scenes) over several seeds, and OMPL's
// RRT-Connect on the same collision checking in the same run when OMPL was
// found at configure time. A standalone program: it reports distributions
// (median / p95 plan time, success, path length before / after
// shortcutting) per problem and overall, as markdown and JSON.
//
//   joint_path_planning_bench [--seeds=N] [--timeout=S] [--step=RAD]
//                             [--shortcut_rounds=N] [--json=FILE]

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "bench_io.h"
#include "core/planning/joint_path_planner.h"
#include "joint_path_problems.h"
#include "json_writer.h"
#ifdef MOTIOND_BENCH_WITH_OMPL
#include "joint_path_ompl.h"
#endif

namespace motion_bench {
namespace {

struct Run {
  bool solved = false;
  double seconds = 0.0, length_before = 0.0, length_after = 0.0;
  double search_seconds = 0.0;  ///< of `seconds`, before shortcutting (motiond only)
};

struct Summary {
  double median_ms = 0.0, p95_ms = 0.0, success = 0.0, length_before = 0.0, length_after = 0.0;
  double search_median_ms = 0.0;
};

double Quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<std::size_t>(q * (v.size() - 1) + 0.5))];
}

// Times over every run (a failure counts with the time it took: the
// timeout, when that ended it); lengths as medians over the solved runs.
Summary Summarise(const std::vector<Run>& runs) {
  Summary s;
  std::vector<double> ms, search_ms, before, after;
  int solved = 0;
  for (const Run& r : runs) {
    ms.push_back(1e3 * r.seconds);
    search_ms.push_back(1e3 * r.search_seconds);
    if (!r.solved) continue;
    ++solved;
    before.push_back(r.length_before);
    after.push_back(r.length_after);
  }
  s.median_ms = Quantile(ms, 0.5);
  s.p95_ms = Quantile(ms, 0.95);
  s.search_median_ms = Quantile(search_ms, 0.5);
  s.success = runs.empty() ? 0.0 : static_cast<double>(solved) / runs.size();
  s.length_before = Quantile(before, 0.5);
  s.length_after = Quantile(after, 0.5);
  return s;
}

Run RunMotiond(const JointPathProblem& p, std::uint64_t seed, double step, double timeout,
               int shortcut_rounds, int patience) {
  motion::ChainData data(*p.robot->chain);
  motion::JointPathOptions options;
  options.seed = seed;
  options.step = step;
  options.timeout = timeout;
  options.shortcut_rounds = shortcut_rounds;
  options.shortcut_patience = patience;
  const auto result = motion::PlanJointPath(*p.robot->chain, data, *p.robot->collision, *p.scene,
                                            p.start, p.goal, options);
  Run r;
  if (!result.ok()) return r;
  r.solved = result->outcome == motion::JointPathOutcome::kFound ||
             result->outcome == motion::JointPathOutcome::kStraightLineClear;
  r.seconds = result->stats.total_seconds;
  r.search_seconds = result->stats.search_seconds;
  r.length_before = result->stats.length_before_shortcut;
  r.length_after = result->stats.length_after_shortcut;
  return r;
}

void Row(const std::string& name, const std::string& planner, const Summary& s) {
  std::printf("| %-22s | %-7s | %8.2f | %8.2f | %6.1f %% | %6.2f | %6.2f |\n", name.c_str(),
              planner.c_str(), s.median_ms, s.p95_ms, 100.0 * s.success, s.length_before,
              s.length_after);
}

void WriteSummary(JsonWriter& json, const Summary& s) {
  json.BeginObject();
  json.Key("median_ms").Number(s.median_ms);
  json.Key("p95_ms").Number(s.p95_ms);
  json.Key("search_median_ms").Number(s.search_median_ms);
  json.Key("success").Number(s.success);
  json.Key("median_length_before").Number(s.length_before);
  json.Key("median_length_after").Number(s.length_after);
  json.EndObject();
}

}  // namespace
}  // namespace motion_bench

int main(int argc, char** argv) {
  using namespace motion_bench;
  int seeds = 10;
  double timeout = 1.0, step = motion::JointPathOptions().step;
  int shortcut_rounds = motion::JointPathOptions().shortcut_rounds;
  int patience = motion::JointPathOptions().shortcut_patience;
  std::string json_path = "joint_path_planning.json";
  for (int i = 1; i < argc; ++i) {
    const FlagArgument f = SplitFlag(argv[i]);
    double v = 0.0;
    if (f.name == "--seeds" && ParseNumber(f.value, v) && v >= 1) {
      seeds = static_cast<int>(v);
    } else if (f.name == "--timeout" && ParseNumber(f.value, v) && v > 0) {
      timeout = v;
    } else if (f.name == "--step" && ParseNumber(f.value, v) && v > 0) {
      step = v;
    } else if (f.name == "--shortcut_rounds" && ParseNumber(f.value, v) && v >= 0) {
      shortcut_rounds = static_cast<int>(v);
    } else if (f.name == "--shortcut_patience" && ParseNumber(f.value, v) && v >= 1) {
      patience = static_cast<int>(v);
    } else if (f.name == "--json") {
      json_path = f.value;
    } else {
      std::cerr << "usage: " << argv[0]
                << " [--seeds=N] [--timeout=S] [--step=RAD] [--shortcut_rounds=N] "
                   "[--json=FILE]\n";
      return 2;
    }
  }
  const std::vector<BenchRobot> robots = {LoadBenchRobot("ur5.urdf"), LoadBenchRobot("panda.urdf")};
  const std::vector<JointPathProblem> problems = BuildProblems(robots);
#ifdef MOTIOND_BENCH_WITH_OMPL
  const bool with_ompl = true;
#else
  const bool with_ompl = false;
  std::printf("OMPL was not found at configure time: motiond only, no comparison.\n\n");
#endif
  std::printf("%zu problems, %d seeds each, timeout %.3g s, step %.3g rad, %d shortcut rounds\n\n",
              problems.size(), seeds, timeout, step, shortcut_rounds);
  std::printf(
      "| problem                | planner | median ms | p95 ms | success | length | shortcut |\n");
  std::printf("|---|---|---:|---:|---:|---:|---:|\n");
  std::vector<Run> all_motiond, all_ompl;
  std::ofstream out(json_path);
  JsonWriter json(out);
  json.BeginObject();
  json.Key("seeds").Int(seeds);
  json.Key("timeout_s").Number(timeout);
  json.Key("step").Number(step);
  json.Key("shortcut_rounds").Int(shortcut_rounds);
  json.Key("problems").BeginArray();
  for (const JointPathProblem& p : problems) {
    std::vector<Run> motiond_runs, ompl_runs;
    for (int s = 0; s < seeds; ++s) {
      motiond_runs.push_back(RunMotiond(p, static_cast<std::uint64_t>(s + 1), step, timeout,
                                        shortcut_rounds, patience));
#ifdef MOTIOND_BENCH_WITH_OMPL
      const PlannerRun o = RunOmplRrtConnect(p, step, timeout);
      ompl_runs.push_back({o.solved, o.seconds, o.length_before, o.length_after});
#endif
    }
    all_motiond.insert(all_motiond.end(), motiond_runs.begin(), motiond_runs.end());
    all_ompl.insert(all_ompl.end(), ompl_runs.begin(), ompl_runs.end());
    const Summary m = Summarise(motiond_runs);
    Row(p.name, "motiond", m);
    json.BeginObject();
    json.Key("name").String(p.name);
    json.Key("start").Numbers(p.start);
    json.Key("goal").Numbers(p.goal);
    json.Key("motiond");
    WriteSummary(json, m);
    if (with_ompl) {
      const Summary o = Summarise(ompl_runs);
      Row(p.name, "OMPL", o);
      json.Key("ompl");
      WriteSummary(json, o);
    }
    json.EndObject();
    std::fflush(stdout);
  }
  json.EndArray();
  const Summary m = Summarise(all_motiond);
  Row("all", "motiond", m);
  json.Key("all_motiond");
  WriteSummary(json, m);
  if (with_ompl) {
    const Summary o = Summarise(all_ompl);
    Row("all", "OMPL", o);
    json.Key("all_ompl");
    WriteSummary(json, o);
    std::printf("\nmedian OMPL / motiond: %.2fx, p95: %.2fx\n", o.median_ms / m.median_ms,
                o.p95_ms / m.p95_ms);
  }
  std::printf("motiond median search (before shortcutting): %.2f ms\n", m.search_median_ms);
  json.EndObject();
  return 0;
}
