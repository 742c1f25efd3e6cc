"""motiond.plot: a valid PNG of the asked size, curves that are the plan's
rates over the URDF's limits, diagnostics marked at their samples, and the
README's example script running end to end."""
from __future__ import annotations

import dataclasses
import json
import os
import struct
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import numpy as np

from motiond.plot import diagnostic_marks, plot_plan
from motiond_server import EXAMPLES_DIR, ROBOTS_DIR, SOURCE_DIR, ServerTestCase
from urdf_reference import UrdfModel

UR5 = UrdfModel(ROBOTS_DIR / "ur5.urdf")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
EXAMPLE_SCRIPT = SOURCE_DIR / "clients" / "python" / "examples" / "plan_and_plot.py"


def png_size(path: Path) -> tuple:
    """(width, height) from the IHDR chunk, which must come first."""
    data = path.read_bytes()
    if data[:8] != PNG_SIGNATURE or data[12:16] != b"IHDR":
        raise AssertionError(f"{path} is not a PNG")
    return struct.unpack(">II", data[16:24])


def fast_arc_program() -> dict:
    """The glue path with its arc asked too fast: a SPEED_REDUCED warning."""
    program = json.loads((EXAMPLES_DIR / "ur5_glue_path.json").read_text())
    for segment in program["segments"]:
        if segment["id"] == "corner_arc":
            segment["speed"] = {"linear_velocity": 1.5, "linear_acceleration": 30.0,
                            "linear_jerk": 300.0}
    return program


class PlotTest(ServerTestCase):
    PRELOAD = True

    @classmethod
    def setUpClass(cls) -> None:
        super().setUpClass()
        cls.ur5 = cls.client.robot(ROBOTS_DIR / "ur5.urdf")
        cls.plan = cls.ur5.plan(fast_arc_program())
        cls.tmp = tempfile.TemporaryDirectory()

    @classmethod
    def tearDownClass(cls) -> None:
        cls.tmp.cleanup()
        super().tearDownClass()

    def test_writes_a_png_of_the_asked_size(self) -> None:
        path = Path(self.tmp.name) / "plan.png"
        plot_plan(self.plan, path, figsize=(12, 8), dpi=80)
        self.assertEqual(png_size(path), (960, 640))
        self.assertLess(path.stat().st_size, 400_000)

    def test_diagnostics_are_marked_at_their_samples(self) -> None:
        tied = [(i, d) for i, d in enumerate(self.plan.diagnostics) if d.point_index is not None]
        self.assertTrue(tied, "the fast arc should have a warning tied to a sample")
        figure = plot_plan(self.plan, show=False)
        marks = {index: (code, when) for index, code, when in diagnostic_marks(figure)}
        for index, diagnostic in tied:
            code, when = marks[index]
            self.assertEqual(code, diagnostic.code)
            # The sample's time on the uniform grid, not the diagnostic's own field.
            self.assertAlmostEqual(when, diagnostic.point_index * self.plan.sample_time, delta=1e-9)

    def test_rate_curves_are_the_plan_over_the_urdf_limits(self) -> None:
        figure = plot_plan(self.plan, show=False)
        velocity_axis, jerk_axis = figure.axes[1], figure.axes[3]
        v_max = UR5.velocity_limits("base_link", "tool0")
        j_max = self.ur5.limits.max_jerk  # the server's (test_plan.py ties them to the URDF)
        dt = self.plan.sample_time
        for j, name in enumerate(self.plan.joint_names):
            with self.subTest(joint=name):
                velocity = next(l for l in velocity_axis.get_lines() if l.get_label() == name)
                np.testing.assert_allclose(velocity.get_ydata(), self.plan.qd[:, j] / v_max[j])
                jerk = next(l for l in jerk_axis.get_lines() if l.get_label() == name)
                np.testing.assert_allclose(jerk.get_ydata(),
                                           np.diff(self.plan.qdd[:, j]) / dt / j_max[j])
                np.testing.assert_allclose(jerk.get_xdata(), self.plan.time[:-1] + dt / 2,
                                           atol=1e-12)

    def test_absolute_mode_draws_each_joints_urdf_position_limits(self) -> None:
        figure = plot_plan(self.plan, show=False, normalized=False)
        horizontal = {round(float(l.get_ydata()[0]), 9) for l in figure.axes[0].get_lines()
                      if len(set(l.get_ydata())) == 1 and len(l.get_ydata()) == 2}
        for lower, upper in UR5.position_limits("base_link", "tool0"):
            self.assertIn(round(lower, 9), horizontal)
            self.assertIn(round(upper, 9), horizontal)

    def test_a_plan_without_a_robot_needs_limits(self) -> None:
        orphan = dataclasses.replace(self.plan, robot=None)
        with self.assertRaises(ValueError):
            plot_plan(orphan, show=False)
        plot_plan(orphan, show=False, limits=self.ur5.info)  # RobotInfo is enough

    def test_example_script_writes_its_png(self) -> None:
        out = Path(self.tmp.name) / "example.png"
        completed = subprocess.run(
            [sys.executable, str(EXAMPLE_SCRIPT), f"--target={self.server.address}",
             f"--out={out}"], capture_output=True, text=True, timeout=60,
            env={**os.environ, "MPLBACKEND": "Agg"})
        self.assertEqual(completed.returncode, 0, completed.stderr)
        self.assertEqual(png_size(out), (1400, 900))
        self.assertIn("SPEED_REDUCED", completed.stdout)
        self.assertIn("validate 12/12", completed.stderr)


if __name__ == "__main__":
    unittest.main()
