#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz, clang with ASan + UBSan, in
# build-fuzz/) and runs each one from its seed corpus for FUZZ_SECONDS
# (default 60), leak detection on. Fails on any crash, leak, timeout,
# out-of-memory or sanitizer report; the input that caused it is kept in
# BUILD/fuzz-runs/<target>/artifacts/ and the log beside it. Prints the
# executions and executions per second of every target.
#
#   scripts/ci_fuzz_smoke.sh                  # 60 s each (CI)
#   FUZZ_SECONDS=600 scripts/ci_fuzz_smoke.sh request_fuzzer
#
# Environment: FUZZ_SECONDS, FUZZ_BUILD_DIR (build-fuzz), FUZZ_JOBS (2),
# FUZZ_NICE (15: the fuzzers share the machine), FUZZ_TIMEOUT (seconds one
# input may take, per target below), FUZZ_RSS_MB (2048).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${FUZZ_SECONDS:-60}
build_dir=${FUZZ_BUILD_DIR:-build-fuzz}
jobs=${FUZZ_JOBS:-2}
niceness=${FUZZ_NICE:-15}
rss_mb=${FUZZ_RSS_MB:-2048}
all_targets=(urdf_fuzzer stl_fuzzer request_fuzzer)
targets=("${@:-${all_targets[@]}}")

# One input's time bound. Typical inputs take well under 10 ms; a request
# that plans a 2000-point path with collision checks takes ~0.3 s under
# the sanitizers, more on a loaded machine.
timeout_for() {
  if [[ -n "${FUZZ_TIMEOUT:-}" ]]; then echo "$FUZZ_TIMEOUT"; return; fi
  case "$1" in
    request_fuzzer) echo 30 ;;
    *) echo 10 ;;
  esac
}

bash scripts/bootstrap.sh
started=$(date +%s)
if [[ ! -f "$build_dir/CMakeCache.txt" ]]; then
  nice -n "$niceness" cmake -S . -B "$build_dir" -DMOTIOND_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++ \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMOTIOND_BUILD_TESTS=OFF -DMOTIOND_BUILD_BENCH=OFF \
    > "$build_dir.configure.log" 2>&1 || { cat "$build_dir.configure.log"; exit 1; }
fi
nice -n "$niceness" cmake --build "$build_dir" -j"$jobs" --target "${targets[@]}"
echo "fuzz: built ${targets[*]} in $(( $(date +%s) - started )) s"

# Sanitizer reports: symbolized, and every kind fatal.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
if command -v llvm-symbolizer-14 > /dev/null; then
  export ASAN_SYMBOLIZER_PATH=${ASAN_SYMBOLIZER_PATH:-$(command -v llvm-symbolizer-14)}
fi

failed=()
summary=()
for target in "${targets[@]}"; do
  run_dir="$build_dir/fuzz-runs/$target"
  # New inputs go to a scratch corpus; the seeds in the repository are only read.
  rm -rf "$run_dir/artifacts"
  mkdir -p "$run_dir/corpus" "$run_dir/artifacts"
  log="$run_dir/fuzz.log"
  echo "fuzz: $target for ${seconds} s (log $log)"
  rc=0
  nice -n "$niceness" "$build_dir/tests/fuzz/$target" \
    -max_total_time="$seconds" -timeout="$(timeout_for "$target")" -rss_limit_mb="$rss_mb" \
    -detect_leaks=1 -print_final_stats=1 -artifact_prefix="$run_dir/artifacts/" \
    "$run_dir/corpus" "tests/fuzz/corpus/$target" > "$log" 2>&1 || rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  line="$target: ${execs:-?} executions, ${rate:-?} exec/s"
  if [[ $rc -ne 0 ]] || [[ -n "$(ls -A "$run_dir/artifacts")" ]] \
     || grep -qE '^(==[0-9]+==ERROR|SUMMARY: (Address|Leak|UndefinedBehavior)Sanitizer)|runtime error:' "$log"; then
    failed+=("$target")
    line+=", FAILED (exit $rc)"
    grep -E 'ERROR|SUMMARY|runtime error|Test unit written|raw' "$log" | head -20 || true
  fi
  summary+=("$line")
done

printf 'fuzz: %s\n' "${summary[@]}"
echo "fuzz: done in $(( $(date +%s) - started )) s"
if [[ ${#failed[@]} -gt 0 ]]; then
  echo "fuzz: findings in ${failed[*]}; inputs in $build_dir/fuzz-runs/<target>/artifacts/" >&2
  exit 1
fi
