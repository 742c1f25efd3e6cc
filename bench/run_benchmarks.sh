#!/usr/bin/env bash
# Runs the core benchmarks from an existing build and prints markdown summaries:
# the kinematics benchmarks (motiond vs KDL FK / Jacobian, Google Benchmark)
# and the IK benchmark (ik_bench: TRAC-IK's success-rate / latency protocol).
# Builds nothing: build first with
#   cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
#   cmake --build build --target kinematics_bench ik_bench
# Usage: bench/run_benchmarks.sh [BUILD_DIR]   (default: build)
# Extra arguments after BUILD_DIR go to kinematics_bench, e.g.
#   bench/run_benchmarks.sh build --benchmark_filter='/ur5$'
# Environment:
#   BENCHES="kinematics ik"   which benchmarks to run (default: both)
#   IK_BENCH_ARGS="..."       extra arguments for ik_bench, e.g. "--samples=1000 --robots=ur5"
#   IK_BENCH_PREFIX="..."     command to run ik_bench under, e.g. "chrt -f 1" (root) on a busy
#                             machine, so other processes cannot preempt the timed solves
set -euo pipefail

build_dir="${1:-build}"
shift || true
benches="${BENCHES:-kinematics ik}"
bench="${build_dir}/bench/kinematics_bench"
json="${build_dir}/bench/kinematics.json"
ik_bench="${build_dir}/bench/ik_bench"
ik_json="${build_dir}/bench/ik.json"

for name in ${benches}; do
  case "${name}" in
    kinematics) binary="${bench}" ;;
    ik) binary="${ik_bench}" ;;
    *) echo "run_benchmarks.sh: unknown benchmark '${name}' in BENCHES" >&2; exit 1 ;;
  esac
  if [[ ! -x "${binary}" ]]; then
    echo "run_benchmarks.sh: ${binary} not found; build the $(basename "${binary}") target first" >&2
    exit 1
  fi
done

# Google Benchmark, 3 repetitions; the heredoc below stays at column 0.
run_kinematics() {
  "${bench}" \
    --benchmark_out="${json}" \
    --benchmark_out_format=json \
    --benchmark_repetitions=3 \
    --benchmark_report_aggregates_only=true \
    "$@"

  echo
  echo "Results: ${json}"
  echo

  # Median of the 3 repetitions, CPU time per call. Standard library only.
  /usr/bin/python3 - "${json}" <<'PY'
import json
import sys

with open(sys.argv[1]) as f:
    report = json.load(f)

TO_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
times = {}  # (group, impl, robot) -> ns
dof = {}
for b in report["benchmarks"]:
    if b.get("run_type") != "aggregate" or b.get("aggregate_name") != "median":
        continue
    group, impl, robot = b["run_name"].split("/", 2)
    times[(group, impl, robot)] = b["cpu_time"] * TO_NS[b.get("time_unit", "ns")]
    if "dof" in b:
        dof[robot] = int(round(b["dof"]))

robots = sorted({r for (_, _, r) in times})

def ns(group, impl, robot):
    t = times.get((group, impl, robot))
    return "–" if t is None else f"{t:.0f}"

def speedup(group, robot):
    m, k = times.get((group, "motiond", robot)), times.get((group, "kdl", robot))
    return "–" if not m or not k else f"{k / m:.1f}×"

ctx = report.get("context", {})
print(f"{ctx.get('num_cpus', '?')} CPUs @ {ctx.get('mhz_per_cpu', '?')} MHz, "
      f"load average {', '.join(f'{x:.2f}' for x in ctx.get('load_avg', []))}; "
      "median of 3 repetitions, CPU ns per call")
print()
print("| robot | DOF | FK motiond (ns) | FK KDL (ns) | speed-up "
      "| Jacobian motiond (ns) | Jacobian KDL (ns) | speed-up |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
for r in robots:
    print(f"| {r} | {dof.get(r, '?')} "
          f"| {ns('FK', 'motiond', r)} | {ns('FK', 'kdl', r)} | {speedup('FK', r)} "
          f"| {ns('Jacobian', 'motiond', r)} | {ns('Jacobian', 'kdl', r)} "
          f"| {speedup('Jacobian', r)} |")
print()
print("| robot | FK all links motiond (ns) | FK all links KDL (ns) | speed-up "
      "| MeasureJacobian motiond (ns) |")
print("|---|---:|---:|---:|---:|")
for r in robots:
    print(f"| {r} | {ns('FkAllLinks', 'motiond', r)} | {ns('FkAllLinks', 'kdl', r)} "
          f"| {speedup('FkAllLinks', r)} | {ns('JacobianMeasures', 'motiond', r)} |")
PY
}

# ik_bench prints its own markdown tables (stdout) and writes the JSON;
# progress and any failing joint samples go to stderr. Single-threaded, ~4 min.
run_ik() {
  # shellcheck disable=SC2086  # both are word lists
  ${IK_BENCH_PREFIX:-} "${ik_bench}" --out="${ik_json}" ${IK_BENCH_ARGS:-}
  echo
  echo "Results: ${ik_json}"
}

for name in ${benches}; do
  case "${name}" in
    kinematics) run_kinematics "$@" ;;
    ik) run_ik ;;
  esac
done
