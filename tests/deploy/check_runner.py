"""A tiny named-check runner for the deploy tests (plain /usr/bin/python3).

    checks = CheckRunner("helm chart")
    with checks.case("probes use gRPC"):
        assert ..., "message"
    sys.exit(checks.finish())

Each case prints `ok: NAME` or `FAIL: NAME: why`; finish() prints the closing
line `NAME: N passed, N failed` that CTest output readers look for, and returns
the exit code.
"""
import contextlib
import subprocess
import sys
import traceback


class CheckRunner:
    def __init__(self, name: str):
        self.name = name
        self.passed = 0
        self.failed = 0

    @contextlib.contextmanager
    def case(self, name: str):
        try:
            yield
        except Exception as error:  # noqa: BLE001 -- every failure is reported, then counted
            self.failed += 1
            detail = str(error) or traceback.format_exc(limit=2)
            print(f"FAIL: {name}: {detail}", flush=True)
        else:
            self.passed += 1
            print(f"ok: {name}", flush=True)

    def finish(self) -> int:
        print(f"{self.name}: {self.passed} passed, {self.failed} failed", flush=True)
        return 1 if self.failed or not self.passed else 0


def run(cmd, **kwargs) -> str:
    """Runs cmd, returns stdout; raises with the output when it fails."""
    result = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        raise AssertionError(
            f"{' '.join(map(str, cmd))} exited {result.returncode}\n{result.stdout}{result.stderr}")
    return result.stdout


def fatal(message: str) -> None:
    print(f"FAIL: {message}", file=sys.stderr, flush=True)
    sys.exit(1)
