# Sourced by the scripts that start the real motiond on --listen=HOST:0.
# motiond_port LOG [TRIES]: waits (50 ms a try, 400 tries by default) for
# motiond's "listening on ... (port N)" line in LOG and prints N; prints the
# log to stderr and returns 1 when it never comes.
motiond_port() {
  local log=$1 tries=${2:-400} port=""
  for _ in $(seq "${tries}"); do
    port=$(sed -n 's/.*listening on .* (port \([0-9]*\)).*/\1/p' "${log}")
    if [[ -n "${port}" ]]; then
      echo "${port}"
      return 0
    fi
    sleep 0.05
  done
  cat "${log}" >&2
  echo "motiond did not start" >&2
  return 1
}
