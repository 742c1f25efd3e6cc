// IK benchmark: TRAC-IK's protocol on the default chain of every
// bundled robot, motiond's default solver next to KDL's NR_JL and LMA in the
// same run.
//
// Uniform protocol: N joint vectors uniform within limits -> FK -> target;
// solve from the mid-range seed with a 5 ms budget. Near-singular protocol
// (ur5, panda, iiwa14): targets with the elbow or the wrist within 0.05 rad
// of straight, plus the 1 % of uniform samples with the smallest sigma_min;
// seeds random within limits. A solve counts as a success only when the
// solver says ok AND the benchmark's own check (strict_ik_check.h: FK of the
// returned joints here, within limits, |dp| <= 1e-5 m, angle <= 1e-5 rad)
// agrees; every disagreement is counted and reported.
//
// Not Google Benchmark: this measures a success rate and a latency
// distribution (one steady_clock reading around each solve, single thread),
// not the mean of a tight loop. Writes JSON (--out=FILE) and prints markdown.

#include "bench/ik_bench_protocol.h"

using namespace ik_bench;  // NOLINT: the benchmark's own namespace

int main(int argc, char** argv) {
  Flags flags;
  if (!ParseFlags(argc, argv, flags)) return 2;
  const Clock::time_point run_start = Clock::now();
  const std::time_t now = std::time(nullptr);
  char started[32];
  std::strftime(started, sizeof started, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  std::string load_average;
  std::getline(std::ifstream("/proc/loadavg"), load_average);

  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(MOTIOND_ROBOTS_DIR)) {
    if (entry.path().extension() != ".urdf") continue;
    const std::string name = entry.path().stem().string();
    if (flags.robots.empty() ||
        std::find(flags.robots.begin(), flags.robots.end(), name) != flags.robots.end()) {
      files.push_back(entry.path());
    }
  }
  for (const std::string& robot : flags.robots) {
    if (std::none_of(files.begin(), files.end(),
                     [&](const auto& file) { return file.stem().string() == robot; })) {
      Die("--robots: no " + robot + ".urdf in " + MOTIOND_ROBOTS_DIR);
    }
  }
  // Real arms first, then the synthetic ones; by name within each group.
  std::vector<Arm> arms(files.size());
  for (std::size_t i = 0; i < files.size(); ++i) LoadArm(files[i], arms[i]);
  std::sort(arms.begin(), arms.end(), [](const Arm& a, const Arm& b) {
    return std::make_pair(a.synthetic, a.name) < std::make_pair(b.synthetic, b.name);
  });
  if (arms.empty()) Die(std::string("no matching *.urdf in ") + MOTIOND_ROBOTS_DIR);

  std::fprintf(stderr, "ik_bench: %zu robots, %d samples (KDL %d), timeout %.1f ms, 1 thread\n",
               arms.size(), flags.samples, flags.kdl_samples, flags.timeout_ms);
  std::vector<ArmReport> reports(arms.size());
  motion::ChainDataCache cache;
  for (std::size_t i = 0; i < arms.size(); ++i) {
    const Arm& arm = arms[i];
    ArmReport& report = reports[i];
    report.arm = &arm;
    const Clock::time_point arm_start = Clock::now();
    motion::IkData& ws = cache.For(arm.chain);
    if (arm.kdl_ok) ws.Kdl(*arm.chain);  // built here, not inside the first timed solve
    StrictIkCheck check(*arm.chain, kPositionTolerance, kRotationTolerance);
    report.judge_fk = check.fk_name();

    report.uniform = UniformProblems(arm, std::max(flags.samples, flags.kdl_samples));
    report.uniform_runs = RunSolvers(arm, ws, check, report.uniform, flags.samples,
                                     flags.kdl_samples, flags, "uniform");
    PrintCases(report, report.uniform_runs, "uniform");

    const bool singular =
        flags.singular && std::any_of(std::begin(kStraightJoints), std::end(kStraightJoints),
                                      [&](const StraightJoint& s) { return arm.name == s.robot; });
    if (singular) {
      SingularProblems(arm, flags, report);
      report.singular_runs = RunSolvers(arm, ws, check, report.singular, report.singular.size(),
                                        report.singular.size(), flags, "near-singular");
      PrintCases(report, report.singular_runs, "near-singular");
    }
    report.seconds = std::chrono::duration<double>(Clock::now() - arm_start).count();
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - run_start).count();

  if (!flags.out.empty()) {
    WriteJson(flags.out, flags, reports, started, load_average, seconds);
    std::fprintf(stderr, "ik_bench: wrote %s\n", flags.out.c_str());
  }

  std::printf("IK benchmark, %s, load average at start %s; %.0f s, 1 thread\n\n", started,
              load_average.c_str(), seconds);
  std::printf("IK targets (motiond default solver, uniform protocol, mid-range seed):\n\n");
  PrintTargets(reports);
  std::printf("\nUniform protocol, real arms (KDL on the first %d of the same targets):\n\n",
              flags.kdl_samples);
  PrintUniformTable(reports, false);
  if (flags.kdl) {
    std::printf("\nKDL LMA: what counts as success (uniform protocol):\n\n");
    PrintLmaTable(reports);
  }
  if (std::any_of(reports.begin(), reports.end(),
                  [](const ArmReport& a) { return a.arm->synthetic; })) {
    std::printf("\nUniform protocol, synthetic robots (informative only):\n\n");
    PrintUniformTable(reports, true);
  }
  if (std::any_of(reports.begin(), reports.end(),
                  [](const ArmReport& a) { return !a.singular_runs.empty(); })) {
    std::printf("\nNear-singular protocol (random seeds within limits):\n\n");
    PrintSingularTables(reports);
  }
  return 0;
}
