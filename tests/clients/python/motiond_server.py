"""The real motiond binary as a child process on a free loopback port.

Each test class starts its own servers (``--listen=127.0.0.1:0``; the port
is read from the "listening on ... (port N)" line, as bench/motiond_port.sh
does) and stops them with SIGTERM, which must end them with exit code 0.
The log is kept in a file: the tests count what each replica says it did
(one info line per robot it did not hold) as the server-side truth.
"""
from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import tempfile
import time
import unittest
from pathlib import Path
from typing import List, Optional

SOURCE_DIR = Path(os.environ.get("MOTIOND_SOURCE_DIR", Path(__file__).resolve().parents[3]))
ROBOTS_DIR = SOURCE_DIR / "robots"
EXAMPLES_DIR = SOURCE_DIR / "clients" / "examples"
MOTIOND_BINARY = Path(os.environ.get("MOTIOND_BINARY", SOURCE_DIR / "build" / "server" / "motiond"))

_PORT_LINE = re.compile(r"listening on .* \(port (\d+)\)")


class MotiondServer:
    """One motiond process. ``preload=True`` registers the bundled robots
    (``--robots_dir``); a fresh server (``preload=False``) holds nothing."""

    def __init__(self, *, preload: bool = True, workers: int = 2, port: int = 0,
                 extra_args: Optional[List[str]] = None) -> None:
        self._args = [str(MOTIOND_BINARY), f"--listen=127.0.0.1:{port}", "--metrics_listen=",
                      f"--workers={workers}"]
        if preload:
            self._args.append(f"--robots_dir={ROBOTS_DIR}")
        self._args.extend(extra_args or [])
        self._log_file = tempfile.NamedTemporaryFile(prefix="motiond-", suffix=".log", delete=False)
        self._process: Optional[subprocess.Popen] = None
        self.port = 0

    def start(self, timeout: float = 20.0) -> "MotiondServer":
        """Starts the process and waits for its port."""
        if not MOTIOND_BINARY.is_file():
            raise RuntimeError(f"motiond binary not found at {MOTIOND_BINARY} (set MOTIOND_BINARY)")
        self._process = subprocess.Popen(self._args, stdout=self._log_file,
                                         stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            match = _PORT_LINE.search(self.log())
            if match:
                self.port = int(match.group(1))
                return self
            if self._process.poll() is not None:
                break
            time.sleep(0.02)
        self.stop()
        raise RuntimeError(f"motiond did not start:\n{self.log()}")

    @property
    def address(self) -> str:
        """``127.0.0.1:PORT``."""
        return f"127.0.0.1:{self.port}"

    def log(self) -> str:
        """Everything the server logged so far."""
        return Path(self._log_file.name).read_text(encoding="utf-8", errors="replace")

    def rpc_count(self, method: str) -> int:
        """Calls of ``method`` this server finished (needs ``--log_level=debug``:
        one "rpc method=..." line per call)."""
        return self.log().count(f"rpc method={method} ")

    def robot_refusals(self) -> int:
        """Calls this server refused because it did not hold the robot
        (README "Logs": an unknown robot_id is one info line)."""
        return self.log().count("robot not registered")

    def stop(self) -> Optional[int]:
        """SIGTERM, then the exit code (SIGKILL after 10 s)."""
        code = None
        if self._process is not None and self._process.poll() is None:
            self._process.send_signal(signal.SIGTERM)
            try:
                code = self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                code = self._process.wait()
        elif self._process is not None:
            code = self._process.returncode
        return code

    def kill(self) -> None:
        """SIGKILL: a replica that dies without a goodbye."""
        if self._process is not None and self._process.poll() is None:
            self._process.kill()
            self._process.wait()

    def remove_log(self) -> None:
        """Deletes the log file."""
        self._log_file.close()
        try:
            os.unlink(self._log_file.name)
        except OSError:
            pass


def free_port() -> int:
    """A loopback port nothing listens on now (for a replica started later)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class ServerTestCase(unittest.TestCase):
    """A test class with one real motiond for all its tests (``PRELOAD``
    says whether it holds the bundled robots, ``EXTRA_ARGS`` are more motiond
    flags) and a Client to it."""

    PRELOAD = True
    EXTRA_ARGS: List[str] = []
    server: MotiondServer

    @classmethod
    def setUpClass(cls) -> None:
        import motiond  # the staged package from the build tree (PYTHONPATH)

        cls.server = MotiondServer(preload=cls.PRELOAD, extra_args=list(cls.EXTRA_ARGS)).start()
        cls.client = motiond.Client(cls.server.address)

    @classmethod
    def tearDownClass(cls) -> None:
        cls.client.close()
        code = cls.server.stop()
        log = cls.server.log()
        cls.server.remove_log()
        if code != 0:
            raise AssertionError(f"motiond exited with {code} after SIGTERM:\n{log}")
