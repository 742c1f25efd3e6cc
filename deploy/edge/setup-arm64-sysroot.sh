#!/bin/bash
# setup-arm64-sysroot.sh [SYSROOT_DIR]
#
# Debian 12 (bookworm) amd64 host, run as root (or with sudo). Installs the amd64
# cross toolchain, host code generators (protoc, grpc_cpp_plugin) and qemu-user,
# then builds a separate arm64 sysroot holding motiond's arm64 -dev packages
# (extracted, not installed: no maintainer scripts, no emulation, no changes to
# the host's dpkg database). Idempotent: present host packages are not
# reinstalled and an up-to-date sysroot is reused.
# Default SYSROOT_DIR: $ARM64_SYSROOT, else .cache/arm64-sysroot in the repo.
# Project copy of ../shared/tools/arm64/setup-arm64-sysroot.sh.
#
# Why not multiarch (dpkg --add-architecture arm64 + pkg:arm64 in the host)?
# prometheus-cpp-dev depends on `civetweb`, which is not Multi-Arch, so
# prometheus-cpp-dev:amd64 and :arm64 cannot be installed together; every
# Multi-Arch: same package must also be at the identical version in both arches
# (forces host upgrades). A sysroot has neither problem.
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
SYSROOT=${1:-${ARM64_SYSROOT:-$repo/.cache/arm64-sysroot}}
SUITE=bookworm

# Host (amd64) packages: cross compiler, code generators, emulator, sysroot builder,
# and what the tarball test uses (systemd-analyze, a gRPC health check).
HOST_PKGS=(cmake make pkg-config file g++ g++-aarch64-linux-gnu binutils-aarch64-linux-gnu
           protobuf-compiler protobuf-compiler-grpc qemu-user mmdebstrap
           systemd python3-grpcio)  # the last two: tests/deploy/edge_tarball_test.sh

# Target (arm64) packages; dependencies are resolved by apt for arm64.
# protobuf-compiler-grpc:arm64 is only there so that gRPC's CMake config
# (find_package(gRPC CONFIG)) passes its "file exists" check for
# <sysroot>/usr/bin/grpc_*_plugin. libtinyxml-dev: the tests' own URDF reader.
# libfcl-dev: collision checking in core (pulls libccd-dev and liboctomap-dev).
# Changing this list rebuilds the sysroot on the next run (.sysroot-request).
TARGET_PKGS=(libc6-dev zlib1g-dev libssl-dev
             libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev libabsl-dev
             liborocos-kdl-dev libeigen3-dev liburdfdom-dev liburdfdom-headers-dev
             libtinyxml-dev libspdlog-dev libfmt-dev prometheus-cpp-dev
             libfcl-dev
             libgtest-dev libgmock-dev)

sudo=()
[[ $(id -u) -eq 0 ]] || sudo=(sudo)

t0=$(date +%s)
export DEBIAN_FRONTEND=noninteractive
missing=()
for p in "${HOST_PKGS[@]}"; do
  [[ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)" == "install ok installed" ]] \
    || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup-arm64-sysroot: installing ${missing[*]}"
  "${sudo[@]}" apt-get -q -o DPkg::Lock::Timeout=600 update
  "${sudo[@]}" apt-get install -y -q --no-install-recommends -o DPkg::Lock::Timeout=600 "${missing[@]}"
fi
t1=$(date +%s)

stamp_want=$(printf '%s\n' "$SUITE" "${TARGET_PKGS[@]}")
if [ -f "$SYSROOT/.sysroot-request" ] && [ "$(cat "$SYSROOT/.sysroot-request")" = "$stamp_want" ]; then
  echo "sysroot $SYSROOT is up to date"
else
  "${sudo[@]}" rm -rf "$SYSROOT"
  mkdir -p "$(dirname "$SYSROOT")"
  # Use the host's own apt sources so host protoc and the sysroot's libprotobuf come
  # from the same archive (versions must match).
  mirror_args=()
  if [ -f /etc/apt/sources.list.d/debian.sources ]; then
    mirror_args=(/etc/apt/sources.list.d/debian.sources)
  elif [ -s /etc/apt/sources.list ]; then
    mirror_args=(/etc/apt/sources.list)
  fi
  include=$(IFS=,; echo "${TARGET_PKGS[*]}")
  "${sudo[@]}" mmdebstrap --mode=root --variant=extract --architectures=arm64 \
    --aptopt='APT::Install-Recommends "false"' \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' \
    --include="$include" \
    --extract-hook='cd "$1/var/cache/apt/archives" && ls *.deb | sort > "$1/.sysroot-packages"' \
    "$SUITE" "$SYSROOT" "${mirror_args[@]}"

  # Debian's -dev symlinks are often absolute (libz.so -> /lib/aarch64-linux-gnu/libz.so.1);
  # outside a chroot they would point into the host. Make them relative.
  find "$SYSROOT" -xdev -type l -lname '/*' -print0 | while IFS= read -r -d '' l; do
    tgt=$(readlink "$l")
    case "$tgt" in /proc/*|/dev/*) continue ;; esac
    "${sudo[@]}" ln -sfn "$(realpath -m --relative-to="$(dirname "$l")" "$SYSROOT$tgt")" "$l"
  done
  printf '%s\n' "$stamp_want" | "${sudo[@]}" tee "$SYSROOT/.sysroot-request" >/dev/null
fi
t2=$(date +%s)

# Sanity: host protoc must match the sysroot's protobuf headers (generated code checks it).
host_pv=$(protoc --version | awk '{print $2}')
sys_pv=$(sed -n 's/^#define GOOGLE_PROTOBUF_VERSION \([0-9]*\).*/\1/p' \
         "$SYSROOT/usr/include/google/protobuf/stubs/common.h")
want_pv=$(echo "$host_pv" | awk -F. '{printf "%d%03d%03d", $1, $2, $3}')
if [ "$want_pv" != "$sys_pv" ]; then
  echo "ERROR: host protoc $host_pv != sysroot protobuf $sys_pv" >&2; exit 1
fi
[ -x "$SYSROOT/lib/ld-linux-aarch64.so.1" ] || { echo "ERROR: no arm64 loader in sysroot" >&2; exit 1; }

echo "setup-arm64-sysroot: host packages $((t1 - t0)) s, sysroot $((t2 - t1)) s," \
     "size $(du -sh "$SYSROOT" | cut -f1), $(wc -l < "$SYSROOT/.sysroot-packages") packages, protoc $host_pv"
echo "ARM64_SYSROOT=$SYSROOT"
