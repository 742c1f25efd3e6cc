#!/usr/bin/env bash
# The test suite under sanitizers, as .ci/run runs it (README "Limits and
# protection" / "Build notes"):
#   asan  ASan + UBSan (leaks included): the unit, service and concurrency
#         tests;
#   tsan  TSan: the concurrency tests (tests/concurrency: the solver pool,
#         budgets, registries and caches from many threads). Not the RPC
#         tests: Debian's gRPC is not built with
#         TSan, so its own locks are invisible and every hand-off between
#         its threads and ours is reported (tens of thousands of reports per
#         run, all in grpcpp's inline headers and protobuf messages crossing
#         threads); only a TSan-built gRPC would make those runs meaningful.
# Each job configures its own build dir (build-asan, build-tsan) with -O1 -g1
# and no benchmarks. Any report fails the test it happens in (halt_on_error).
# The large randomised tests run a quarter of their cases here
# (tests/common/test_scale.h; all of them in the normal build).
# Tests that assert wall-clock latencies are left out here: a sanitizer's
# 3-15x slowdown is not what they measure (they run in the normal build).
# Usage: scripts/ci_sanitizers.sh [asan] [tsan]   (default: both)
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS=${JOBS:-$(nproc)}
jobs=("$@")
[[ ${#jobs[@]} -gt 0 ]] || jobs=(asan tsan)
timing_tests='ShortLaneTest|PlanCancelTest|IkLatency|Latency'
supp="$PWD/tests/sanitizers"

configure_and_build() {  # DIR SANITIZE [TARGET...]
  local dir=$1 sanitize=$2 start=$SECONDS
  shift 2
  local targets=()
  [[ $# -eq 0 ]] || targets=(--target "$@")
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" \
    -DMOTIOND_SANITIZE="$sanitize" -DMOTIOND_BUILD_BENCH=OFF >"$dir.configure.log" 2>&1 ||
    { cat "$dir.configure.log"; exit 1; }
  cmake --build "$dir" -j"$JOBS" "${targets[@]}" >"$dir.build.log" 2>&1 ||
    { tail -50 "$dir.build.log"; exit 1; }
  echo "sanitizers: $dir built in $((SECONDS - start)) s"
}

for job in "${jobs[@]}"; do
  start=$SECONDS
  case $job in
    asan)
      # Only the executables of the tests run below (no clients, no fleet).
      configure_and_build build-asan address,undefined unit_tests service_tests shared_state_test
      ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1" \
      LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0" \
      UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:suppressions=$supp/ubsan.supp" \
      MOTIOND_TEST_SCALE=${MOTIOND_TEST_SCALE:-0.25} \
        ctest --test-dir build-asan -L 'unit|service|concurrency' -E "$timing_tests" -j"$JOBS" --output-on-failure
      ;;
    tsan)
      configure_and_build build-tsan thread shared_state_test
      TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$supp/tsan.supp" \
        ctest --test-dir build-tsan -L concurrency -j"$JOBS" --output-on-failure
      ;;
    *) echo "unknown job $job (asan, tsan)"; exit 2 ;;
  esac
  echo "sanitizers: $job done in $((SECONDS - start)) s"
done
