#!/usr/bin/env bash
# Soak test (not in CI): starts motiond from an existing build on a free
# loopback port with the bundled robots, drives it with bench/soak_client (a
# mixed load of good and bad requests) for SOAK_SECONDS, and prints every
# SOAK_REPORT_SECONDS the server's resident memory, latency percentiles per
# kind of call and the answers by code. At the end it checks that motiond is
# still running, answers a health check, logged no error line (errors are for
# bugs only) and shuts down cleanly on SIGTERM.
# Builds nothing: cmake --build build --target motiond soak_client
# Usage: bench/soak.sh [BUILD_DIR]   (default: build)
# Environment:
#   SOAK_SECONDS=1800          how long (default: 30 min)
#   SOAK_REPORT_SECONDS=60     report interval
#   SOAK_THREADS=4             client threads, one call in flight each
#   SOAK_PAUSE_MS=0            pause between two calls of one thread
#   SOAK_SERVER_ARGS="..."     extra motiond flags, e.g. "--workers=2"
#   SOAK_LOG=FILE              keep motiond's log there (default: a temporary file)
# Exit status: 0 when every call was answered as expected and the server
# stayed healthy, 1 otherwise.
set -euo pipefail
# shellcheck source=bench/motiond_port.sh
source "$(dirname "${BASH_SOURCE[0]}")/motiond_port.sh"

build_dir="${1:-build}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(dirname "${here}")"
motiond="${build_dir}/server/motiond"
client="${build_dir}/bench/soak_client"
for binary in "${motiond}" "${client}"; do
  if [[ ! -x "${binary}" ]]; then
    echo "soak.sh: ${binary} missing; build it: cmake --build ${build_dir} --target motiond soak_client" >&2
    exit 2
  fi
done

log="${SOAK_LOG:-$(mktemp)}"
# shellcheck disable=SC2086  # a word list
"${motiond}" --listen=127.0.0.1:0 --metrics_listen= --robots_dir="${repo}/robots" \
  ${SOAK_SERVER_ARGS:-} >"${log}" 2>&1 &
pid=$!
# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() {
  kill "${pid}" 2>/dev/null || true
  [[ -n "${SOAK_LOG:-}" ]] || rm -f "${log}"
}
trap cleanup EXIT
port=$(motiond_port "${log}") || exit 1
echo "soak.sh: motiond pid ${pid} on 127.0.0.1:${port}, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"

status=0
"${client}" --target="127.0.0.1:${port}" --server_pid="${pid}" \
  --duration="${SOAK_SECONDS:-1800}" --report_every="${SOAK_REPORT_SECONDS:-60}" \
  --threads="${SOAK_THREADS:-4}" --pause_ms="${SOAK_PAUSE_MS:-0}" || status=1

if ! kill -0 "${pid}" 2>/dev/null; then
  echo "soak.sh: FAIL: motiond exited during the soak; its log:" >&2
  tail -50 "${log}" >&2
  exit 1
fi
if ! /usr/bin/python3 "${repo}/tests/deploy/grpc_health_check.py" "127.0.0.1:${port}" >/dev/null; then
  echo "soak.sh: FAIL: motiond does not answer its health check after the soak" >&2
  status=1
fi
errors=$(grep -c -E '\[(error|critical)\]|"level": ?"(error|critical)"' "${log}" || true)
echo "soak.sh: motiond logged ${errors} error lines"
if [[ "${errors}" != 0 ]]; then
  grep -m 10 -E '\[(error|critical)\]|"level": ?"(error|critical)"' "${log}" >&2
  status=1
fi
kill -TERM "${pid}"
if ! wait "${pid}"; then
  echo "soak.sh: FAIL: motiond did not shut down cleanly on SIGTERM" >&2
  status=1
fi
trap - EXIT
[[ -n "${SOAK_LOG:-}" ]] || rm -f "${log}"
echo "soak.sh: $([[ ${status} == 0 ]] && echo PASS || echo FAIL)"
exit "${status}"
