#!/usr/bin/env bash
# Runs the core benchmarks from an existing build and prints markdown summaries:
# the kinematics benchmarks (motiond vs KDL FK / Jacobian, Google Benchmark)
# and the IK benchmark (ik_bench: TRAC-IK's success-rate / latency protocol);
# on request the service load benchmark (load_client).
# Builds nothing: build first with
#   cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
#   cmake --build build --target kinematics_bench ik_bench   (+ load_client motiond for load)
# Usage: bench/run_benchmarks.sh [BUILD_DIR]   (default: build)
# Extra arguments after BUILD_DIR go to kinematics_bench, e.g.
#   bench/run_benchmarks.sh build --benchmark_filter='/ur5$'
# Environment:
#   BENCHES="kinematics ik"   which benchmarks to run (default: both); also "load" (load_client
#                             against an in-process motiond) and "load_real" (against the
#                             real motiond binary of BUILD_DIR, started on a free port)
#   LOAD_ARGS="..."           extra arguments for load_client, e.g. "--streams=4 --duration=5"
#   LOAD_WORKERS=N            solver workers of the real motiond and of the in-process
#                             baseline for load_real (default: cores)
#   LOAD_PREFIX="..."         command to run load_client (and load_real's motiond) under, e.g.
#                             "chrt -r 1" (root) on a shared machine, so that the baseline and
#                             the service both get the cores
#   IK_BENCH_ARGS="..."       extra arguments for ik_bench, e.g. "--samples=1000 --robots=ur5"
#   IK_BENCH_PREFIX="..."     command to run ik_bench under, e.g. "chrt -f 1" (root) on a busy
#                             machine, so other processes cannot preempt the timed solves
set -euo pipefail
# shellcheck source=bench/motiond_port.sh
source "$(dirname "${BASH_SOURCE[0]}")/motiond_port.sh"

build_dir="${1:-build}"
shift || true
benches="${BENCHES:-kinematics ik}"
bench="${build_dir}/bench/kinematics_bench"
json="${build_dir}/bench/kinematics.json"
ik_bench="${build_dir}/bench/ik_bench"
ik_json="${build_dir}/bench/ik.json"
load_client="${build_dir}/bench/load_client"
motiond="${build_dir}/server/motiond"

for name in ${benches}; do
  case "${name}" in
    kinematics) binary="${bench}" ;;
    ik) binary="${ik_bench}" ;;
    load) binary="${load_client}" ;;
    load_real)
      binary="${load_client}"
      if [[ ! -x "${motiond}" ]]; then
        echo "run_benchmarks.sh: ${motiond} not found; build the motiond target first" >&2
        exit 1
      fi
      ;;
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

# load_client prints its own markdown table and writes the JSON (~40 s).
run_load() {
  # shellcheck disable=SC2086  # word lists
  ${LOAD_PREFIX:-} "${load_client}" --out="${build_dir}/bench/load.json" ${LOAD_ARGS:-}
}

# The same against the real binary: motiond on a free loopback port, killed on exit.
run_load_real() {
  local workers="${LOAD_WORKERS:-$(nproc)}" log pid port=""
  log=$(mktemp)
  # shellcheck disable=SC2086  # a word list
  ${LOAD_PREFIX:-} "${motiond}" --listen=127.0.0.1:0 --metrics_listen= --workers="${workers}" \
    >"${log}" 2>&1 &
  pid=$!
  # shellcheck disable=SC2064  # expand now: the trap must kill this pid
  trap "kill ${pid} 2>/dev/null || true; rm -f '${log}'" EXIT
  port=$(motiond_port "${log}") || exit 1
  # shellcheck disable=SC2086  # word lists
  ${LOAD_PREFIX:-} "${load_client}" --target="127.0.0.1:${port}" --workers="${workers}" \
    --server_pid="${pid}" --out="${build_dir}/bench/load_real.json" ${LOAD_ARGS:-}
  kill -TERM "${pid}"
  wait "${pid}" || true
  trap - EXIT
  rm -f "${log}"
}

for name in ${benches}; do
  case "${name}" in
    kinematics) run_kinematics "$@" ;;
    ik) run_ik ;;
    load) run_load ;;
    load_real) run_load_real ;;
  esac
done
