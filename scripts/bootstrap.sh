#!/usr/bin/env bash
# Installs the Debian 12 packages motiond needs to build, test and run.
# Idempotent: does nothing when everything is installed; runs apt-get update
# only when something is missing. Root runs apt-get directly, others via sudo.
set -euo pipefail
# --build-only: just what `cmake --build` needs (deploy/Dockerfile's build stage).

packages=(
  # toolchain
  build-essential cmake pkg-config
  # libraries (design.md, "Dependencies")
  libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler libabsl-dev
  liborocos-kdl-dev liburdfdom-dev libeigen3-dev libspdlog-dev prometheus-cpp-dev
  libssl-dev libtinyxml-dev
  # collision checking in core (FCL 0.7; pulls libccd-dev and liboctomap-dev)
  libfcl-dev
)
if [[ "${1:-}" != "--build-only" ]]; then
  packages+=(
    # tests, benchmarks and formatting
    clang-format libgtest-dev libgmock-dev libbenchmark-dev
    # tests and tools
    python3 procps
    # deploy tests (tests/deploy): promtool, YAML, JSON schema, a raw gRPC health check,
    # unzip for scripts/install-helm.sh (Helm comes from npm, not Debian)
    prometheus python3-yaml python3-jsonschema python3-grpcio unzip
    # libFuzzer targets (make fuzz, scripts/ci_fuzz_smoke.sh): clang 14, its
    # sanitizer and fuzzer runtimes (only a Recommends of clang), and
    # llvm-symbolizer for readable sanitizer reports
    clang libclang-rt-14-dev llvm-14
  )
fi

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "bootstrap: all ${#packages[@]} packages present"
  exit 0
fi

sudo=()
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "bootstrap: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo=(sudo)
fi
echo "bootstrap: installing ${missing[*]}"
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
