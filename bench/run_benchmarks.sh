#!/usr/bin/env bash
# Runs the core kinematics benchmarks (motiond vs KDL) from an existing build
# and prints a markdown summary. Builds nothing: build first with
#   cmake -S . -B build -DCMAKE_BUILD_TYPE=Release && cmake --build build --target kinematics_bench
# Usage: bench/run_benchmarks.sh [BUILD_DIR]   (default: build)
# Extra arguments after BUILD_DIR go to kinematics_bench, e.g.
#   bench/run_benchmarks.sh build --benchmark_filter='/ur5$'
set -euo pipefail

build_dir="${1:-build}"
shift || true
bench="${build_dir}/bench/kinematics_bench"
json="${build_dir}/bench/kinematics.json"

if [[ ! -x "${bench}" ]]; then
  echo "run_benchmarks.sh: ${bench} not found; build the kinematics_bench target first" >&2
  exit 1
fi

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
