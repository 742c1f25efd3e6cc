#!/usr/bin/env bash
# build-edge.sh: the aarch64 edge build behind `make edge`.
#   1. arm64 sysroot + cross toolchain + qemu-user (setup-arm64-sysroot.sh)
#   2. cross-compile motiond, motionctl and the test binaries for Cortex-A72
#      (cmake/aarch64-toolchain.cmake), and check they are aarch64 ELF
#   3. run the core (unit) tests under qemu-aarch64 (the service tests run
#      natively in make test; the real motiond under qemu in step 5)
#   4. package dist/motiond-VERSION-linux-arm64.tar.gz: bin/ + lib/ (RPATH
#      $ORIGIN/../lib), the bundled robots, the systemd unit and INSTALL.md
#   5. tests/deploy/edge_tarball_test.sh: the tarball under qemu with only an
#      arm64 libc, health + FK from the host's motionctl, footprint figures
# Usage: build-edge.sh HOST_BUILD_DIR   (the native build: its motionctl talks to
#        the arm64 motiond, its motiond gives the x86-64 footprint for scale)
# Environment: ARM64_SYSROOT (.cache/arm64-sysroot), EDGE_BUILD_DIR (build-arm64),
#              DIST_DIR (dist), JOBS (2), EDGE_CTEST_LABELS ('^unit$'),
#              EDGE_TEST_TARGETS (what builds them: 'unit_tests'; with the
#              service label also 'service_tests'),
#              EDGE_CTEST_EXCLUDE (a ctest -E regex; empty: every test runs).
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
host_build=$(realpath "${1:?usage: build-edge.sh HOST_BUILD_DIR}")
[[ -x "$host_build/clients/motionctl" ]] || { echo "edge: no $host_build/clients/motionctl (make build)" >&2; exit 1; }
sysroot=${ARM64_SYSROOT:-$repo/.cache/arm64-sysroot}
build=${EDGE_BUILD_DIR:-build-arm64}
dist=${DIST_DIR:-dist}
jobs=${JOBS:-2}
labels=${EDGE_CTEST_LABELS:-^unit$}
read -r -a test_targets <<<"${EDGE_TEST_TARGETS:-unit_tests}"
exclude=()
if [[ -n "${EDGE_CTEST_EXCLUDE:-}" ]]; then
  exclude=(-E "$EDGE_CTEST_EXCLUDE")
  echo "edge: WARNING: tests matching '$EDGE_CTEST_EXCLUDE' are NOT run under qemu" >&2
fi
t_start=$(date +%s)
stamp() { echo "edge: [$(( $(date +%s) - t_start )) s] $*"; }

stamp "sysroot"
bash deploy/edge/setup-arm64-sysroot.sh "$sysroot"

stamp "configure $build"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_TOOLCHAIN_FILE="$repo/cmake/aarch64-toolchain.cmake" -DARM64_SYSROOT="$sysroot" \
  -DMOTIOND_BUILD_TESTS=ON -DMOTIOND_BUILD_BENCH=OFF >"$build.configure.log" 2>&1 \
  || { cat "$build.configure.log"; exit 1; }
# Only what runs here: the two binaries and the tests' executables. The
# service tests are left to the native build to keep CI within its 90
# minutes; the real server still runs under qemu in step 5.
stamp "build motiond motionctl ${test_targets[*]} (-j$jobs)"
cmake --build "$build" -j"$jobs" --target motiond motionctl "${test_targets[@]}"

stamp "architecture of the binaries"
test_bins=$(find "$build/tests" -type f -perm -u+x -name '*_test' | sort)
[[ -n "$test_bins" ]] || { echo "edge: no test binaries in $build/tests" >&2; exit 1; }
for f in "$build/server/motiond" "$build/clients/motionctl" $test_bins; do
  desc=$(file -b "$f")
  [[ "$desc" == "ELF 64-bit LSB "*", ARM aarch64,"* ]] || { echo "edge: $f is not aarch64: $desc" >&2; exit 1; }
done
file -b "$build/server/motiond"
echo "edge: $(wc -w <<<"$test_bins") test binaries, motiond and motionctl are aarch64 ELF"

stamp "tests labelled $labels under qemu-aarch64"
# qemu-user runs the tests ~25x slower than natively: the large randomised
# tests run a quarter of their cases here (tests/common/test_scale.h); all
# of them run natively in make test.
MOTIOND_TEST_SCALE=${MOTIOND_TEST_SCALE:-0.25} \
  ctest --test-dir "$build" -L "$labels" "${exclude[@]}" --output-on-failure -j"$jobs" --timeout 900

stamp "package"
version=$(sed -n 's/^project(motiond VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
name=motiond-$version-linux-arm64
stage=$dist/$name
rm -rf "$stage" "$dist/$name.tar.gz"
mkdir -p "$dist"
cmake --install "$build" --prefix "$stage" --strip
cmake --install "$build" --prefix "$stage" --component runtime_libs
mkdir -p "$stage/share/motiond/systemd"
install -m 0644 deploy/edge/motiond.service "$stage/share/motiond/systemd/motiond.service"
install -m 0644 deploy/edge/INSTALL.md "$stage/INSTALL.md"
tar -C "$dist" --owner=0 --group=0 --numeric-owner -czf "$dist/$name.tar.gz" "$name"
stamp "$dist/$name.tar.gz: $(du -h "$dist/$name.tar.gz" | cut -f1) ($(du -sh "$stage" | cut -f1) unpacked)"

stamp "tarball under qemu with only an arm64 libc"
bash tests/deploy/edge_tarball_test.sh "$dist/$name.tar.gz" "$host_build" \
  "$dist/edge-footprint.txt"
stamp "done"
