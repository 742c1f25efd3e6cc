// IK benchmark: markdown tables and failure cases.
#include "bench/ik_bench_protocol.h"

namespace ik_bench {

std::string FormatQ(const Eigen::VectorXd& q) {
  std::ostringstream out;
  out.precision(17);
  out << "(";
  for (Eigen::Index i = 0; i < q.size(); ++i) out << (i ? ", " : "") << q[i];
  out << ")";
  return out.str();
}

std::string Printf(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

// ---- report ----

std::string Percent(std::size_t part, std::size_t whole) {
  return whole ? Printf("%.2f %%", 100.0 * part / whole) : "–";
}

std::string Micro(double us) {
  return us >= 100 ? Printf("%.0f", us) : us >= 10 ? Printf("%.1f", us) : Printf("%.2f", us);
}

std::string Outcomes(const SolverRun& r) {
  std::string text;
  for (const auto& [outcome, n] : r.failure_outcomes) {
    text += (text.empty() ? "" : ", ") + outcome + " " + std::to_string(n);
  }
  if (r.preempted_failures > 0) {
    text += " (" + std::to_string(r.preempted_failures) + " of them preempted)";
  }
  return text.empty() ? "–" : text;
}

std::string Disagreements(const SolverRun& r) {
  if (r.ok_but_check_failed + r.failed_but_check_ok == 0) return "0";
  return std::to_string(r.ok_but_check_failed) + " ok/check failed, " +
         std::to_string(r.failed_but_check_ok) + " failed/check ok";
}

std::string Row(const SolverRun& r) {
  const LatencySummary s = motion_bench::Summarize(r.times_us);
  const LatencySummary cpu = motion_bench::Summarize(r.cpu_times_us);
  return std::to_string(r.samples) + " | " + Percent(r.strict, r.samples) + " | " +
         Percent(r.pose_only, r.samples) + " | " + Micro(s.mean) + " | " + Micro(s.median) + " | " +
         Micro(s.p99) + " | " + Micro(s.max) + " | " + Micro(cpu.mean) + " | " +
         std::to_string(r.preempted) + " | " + Outcomes(r) + " | " + Disagreements(r) + " |";
}

const char* const kRowHeader =
    "samples | strict success | success ignoring limits | mean µs | median µs | p99 µs | max µs | "
    "mean CPU µs | preempted | failures | solver/check disagreements |";
const char* const kRowRule = "---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|";

void PrintUniformTable(const std::vector<ArmReport>& reports, bool synthetic) {
  std::printf("| robot | DOF | solver | %s\n|---|---:|---|%s\n", kRowHeader, kRowRule);
  for (const ArmReport& a : reports) {
    if (a.arm->synthetic != synthetic) continue;
    for (const SolverRun& r : a.uniform_runs) {
      std::printf("| %s | %d | %s | %s\n", a.arm->name.c_str(), a.arm->chain->dof(),
                  r.label.c_str(), Row(r).c_str());
    }
  }
}

void PrintTargets(const std::vector<ArmReport>& reports) {
  std::printf(
      "| robot | DOF | motiond strict success | ≥ 99.9 %% | mean µs | ≤ 100 µs | p99 µs | ≤ 1 ms "
      "| preempted |\n");
  std::printf("|---|---:|---:|:---:|---:|:---:|---:|:---:|---:|\n");
  for (const ArmReport& a : reports) {
    if (a.arm->synthetic || a.uniform_runs.empty()) continue;
    const SolverRun& r = a.uniform_runs.front();
    const LatencySummary s = motion_bench::Summarize(r.times_us);
    const bool rate = r.strict >= 0.999 * r.samples;
    std::printf("| %s | %d | %s | %s | %s | %s | %s | %s | %zu |\n", a.arm->name.c_str(),
                a.arm->chain->dof(), Percent(r.strict, r.samples).c_str(), rate ? "yes" : "**no**",
                Micro(s.mean).c_str(), s.mean <= 100.0 ? "yes" : "**no**", Micro(s.p99).c_str(),
                s.p99 <= 1000.0 ? "yes" : "**no**", r.preempted);
  }
}

const SolverRun* FindRun(const std::vector<SolverRun>& runs, const std::string& key) {
  for (const SolverRun& r : runs) {
    if (r.key == key) return &r;
  }
  return nullptr;
}

void PrintLmaTable(const std::vector<ArmReport>& reports) {
  std::printf(
      "| robot | LMA (motiond baseline, default weights): strict | ignoring limits | KDL's own "
      "test, limits ignored | LMA unit weights: strict | ignoring limits | KDL's own test |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---:|\n");
  for (const ArmReport& a : reports) {
    const SolverRun* lma = FindRun(a.uniform_runs, "kdl_lma");
    const SolverRun* unit = FindRun(a.uniform_runs, "kdl_lma_unit_weights");
    if (lma == nullptr || unit == nullptr) continue;
    std::printf("| %s | %s | %s | %s | %s | %s | %s |\n", a.arm->name.c_str(),
                Percent(lma->strict, lma->samples).c_str(),
                Percent(lma->pose_only, lma->samples).c_str(),
                Percent(lma->lma_own_test, lma->samples).c_str(),
                Percent(unit->strict, unit->samples).c_str(),
                Percent(unit->pose_only, unit->samples).c_str(),
                Percent(unit->solver_ok_count, unit->samples).c_str());
  }
}

void PrintSingularTables(const std::vector<ArmReport>& reports) {
  std::printf("| robot | solver | elbow | wrist | low σ_min | %s\n|---|---|---:|---:|---:|%s\n",
              kRowHeader, kRowRule);
  for (const ArmReport& a : reports) {
    for (const SolverRun& r : a.singular_runs) {
      std::printf("| %s | %s | %s | %s | %s | %s\n", a.arm->name.c_str(), r.label.c_str(),
                  Percent(r.category_strict[kElbow], r.category_samples[kElbow]).c_str(),
                  Percent(r.category_strict[kWrist], r.category_samples[kWrist]).c_str(),
                  Percent(r.category_strict[kLowSigma], r.category_samples[kLowSigma]).c_str(),
                  Row(r).c_str());
    }
  }
  std::printf(
      "\n| robot | elbow joint: window (rad) | wrist joint: window (rad) | median σ_min: uniform "
      "| elbow set | wrist set | low-σ set (threshold) |\n");
  std::printf("|---|---|---|---:|---:|---:|---:|\n");
  for (const ArmReport& a : reports) {
    if (a.windows.size() != 2) continue;
    auto window = [](const ArmReport::Window& w) {
      return std::string(w.spec->joint) + " [" + Printf("%.4f", w.lower) + ", " +
             Printf("%.4f", w.upper) + "]";
    };
    std::printf("| %s | %s | %s | %s | %s | %s | %s (< %s) |\n", a.arm->name.c_str(),
                window(a.windows[0]).c_str(), window(a.windows[1]).c_str(),
                Printf("%.3g", a.uniform_sigma_median).c_str(),
                Printf("%.3g", a.category_sigma_median[kElbow]).c_str(),
                Printf("%.3g", a.category_sigma_median[kWrist]).c_str(),
                Printf("%.3g", a.category_sigma_median[kLowSigma]).c_str(),
                Printf("%.3g", a.low_sigma_threshold).c_str());
  }
}

void PrintCases(const ArmReport& a, const std::vector<SolverRun>& runs, const char* protocol) {
  for (const SolverRun& r : runs) {
    const bool motiond = r.key == "lm";
    if (!(motiond && r.strict < r.samples) && r.disagreements.empty()) continue;
    auto print = [&](const Case& c, const char* what) {
      std::fprintf(stderr,
                   "  %s %s %s #%zu [%s]: outcome %s, solver ok %d, within limits %d, |dp| %.3e m, "
                   "angle %.3e rad, %.0f µs (CPU %.0f µs), %d attempts\n    q    = %s\n",
                   a.arm->name.c_str(), protocol, r.key.c_str(), c.index, what, c.outcome.c_str(),
                   c.solver_ok, c.verdict.within_limits, c.verdict.position_error,
                   c.verdict.rotation_error, c.time_us, c.cpu_us, c.attempts,
                   FormatQ(c.problem->q).c_str());
      if (!c.problem->seed.empty()) {
        std::fprintf(stderr, "    seed = %s\n",
                     FormatQ(Eigen::Map<const Eigen::VectorXd>(c.problem->seed.data(),
                                                               c.problem->seed.size()))
                         .c_str());
      }
    };
    if (motiond) {
      for (std::size_t i = 0; i < std::min(kPrintedCases, r.failures.size()); ++i) {
        print(r.failures[i], "failure");
      }
      for (std::size_t i = 0; i < std::min(kPrintedCases, r.preempted_failure_cases.size()); ++i) {
        print(r.preempted_failure_cases[i], "failure, preempted");
      }
    }
    for (std::size_t i = 0; i < std::min(kPrintedCases, r.disagreements.size()); ++i) {
      print(r.disagreements[i], "DISAGREEMENT");
    }
  }
}

}  // namespace ik_bench
