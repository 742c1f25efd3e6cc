#!/usr/bin/env bash
# The edge tarball on a controller that has nothing but Debian's arm64 libc6
# (and libgcc-s1, which libc6 depends on), emulated with qemu-aarch64:
#   - layout: bin/ lib/ share/motiond/{robots,systemd} INSTALL.md; binaries are
#     aarch64 ELF with DT_RPATH $ORIGIN/../lib; every NEEDED library is in lib/
#     or glibc, FCL's (libfcl, libccd, liboctomap, liboctomath) by name; the
#     systemd unit passes `systemd-analyze verify` and its exposure score is low
#   - motiond starts with no robots: grpc.health.v1 says SERVING, the host's
#     motionctl registers every bundled robot and gets the UR5's published zero
#     pose back; SIGTERM exits 0
#   - motiond starts as the unit does (--robots_dir=share/motiond/robots): all
#     bundled robots preloaded, FK answers
#   - footprint: tarball size, resident memory idle and with the robots loaded
#     (qemu's RSS: an estimate), written to FOOTPRINT_OUT
# Usage: edge_tarball_test.sh TARBALL HOST_BUILD_DIR FOOTPRINT_OUT
# The controller root is cached in $ARM64_LIBC_ROOT (default .cache/arm64-libc6-root).
set -euo pipefail
tarball=$(realpath "$1") host_build=$(realpath "$2") footprint_out=$3
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
host_motionctl=$host_build/clients/motionctl
host_motiond=$host_build/server/motiond
work=$(mktemp -d)
pid=""
cleanup() { [[ -n "$pid" ]] && kill -9 "$pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; [[ -f "$work/log" ]] && tail -20 "$work/log" >&2; exit 1; }
passed=0
ok() { passed=$((passed + 1)); echo "ok: $*"; }

# --- a controller's userland: Debian 12 arm64 libc6 only --------------------
libc_root=${ARM64_LIBC_ROOT:-$repo/.cache/arm64-libc6-root}
if [[ ! -f "$libc_root/.libc6-root" ]]; then
  rm -rf "$libc_root"
  mirror=()
  [[ -f /etc/apt/sources.list.d/debian.sources ]] && mirror=(/etc/apt/sources.list.d/debian.sources)
  mmdebstrap --quiet --mode=root --variant=extract --architectures=arm64 --include=libc6 \
    --dpkgopt='path-exclude=/usr/share/*' \
    --extract-hook='cd "$1/var/cache/apt/archives" && ls *.deb | sort > "$1/.libc6-root"' \
    bookworm "$libc_root" "${mirror[@]}"
fi
[[ -x "$libc_root/lib/ld-linux-aarch64.so.1" ]] || fail "no arm64 loader in $libc_root"
extra=$(find "$libc_root" -path "$libc_root/dev" -prune -o \
  \( -name 'libstdc++*' -o -name 'libgrpc*' -o -name 'libprotobuf*' -o -name 'libssl*' \) -print | head -3)
[[ -z "$extra" ]] || fail "$libc_root holds more than libc: $extra"
ok "controller root $libc_root: $(tr '\n' ' ' <"$libc_root/.libc6-root")"

# --- layout -----------------------------------------------------------------
tar -xzf "$tarball" -C "$work"
x=$(find "$work" -mindepth 1 -maxdepth 1 -type d -name 'motiond-*')
for f in bin/motiond bin/motionctl INSTALL.md share/motiond/systemd/motiond.service; do
  [[ -f "$x/$f" ]] || fail "tarball lacks $f"
done
robots=$(ls "$x"/share/motiond/robots/*.urdf | wc -l)
[[ $robots -eq $(ls "$repo"/robots/*.urdf | wc -l) ]] || fail "tarball has $robots robots"
for f in "$x"/share/motiond/robots/*.urdf; do
  cmp -s "$f" "$repo/robots/$(basename "$f")" || fail "$(basename "$f") differs from robots/"
done
for b in "$x"/bin/*; do
  [[ "$(file -b "$b")" == "ELF 64-bit LSB "*", ARM aarch64,"* ]] || fail "$b: $(file -b "$b")"
  aarch64-linux-gnu-readelf -d "$b" | grep -q '(RPATH).*\[\$ORIGIN/../lib\]' || fail "$b: no RPATH \$ORIGIN/../lib"
  aarch64-linux-gnu-readelf -l "$b" | grep -q 'interpreter: /lib/ld-linux-aarch64.so.1' || fail "$b: interpreter"
done
glibc_re='^(libc|libm|libdl|librt|libpthread|libresolv|libutil|libanl|ld-linux-aarch64)\.so'
for f in "$x"/bin/* "$x"/lib/*; do
  for n in $(aarch64-linux-gnu-readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
    [[ $n =~ $glibc_re || -e "$x/lib/$n" ]] || fail "$(basename "$f") needs $n, not in lib/"
  done
done
# motion_core links FCL: it and what it loads ship too (found by runtime_libs
# through motiond's NEEDED entries, checked by name here so a loss shows).
for n in libfcl libccd liboctomap liboctomath; do
  compgen -G "$x/lib/$n.so.*" >/dev/null || fail "lib/ lacks $n.so.* (FCL, linked into motion_core)"
done
nlibs=$(find "$x/lib" -type f | wc -l)
ok "layout: aarch64 binaries with RPATH \$ORIGIN/../lib, $nlibs libraries (FCL, ccd, octomap among them), $robots robots"

# --- systemd unit -----------------------------------------------------------
unit_root=$work/unit-root
mkdir -p "$unit_root/etc/systemd/system" "$unit_root/usr/lib/systemd" "$unit_root/opt/motiond"
cp -r /usr/lib/systemd/system "$unit_root/usr/lib/systemd/"
cp -r "$x/bin" "$unit_root/opt/motiond/"
cp "$x/share/motiond/systemd/motiond.service" "$unit_root/etc/systemd/system/"
systemd-analyze verify --man=no --root="$unit_root" /etc/systemd/system/motiond.service \
  || fail "systemd-analyze verify"
exposure=$(systemd-analyze security --offline=true --root="$unit_root" motiond.service 2>/dev/null \
  | sed -n 's/.*Overall exposure level for motiond.service: \([0-9.]*\).*/\1/p')
awk -v e="$exposure" 'BEGIN { exit !(e != "" && e <= 2.0) }' || fail "unit exposure '$exposure' > 2.0"
for key in DynamicUser=yes ProtectSystem=strict Restart=on-failure NoNewPrivileges=yes; do
  grep -qx "$key" "$x/share/motiond/systemd/motiond.service" || fail "unit lacks $key"
done
ok "systemd unit verifies, exposure $exposure (systemd-analyze security, 0 = best, 10 = worst)"

# --- running under qemu with only libc --------------------------------------
free_port() { /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
rss_kib() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status"; }
# The guest's share of qemu's RSS: pages of the tarball's and libc's files plus
# anonymous non-executable memory (heap, stacks; includes some of qemu's own
# data). Left out: qemu's binary and host libraries, its [heap], and the
# executable translation buffer. Closer to what the controller would see.
guest_kib() {
  awk -v x="$x" -v l="$libc_root" '
    /^[0-9a-f]+-[0-9a-f]+ / { path = $6; guest = (index(path, x) == 1 || index(path, l) == 1 ||
                                                 (path == "" && $2 !~ /x/)) }
    /^Rss:/ && guest { sum += $2 }
    END { print sum }' "/proc/$1/smaps"
}
start() {  # start ARGS... : motiond under qemu, sets pid and port
  local attempt
  for attempt in 1 2; do
    port=$(free_port)
    local t0; t0=$(date +%s.%N)
    qemu-aarch64 -L "$libc_root" "$x/bin/motiond" --listen=127.0.0.1:$port --metrics_listen= \
      --workers=2 "$@" >"$work/log" 2>&1 &
    pid=$!
    for _ in $(seq 600); do
      grep -q "listening on" "$work/log" && break
      kill -0 "$pid" 2>/dev/null || fail "motiond exited at start"
      sleep 0.1
    done
    if grep -q "listening on" "$work/log"; then
      startup_s=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
      return 0
    fi
    # Seen once in many runs: no output at all for 60 s under qemu-user.
    # Say what the threads wait on, then try once more.
    echo "WARN: start attempt $attempt: no 'listening on' after 60 s; log:" >&2
    cat "$work/log" >&2
    echo "threads: $(ls "/proc/$pid/task" | wc -l), waiting in:" \
      "$(cat /proc/"$pid"/task/*/wchan 2>/dev/null | tr '\0' ' ' | tr -s ' ' '\n' | sort | uniq -c | tr '\n' ' ')" >&2
    kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true
    pid=""
  done
  fail "motiond did not start in 60 s, twice"
}
stop() {
  kill -TERM "$pid"
  local rc=0
  wait "$pid" || rc=$?
  pid=""
  [[ $rc -eq 0 ]] || fail "motiond exit code $rc after SIGTERM"
  grep -q "motiond stopped" "$work/log" || fail "no clean stop in the log"
}
ctl() { "$host_motionctl" --target=127.0.0.1:$port --timeout=60 "$@"; }
ur5_zero="xyz   0.817250   0.191450  -0.005491 m"

start
idle_startup_s=$startup_s
/usr/bin/python3 "$here/grpc_health_check.py" 127.0.0.1:$port --timeout=30 || fail "health"
sleep 2
idle_kib=$(rss_kib "$pid") idle_guest_kib=$(guest_kib "$pid")
ok "motiond (aarch64, qemu) up in ${idle_startup_s} s, health SERVING, RSS idle $idle_kib KiB"
for f in "$x"/share/motiond/robots/*.urdf; do ctl register "$f" >/dev/null || fail "register $f"; done
ctl fk ur5 0 0 0 0 0 0 >"$work/fk" || fail "fk ur5"
grep -q "$ur5_zero" "$work/fk" || { cat "$work/fk"; fail "ur5 zero pose"; }
ctl jacobian panda 0 0 0 -1.5 0 1.5 0 | grep -q manipulability || fail "jacobian panda"
sleep 1
loaded_kib=$(rss_kib "$pid") loaded_guest_kib=$(guest_kib "$pid")
stop
ok "host motionctl registered $robots robots, FK ur5 = published zero pose; RSS $loaded_kib KiB; SIGTERM -> exit 0"

start --robots_dir="$x/share/motiond/robots"
preload_startup_s=$startup_s
ctl robots >"$work/robots"
[[ $(grep -c ' sha256:' "$work/robots") -ge $robots ]] || { cat "$work/robots"; fail "preloaded robots"; }
ctl fk ur5 0 0 0 0 0 0 | grep -q "$ur5_zero" || fail "fk ur5 (preloaded)"
sleep 1
preload_kib=$(rss_kib "$pid") preload_guest_kib=$(guest_kib "$pid")
stop
ok "--robots_dir preload: ready in ${preload_startup_s} s, $robots robots listed, RSS $preload_kib KiB"

# --- the same on the host, for scale ----------------------------------------
native=""
if [[ -x "$host_motiond" ]]; then
  port=$(free_port)
  "$host_motiond" --listen=127.0.0.1:$port --metrics_listen= --workers=2 >"$work/log" 2>&1 &
  pid=$!
  for _ in $(seq 100); do grep -q "listening on" "$work/log" && break; sleep 0.05; done
  sleep 1; native_idle=$(rss_kib "$pid")
  for f in "$x"/share/motiond/robots/*.urdf; do ctl register "$f" >/dev/null; done
  ctl fk ur5 0 0 0 0 0 0 >/dev/null; sleep 1; native_loaded=$(rss_kib "$pid")
  stop
  native="x86-64 native, same steps: RSS idle $native_idle KiB, after registering the robots $native_loaded KiB"
fi

size_b=$(stat -c %s "$tarball")
unpacked_kib=$(du -sk "$x" | cut -f1)
{
  echo "edge footprint ($(basename "$tarball"), measured $(date -u +%Y-%m-%d) under qemu-aarch64 $(qemu-aarch64 --version | head -1 | awk '{print $3}'))"
  echo "tarball: $size_b bytes ($(awk -v b="$size_b" 'BEGIN { printf "%.1f", b / 1048576 }') MiB), unpacked $unpacked_kib KiB, $nlibs bundled libraries"
  echo "motiond under qemu, RSS of the qemu process / guest share (aarch64 code, data, heap):"
  echo "  idle (no robots, 2 workers):                        $idle_kib KiB / $idle_guest_kib KiB"
  echo "  after registering the $robots bundled robots + FK:     $loaded_kib KiB / $loaded_guest_kib KiB"
  echo "  after --robots_dir preload + FK (ready in $preload_startup_s s):  $preload_kib KiB / $preload_guest_kib KiB"
  [[ -n "$native" ]] && echo "$native"
  echo "(qemu-user's RSS includes the emulator's own libraries, heap and translated code; the"
  echo " guest share leaves those out but keeps qemu's anonymous data: both are estimates)"
} | tee "$footprint_out"
echo "edge_tarball: $passed passed, 0 failed"
