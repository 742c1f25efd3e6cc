"""Shared helpers of the observability tests (tests/observability).

Real binaries on loopback only: a motiond on free ports, motionctl as the
client, optionally a real Prometheus. Every wait polls with a deadline (a
loaded 2-core CI machine is slow, never stuck), every process started here is
stopped at exit (normal exit, failure or SIGTERM from ctest), and a failure
prints the logs of what was started. Standard library only (+ python3-yaml
where a test edits the Prometheus config); run with Debian's /usr/bin/python3.
"""
import atexit
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

DEFAULT_TIMEOUT = 60.0  # seconds for anything to come up on a loaded machine

_children = []   # (name, Popen, log path)
_workdirs = []


def _cleanup():
    for name, proc, _ in reversed(_children):
        if proc.poll() is None:
            proc.terminate()
    deadline = time.monotonic() + 10
    for name, proc, _ in reversed(_children):
        try:
            proc.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    for d in _workdirs:
        shutil.rmtree(d, ignore_errors=True)


atexit.register(_cleanup)
for _sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
    signal.signal(_sig, lambda signum, frame: sys.exit(128 + signum))


def workdir(prefix):
    d = tempfile.mkdtemp(prefix=prefix)
    _workdirs.append(d)
    return d


def dump_logs():
    for name, proc, log in _children:
        print(f"---- {name} (pid {proc.pid}, exit {proc.poll()}) log {log} (last 60 lines) ----")
        try:
            with open(log, errors="replace") as f:
                print("".join(f.readlines()[-60:]), end="")
        except OSError as e:
            print(f"(cannot read: {e})")


class TestFailure(AssertionError):
    pass


def fail(message):
    raise TestFailure(message)


def run_main(main):
    """Runs main(); on failure prints the reason and every child's log, exits 1."""
    try:
        main()
    except TestFailure as e:
        print(f"FAIL: {e}")
        dump_logs()
        sys.exit(1)
    except Exception:
        import traceback
        traceback.print_exc()
        dump_logs()
        sys.exit(1)


def poll(what, check, timeout=DEFAULT_TIMEOUT, interval=0.1):
    """Calls check() until it returns a truthy value (returned) or `timeout` passes."""
    deadline = time.monotonic() + timeout
    last_error = None
    while True:
        try:
            value = check()
            if value:
                return value
        except Exception as e:  # not up yet: connection refused, partial data...
            last_error = e
        if time.monotonic() > deadline:
            fail(f"timed out after {timeout:.0f} s waiting for {what}"
                 + (f" (last error: {last_error})" if last_error else ""))
        time.sleep(interval)


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(name, argv, log_path, **kwargs):
    log = open(log_path, "w")
    proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                            **kwargs)
    _children.append((name, proc, log_path))
    return proc


def http_get(url, timeout=10):
    with urllib.request.urlopen(url, timeout=timeout) as response:
        return response.read().decode()


class Motiond:
    """A motiond on 127.0.0.1: gRPC on a port it picks, metrics on a free port."""

    def __init__(self, binary, robots_dir, work, extra_args=()):
        for attempt in range(5):  # the free metrics port may be taken meanwhile
            self.metrics_port = free_port()
            self.log = os.path.join(work, f"motiond-{attempt}.log")
            self.proc = start("motiond", [binary, "--listen=127.0.0.1:0",
                                          f"--metrics_listen=127.0.0.1:{self.metrics_port}",
                                          f"--robots_dir={robots_dir}", "--workers=2",
                                          *extra_args], self.log)
            # "listening on ... (port N)" comes first, then "metrics on http://..."
            # once the exporter has bound its port (or an exit if it could not).
            state = poll("motiond to listen", self._started)
            if state == "exited":
                if "metrics_listen" in open(self.log).read():
                    continue  # the port was taken meanwhile: another one
                fail(f"motiond exited with {self.proc.returncode}")
            self.grpc_port = state
            poll("motiond /metrics", lambda: "motiond_build_info" in self.metrics_text())
            return
        fail("motiond could not bind a metrics port in 5 attempts")

    def _started(self):
        with open(self.log, errors="replace") as f:
            log = f.read()
        m = re.search(r"listening on \S+ \(port (\d+)\)", log)
        if m and f"metrics on http://127.0.0.1:{self.metrics_port}/metrics" in log:
            return int(m.group(1))
        if self.proc.poll() is not None:
            return "exited"
        return None

    @property
    def target(self):
        return f"127.0.0.1:{self.grpc_port}"

    @property
    def metrics_address(self):
        return f"127.0.0.1:{self.metrics_port}"

    def metrics_text(self):
        return http_get(f"http://{self.metrics_address}/metrics")

    def stop(self):
        """SIGTERM, wait for exit 0 (graceful drain)."""
        self.proc.terminate()
        try:
            rc = self.proc.wait(timeout=DEFAULT_TIMEOUT)
        except subprocess.TimeoutExpired:
            fail("motiond did not exit within 60 s of SIGTERM")
        if rc != 0:
            fail(f"motiond exited with {rc} after SIGTERM")


# --------------------------------------------------------------- text format

_SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)(\s+-?\d+)?$')
_LABEL = re.compile(r'\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*,?')


def parse_metrics(text):
    """Prometheus text format -> (samples, types, helps).

    samples: list of (name, {label: value}, float). Written here, separately
    from motionctl's C++ parser, so the two can check each other.
    """
    samples, types, helps = [], {}, {}
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line:
            continue
        if line.startswith("#"):
            parts = line.split(None, 3)
            if len(parts) >= 3 and parts[1] == "TYPE":
                types[parts[2]] = parts[3] if len(parts) > 3 else ""
            elif len(parts) >= 3 and parts[1] == "HELP":
                helps[parts[2]] = parts[3] if len(parts) > 3 else ""
            continue
        m = _SAMPLE.match(line)
        if not m:
            fail(f"/metrics line {number} is not a sample: {line!r}")
        labels = {}
        body = m.group(3) or ""
        pos = 0
        while pos < len(body):
            lm = _LABEL.match(body, pos)
            if not lm:
                fail(f"/metrics line {number}: bad labels: {line!r}")
            labels[lm.group(1)] = re.sub(r'\\(.)', lambda e: "\n" if e.group(1) == "n" else e.group(1),
                                         lm.group(2))
            pos = lm.end()
        samples.append((m.group(1), labels, float(m.group(4))))
    return samples, types, helps


def family_of(name, types):
    """The metric family a sample name belongs to (histogram _bucket/_sum/_count)."""
    if name in types:
        return name
    for suffix in ("_bucket", "_sum", "_count"):
        if name.endswith(suffix) and types.get(name[: -len(suffix)]) in ("histogram", "summary"):
            return name[: -len(suffix)]
    return name


def handled_counts(samples, service_prefix="motion.v1."):
    """{(method, code): count} from grpc_server_handled_total."""
    counts = {}
    for name, labels, value in samples:
        if name == "grpc_server_handled_total" and labels["grpc_service"].startswith(service_prefix):
            key = (labels["grpc_method"], labels["grpc_code"])
            counts[key] = counts.get(key, 0) + value
    return {k: v for k, v in counts.items() if v}


# ----------------------------------------------------------------- workload

def sha256_id(path):
    import hashlib
    with open(path, "rb") as f:
        return "sha256:" + hashlib.sha256(f.read()).hexdigest()


class Workload:
    """Drives motiond with the real motionctl and counts every RPC it sends.

    Robots are named by robot_id (computed here) so motionctl sends exactly
    the RPC of the command and no name lookup (ListRobots) first.
    """

    def __init__(self, motionctl, motiond, robots_dir, examples_dir, work):
        self.motionctl = motionctl
        self.target = motiond.target
        self.sent = {}  # (method, code) -> count
        self.ik_solved = 0  # ComputeIk answers with ok = true (motionctl exit 0)
        self.paths = 0  # programs planned (PlanPath: 1, ValidatePath: 1 per file)
        self.ur5 = sha256_id(os.path.join(robots_dir, "ur5.urdf"))
        self.panda = sha256_id(os.path.join(robots_dir, "panda.urdf"))
        self.robots_dir = robots_dir
        # The example programs with the robot named by id.
        self.programs = []
        for name in ("ur5_glue_path.json", "ur5_pick_and_place.json"):
            with open(os.path.join(examples_dir, name)) as f:
                program = json.load(f)
            program["robot"] = self.ur5
            path = os.path.join(work, name)
            with open(path, "w") as f:
                json.dump(program, f)
            self.programs.append(path)

    def ctl(self, method, code, *args, expect_rc=(0,)):
        argv = [self.motionctl, f"--target={self.target}", "--timeout=30", *args]
        result = subprocess.run(argv, capture_output=True, text=True, timeout=120)
        if result.returncode not in expect_rc:
            fail(f"{' '.join(argv)} -> exit {result.returncode}\n{result.stdout}{result.stderr}")
        self.sent[(method, code)] = self.sent.get((method, code), 0) + 1
        if method == "ComputeIk" and result.returncode == 0:
            self.ik_solved += 1
        if method == "PlanPath":
            self.paths += 1
        if method == "ValidatePath":
            self.paths += len(args) - 1
        return result.stdout

    def every_method_once(self):
        """Each method and outcome the mixed workload has, once."""
        self.ctl("ComputeFk", "OK", "fk", self.ur5, "0", "0", "0", "0", "0", "0")
        self.ctl("ComputeFk", "InvalidArgument", "fk", self.ur5, "0", "0", "0", expect_rc=(2,))
        self.ctl("ComputeFk", "NotFound", "fk", "sha256:" + "0" * 64, "0", "0", expect_rc=(2,))
        self.ctl("ComputeJacobian", "OK", "jacobian", self.panda, "0", "0", "0", "-1.5", "0", "1.5", "0")
        self.ctl("ComputeIk", "OK", "ik", self.ur5, "0.5", "0.2", "0.3", "0", "1", "0", "0")
        self.ctl("ComputeIk", "OK", "ik", self.ur5, "5", "5", "5", "0", "0", "0", "1", expect_rc=(3,))
        self.ctl("PlanPath", "OK", "plan", self.programs[0])
        self.ctl("ValidatePath", "OK", "validate", *self.programs)
        self.ctl("ListRobots", "OK", "robots")
        self.ctl("GetRobot", "OK", "robot", self.ur5)
        self.ctl("RegisterRobot", "OK", "register", os.path.join(self.robots_dir, "ur5.urdf"))

    def bulk(self, rounds):
        """More of the same, IK-heavy, as a cell controller would send."""
        poses = [("0.5", "0.2", "0.3"), ("0.4", "-0.1", "0.4"), ("0.3", "0.3", "0.2"),
                 ("-0.4", "0.2", "0.5")]
        for i in range(rounds):
            x, y, z = poses[i % len(poses)]
            self.ctl("ComputeIk", "OK", "ik", self.ur5, x, y, z, "0", "1", "0", "0", expect_rc=(0, 3))
            self.ctl("ComputeFk", "OK", "fk", self.ur5, str(0.1 * i), "-1", "1", "0", "0.5", "0")
            if i % 4 == 0:
                self.ctl("PlanPath", "OK", "plan", self.programs[i % 2])
            if i % 8 == 0:
                self.ctl("ComputeFk", "InvalidArgument", "fk", self.ur5, "0", expect_rc=(2,))

    def total(self):
        return sum(self.sent.values())
