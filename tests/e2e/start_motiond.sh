# Sourced by the end-to-end scripts: start_motiond LOG [FLAGS...] runs the
# motiond binary in $motiond on a free loopback port with the given flags,
# its output in LOG, and sets $pid and $port once it says it is listening
# (or prints the log and exits 1 after 5 s).
start_motiond() {
  local log=$1
  shift
  "$motiond" --listen=127.0.0.1:0 --metrics_listen= "$@" >"$log" 2>&1 &
  pid=$!
  port=""
  for _ in $(seq 100); do
    port=$(sed -n 's/.*listening on .* (port \([0-9]*\)).*/\1/p' "$log")
    [[ -n "$port" ]] && return 0
    sleep 0.05
  done
  cat "$log"
  echo "FAIL: motiond did not start"
  exit 1
}
