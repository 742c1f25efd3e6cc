"""Client.server_info against what this test started the server with: its
flags, the machine it runs on, and the project version in CMakeLists.txt."""
from __future__ import annotations

import platform
import re
import unittest

import grpc
import numpy as np

import motiond
from motiond_server import ROBOTS_DIR, SOURCE_DIR, ServerTestCase

# Values no default has, so only the flags can have set them.
MAX_TRAJECTORY_POINTS = 4321
MAX_BATCH_TARGETS = 77


class ServerInfoTest(ServerTestCase):
    PRELOAD = False
    EXTRA_ARGS = [f"--max_trajectory_points={MAX_TRAJECTORY_POINTS}",
                  f"--max_batch_targets={MAX_BATCH_TARGETS}"]

    @classmethod
    def setUpClass(cls) -> None:
        super().setUpClass()
        cls.info = cls.client.server_info()

    def test_limits_are_the_flags_the_server_was_started_with(self) -> None:
        limit = self.info.limits["max_trajectory_points"]
        self.assertEqual(limit, (MAX_TRAJECTORY_POINTS, "samples", "--max_trajectory_points"))
        self.assertEqual(limit.value, MAX_TRAJECTORY_POINTS)
        self.assertEqual(self.info.limits["max_batch_targets"].value, MAX_BATCH_TARGETS)
        value, unit, flag = self.info.limits["max_batch_targets"]
        self.assertEqual((unit, flag), ("targets", "--max_batch_targets"))
        # motiond_server.MotiondServer starts every server with --workers=2.
        self.assertEqual(self.info.workers, 2)

    def test_version_architecture_and_capabilities(self) -> None:
        cmake = (SOURCE_DIR / "CMakeLists.txt").read_text(encoding="utf-8")
        version = re.search(r"^project\(motiond VERSION (\S+)", cmake, re.MULTILINE).group(1)
        self.assertEqual(self.info.version, version)
        self.assertEqual(self.info.architecture, platform.machine())
        self.assertTrue(self.info.grpc_version)
        for word in ("fk", "ik", "trajectory_check", "trajectory_resampling"):
            with self.subTest(capability=word):
                self.assertTrue(self.info.supports(word))
        self.assertFalse(self.info.supports("tls"))  # started without certificates
        self.assertIn("samples", self.info.limit_descriptions["max_trajectory_points"])

    def test_the_trajectory_limit_is_the_one_enforced(self) -> None:
        ur5 = self.client.robot(ROBOTS_DIR / "ur5.urdf")
        n = MAX_TRAJECTORY_POINTS
        time = np.arange(n + 1) * 0.004
        q = np.zeros((n + 1, 6))
        self.assertTrue(ur5.check_trajectory(time[:n], q[:n]).ok)
        with self.assertRaises(motiond.MotiondRpcError) as raised:
            ur5.check_trajectory(time, q)
        self.assertEqual(raised.exception.code, grpc.StatusCode.INVALID_ARGUMENT)
        self.assertEqual(raised.exception.field, "time")
        self.assertIn(str(MAX_TRAJECTORY_POINTS), raised.exception.message)


if __name__ == "__main__":
    unittest.main()
