"""Robot.plan against what a trajectory must satisfy, checked from the
returned samples alone and the URDF read here: a uniform grid, rates that
are the derivatives of the positions, every joint within its limits, TCP
rows that are the FK of the joint rows, straight MoveL lines."""
from __future__ import annotations

import copy
import json
import unittest

import numpy as np
from google.protobuf import json_format

import motiond
from motiond._stubs import motion_planner_pb2
from motiond_server import EXAMPLES_DIR, ROBOTS_DIR, ServerTestCase
from urdf_reference import UrdfModel, rotation_angle

UR5 = UrdfModel(ROBOTS_DIR / "ur5.urdf")
V_MAX = UR5.velocity_limits("base_link", "tool0")
POSITION_LIMITS = UR5.position_limits("base_link", "tool0")
EXAMPLES = ["ur5_glue_path.json", "ur5_pick_and_place.json", "ur5_glue_bead_zones.json"]
# Relative slack on a limit: the server audits its samples to the limit
# itself; this only absorbs floating-point rounding in the division here.
LIMIT_SLACK = 1e-9


def unreachable_program() -> dict:
    program = json.loads((EXAMPLES_DIR / "ur5_glue_path.json").read_text())
    program["segments"] = program["segments"][:2] + [
        {"id": "far", "movel": {"target": {"position": {"x": 2.4, "y": 0.0, "z": 0.25},
                                           "orientation": {"x": 0, "y": 1, "z": 0, "w": 0}}}}]
    return program


class PlanTest(ServerTestCase):
    PRELOAD = True

    @classmethod
    def setUpClass(cls) -> None:
        super().setUpClass()
        cls.ur5 = cls.client.robot(ROBOTS_DIR / "ur5.urdf")
        cls.plans = {name: cls.ur5.plan(EXAMPLES_DIR / name) for name in EXAMPLES}
        # The server's accelerations come from the efforts (README "Joint limits"): the checks
        # below hold the samples to the server's numbers exactly, and
        # test_accelerations_are_what_the_efforts_allow ties those to the URDF read here.
        limits = cls.ur5.limits
        cls.a_max, cls.j_max = limits.max_acceleration, limits.max_jerk

    def test_accelerations_are_what_the_efforts_allow(self) -> None:
        limits = self.ur5.limits
        np.testing.assert_allclose(limits.max_velocity, V_MAX, rtol=1e-12)
        # A random search of 1 000 poses here against the server's search: a few per cent.
        np.testing.assert_allclose(limits.max_acceleration,
                                   UR5.acceleration_limits("base_link", "tool0"), rtol=0.05)
        np.testing.assert_allclose(limits.max_jerk, 10 * limits.max_acceleration, rtol=1e-12)

    def test_examples_plan_ok(self) -> None:
        for name, plan in self.plans.items():
            with self.subTest(program=name):
                self.assertTrue(plan.ok, [str(d) for d in plan.diagnostics])
                self.assertEqual(plan.joint_names, [j.name for j in UR5.dofs("base_link", "tool0")])
                self.assertEqual(plan.q.shape, (len(plan), 6))
                self.assertEqual(plan.tcp.shape, (len(plan), 7))

    def test_time_grid_is_uniform_from_zero(self) -> None:
        for name, plan in self.plans.items():
            with self.subTest(program=name):
                self.assertEqual(plan.sample_time, 0.004)  # the programs' sample_time
                k = np.arange(len(plan))
                np.testing.assert_allclose(plan.time, k * plan.sample_time, rtol=0, atol=1e-9)
                self.assertAlmostEqual(plan.cycle_time, plan.time[-1], delta=1e-9)

    def test_rates_are_the_derivatives_of_the_positions(self) -> None:
        # With |jerk| <= J, Taylor bounds the central differences' error:
        # first: J h^2 / 6; second: J h / 3 (h = sample time).
        for name, plan in self.plans.items():
            with self.subTest(program=name):
                h = plan.sample_time
                q = plan.q
                d1 = (q[2:] - q[:-2]) / (2 * h)
                d2 = (q[2:] - 2 * q[1:-1] + q[:-2]) / h ** 2
                velocity_error = np.abs(d1 - plan.qd[1:-1]).max(axis=0)
                acceleration_error = np.abs(d2 - plan.qdd[1:-1]).max(axis=0)
                np.testing.assert_array_less(velocity_error, self.j_max * h ** 2 / 6 * 1.05 + 1e-9)
                np.testing.assert_array_less(acceleration_error, self.j_max * h / 3 * 1.05 + 1e-9)
                # At rest at both ends (the last motion ends in a fine stop).
                np.testing.assert_allclose(plan.qd[[0, -1]], 0.0, atol=1e-9)

    def test_every_joint_stays_within_its_urdf_limits(self) -> None:
        for name, plan in self.plans.items():
            with self.subTest(program=name):
                h = plan.sample_time
                self.assertTrue(np.all(plan.q >= POSITION_LIMITS[:, 0]))
                self.assertTrue(np.all(plan.q <= POSITION_LIMITS[:, 1]))
                np.testing.assert_array_less(np.abs(plan.qd).max(axis=0),
                                             V_MAX * (1 + LIMIT_SLACK))
                np.testing.assert_array_less(np.abs(plan.qdd).max(axis=0),
                                             self.a_max * (1 + LIMIT_SLACK))
                # What a controller sees: rates of the positions themselves.
                np.testing.assert_array_less(np.abs(np.diff(plan.q, axis=0)).max(axis=0) / h,
                                             V_MAX * (1 + LIMIT_SLACK))
                np.testing.assert_array_less(
                    np.abs(np.diff(plan.q, n=2, axis=0)).max(axis=0) / h ** 2,
                    self.a_max * (1 + LIMIT_SLACK))
                _, jerk = plan.jerk()
                np.testing.assert_array_less(np.abs(jerk).max(axis=0), self.j_max * (1 + 1e-6))

    def test_segments_tile_the_samples_in_order(self) -> None:
        for name, plan in self.plans.items():
            with self.subTest(program=name):
                program = json.loads((EXAMPLES_DIR / name).read_text())
                self.assertEqual([s.id for s in plan.segments],
                                 [s["id"] for s in program["segments"]])
                # A segment's motion starts where the previous one ended (its
                # start_time is that shared sample's time) and its own samples
                # follow, up to its end: start_time + duration.
                expected_first, expected_start = 0, 0.0
                for segment in plan.segments:
                    self.assertEqual(segment.first_index, expected_first)
                    self.assertAlmostEqual(segment.start_time, expected_start, delta=1e-9)
                    last = segment.first_index + segment.point_count - 1
                    self.assertAlmostEqual(segment.start_time + segment.duration, plan.time[last],
                                           delta=1e-9)
                    expected_first += segment.point_count
                    expected_start = segment.start_time + segment.duration
                self.assertEqual(expected_first, len(plan))

    def test_tcp_rows_are_the_fk_of_the_joint_rows(self) -> None:
        for name, plan in self.plans.items():
            for k in range(0, len(plan), 97):
                with self.subTest(program=name, sample=k):
                    expected = UR5.fk("base_link", "tool0", plan.q[k])
                    pose = plan.tcp_poses()[k] if k == 0 else motiond.Pose(plan.tcp[k, :3],
                                                                           plan.tcp[k, 3:])
                    np.testing.assert_allclose(pose.position, expected[:3, 3], atol=1e-9)
                    self.assertLess(rotation_angle(pose.rotation, expected[:3, :3]), 1e-9)

    def test_movel_keeps_the_tcp_on_the_programmed_line(self) -> None:
        plan = self.plans["ur5_glue_path.json"]
        edge = plan.segment("edge")  # (0.40, 0.00, 0.20) -> (0.40, 0.15, 0.20)
        rows = plan.tcp[edge.first_index:edge.first_index + edge.point_count]
        np.testing.assert_allclose(rows[:, 0], 0.40, atol=1e-5)  # path tolerance 1e-5 m
        np.testing.assert_allclose(rows[:, 2], 0.20, atol=1e-5)
        self.assertTrue(np.all(np.diff(rows[:, 1]) >= -1e-9))   # forward only
        self.assertAlmostEqual(rows[-1, 1], 0.15, delta=1e-5)

    def test_every_program_form_gives_the_same_plan(self) -> None:
        path = EXAMPLES_DIR / "ur5_pick_and_place.json"
        document = json.loads(path.read_text())
        request = motion_planner_pb2.PlanPathRequest()
        json_format.ParseDict({k: v for k, v in document.items() if k != "robot"}, request)
        reference = self.plans["ur5_pick_and_place.json"]
        for form in [document, str(path), path.read_text(), request]:
            with self.subTest(form=type(form).__name__):
                plan = self.ur5.plan(form)
                np.testing.assert_array_equal(plan.q, reference.q)
                np.testing.assert_array_equal(plan.time, reference.time)

    def test_overrides_apply(self) -> None:
        plan = self.ur5.plan(EXAMPLES_DIR / "ur5_pick_and_place.json", sample_time=0.008,
                             include_tcp=False)
        self.assertEqual(plan.sample_time, 0.008)
        self.assertIsNone(plan.tcp)
        np.testing.assert_allclose(np.diff(plan.time), 0.008, atol=1e-9)

    def test_unreachable_target_is_data_not_an_exception(self) -> None:
        plan = self.ur5.plan(unreachable_program())
        self.assertFalse(plan.ok)
        far = [d for d in plan.diagnostics if d.segment_id == "far"]
        self.assertIn("TARGET_UNREACHABLE", [d.code for d in far])
        self.assertTrue(all(d.is_error for d in far))
        self.assertFalse(plan.segment("far").ok)
        self.assertTrue(plan.segment("approach").ok)

    def test_malformed_program_raises_with_the_field(self) -> None:
        program = json.loads((EXAMPLES_DIR / "ur5_glue_path.json").read_text())
        program["segments"][1]["movel"]["target"]["orientation"] = {"x": 0, "y": 0, "z": 0, "w": 0}
        with self.assertRaises(motiond.MotiondRpcError) as raised:
            self.ur5.plan(program)
        self.assertEqual(raised.exception.code.name, "INVALID_ARGUMENT")
        self.assertEqual(raised.exception.field, "segments[1].movel.target.orientation")

        bad_json = copy.deepcopy(program)
        bad_json["segments"][0]["movej"]["not_a_field"] = 1
        with self.assertRaises(motiond.ProgramError):
            self.ur5.plan(bad_json)

    def test_program_for_another_robot_is_refused(self) -> None:
        panda = self.client.robot(ROBOTS_DIR / "panda.urdf")
        with self.assertRaises(motiond.ProgramError) as raised:
            panda.plan(EXAMPLES_DIR / "ur5_glue_path.json")  # "robot": "ur5"
        self.assertIn("ur5", str(raised.exception))

    def test_client_plan_uses_the_programs_own_robot(self) -> None:
        plan = self.client.plan(EXAMPLES_DIR / "ur5_pick_and_place.json")
        self.assertEqual(plan.robot_id, self.ur5.id)
        np.testing.assert_array_equal(plan.q, self.plans["ur5_pick_and_place.json"].q)


if __name__ == "__main__":
    unittest.main()
