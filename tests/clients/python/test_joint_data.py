"""Robot.check_trajectory, resample, check_joint_limits and check_singularity
against independent truth: the URDF read here (urdf_reference.py), divided
differences and polynomials computed with numpy, and a Jacobian from finite
differences of the independent FK. On a fresh server every one of these
calls re-sends its URDF, once."""
from __future__ import annotations

import math
import unittest

import grpc
import numpy as np
from numpy.polynomial import Polynomial

import motiond
from motiond_server import EXAMPLES_DIR, ROBOTS_DIR, ServerTestCase
from urdf_reference import UrdfModel

UR5 = UrdfModel(ROBOTS_DIR / "ur5.urdf")
UR5_CHAIN = ("base_link", "tool0")
UR5_JOINTS = [j.name for j in UR5.dofs(*UR5_CHAIN)]
V_MAX = UR5.velocity_limits(*UR5_CHAIN)


def divided_difference_ratios(q: np.ndarray, h: float, limits: list) -> np.ndarray:
    """Worst |k-th divided difference| / limit, k = 1, 2, 3, over every joint,
    with the arm at rest before the first and after the last sample (each
    end held for 3 more samples: every stencil that touches the samples)."""
    padded = np.concatenate([np.repeat(q[:1], 3, axis=0), q, np.repeat(q[-1:], 3, axis=0)])
    return np.array([np.max(np.abs(np.diff(padded, k, axis=0)) / h ** k / limits[k - 1])
                     for k in (1, 2, 3)])


def finite_difference_jacobian(model: UrdfModel, base: str, tip: str, q: np.ndarray,
                               tool: np.ndarray, step: float = 1e-6) -> np.ndarray:
    """6 x dof: linear rows d(p)/dq of the TCP, angular rows vee(dR/dq R^T),
    by central differences of the independent FK (error ~1e-10)."""
    columns = []
    rotation = (model.fk(base, tip, q) @ tool)[:3, :3]
    for i in range(len(q)):
        dq = np.zeros(len(q))
        dq[i] = step
        plus, minus = model.fk(base, tip, q + dq) @ tool, model.fk(base, tip, q - dq) @ tool
        linear = (plus[:3, 3] - minus[:3, 3]) / (2 * step)
        skew = (plus[:3, :3] - minus[:3, :3]) / (2 * step) @ rotation.T
        angular = 0.5 * np.array([skew[2, 1] - skew[1, 2], skew[0, 2] - skew[2, 0],
                                  skew[1, 0] - skew[0, 1]])
        columns.append(np.concatenate([linear, angular]))
    return np.array(columns).T


class JointDataTest(ServerTestCase):
    PRELOAD = True

    @classmethod
    def setUpClass(cls) -> None:
        super().setUpClass()
        cls.ur5 = cls.client.robot(ROBOTS_DIR / "ur5.urdf")
        cls.plan = cls.ur5.plan(EXAMPLES_DIR / "ur5_pick_and_place.json")

    # --- CheckTrajectory -------------------------------------------------------
    def test_a_plans_own_samples_pass(self) -> None:
        plan = self.plan
        check = self.ur5.check_trajectory(plan.time, plan.q)
        self.assertTrue(check.ok, [str(d) for d in check.diagnostics])
        self.assertEqual(check.diagnostics, [])
        self.assertAlmostEqual(check.cycle_time, plan.time[-1] - plan.time[0], delta=1e-12)
        self.assertAlmostEqual(check.sample_time, plan.sample_time, delta=1e-12)
        # README "Joint limits": accelerations from the efforts, held to the server's numbers
        # (test_plan.py ties them to the URDF read here), jerk 10 x acceleration.
        limits = self.ur5.limits
        ratios = divided_difference_ratios(
            plan.q, plan.sample_time, [V_MAX, limits.max_acceleration, limits.max_jerk])
        np.testing.assert_allclose(
            [check.max_velocity_ratio, check.max_acceleration_ratio, check.max_jerk_ratio],
            ratios, rtol=1e-6)
        np.testing.assert_array_less(ratios, 1 + 1e-6)

    def test_a_sample_moved_past_the_velocity_limit_is_named(self) -> None:
        plan = self.plan
        h = plan.sample_time
        j = 1  # shoulder_lift_joint
        # The sample where the joint moves fastest, pushed on along its motion
        # by 2 v_max h: the step into it is then the joint's fastest, at
        # more than twice the URDF's velocity limit.
        k = int(np.argmax(np.abs(plan.qd[:, j])))
        self.assertTrue(0 < k < len(plan) - 1)
        direction = math.copysign(1.0, plan.q[k + 1, j] - plan.q[k - 1, j])
        q = plan.q.copy()
        q[k, j] += direction * 2 * V_MAX[j] * h
        step_into_k = (q[k, j] - q[k - 1, j]) / h
        self.assertGreater(abs(step_into_k), 2 * V_MAX[j])

        check = self.ur5.check_trajectory(plan.time, q)
        self.assertFalse(check.ok)
        velocity = [d for d in check.diagnostics if d.code == "VELOCITY_LIMIT"]
        self.assertEqual(len(velocity), 1, [str(d) for d in check.diagnostics])
        finding = velocity[0]
        self.assertEqual(finding.severity, "ERROR")
        self.assertEqual(finding.joint_name, UR5_JOINTS[j])
        self.assertEqual(finding.point_index, k)
        self.assertAlmostEqual(finding.time, plan.time[k], delta=1e-12)
        self.assertAlmostEqual(finding.value, step_into_k, delta=1e-9 * abs(step_into_k))
        self.assertEqual(finding.limit, V_MAX[j])
        self.assertAlmostEqual(check.max_velocity_ratio, abs(step_into_k) / V_MAX[j],
                               delta=1e-9)
        # Every finding is about the moved joint.
        self.assertEqual({d.joint_name for d in check.diagnostics}, {UR5_JOINTS[j]})

    def test_an_off_grid_time_and_a_nan_position_are_refused_by_name(self) -> None:
        plan = self.plan
        time = plan.time.copy()
        time[7] += 1e-3 * plan.sample_time
        q = plan.q.copy()
        q[5, 2] = math.nan
        for name, arguments, field in [("off the grid", (time, plan.q), "time[7]"),
                                       ("NaN", (plan.time, q), f"positions[{5 * 6 + 2}]")]:
            with self.subTest(name):
                with self.assertRaises(motiond.MotiondRpcError) as raised:
                    self.ur5.check_trajectory(*arguments)
                self.assertEqual(raised.exception.code, grpc.StatusCode.INVALID_ARGUMENT)
                self.assertEqual(raised.exception.field, field)

    # --- ResampleTrajectory ----------------------------------------------------
    def test_resampling_a_cubic_is_exact(self) -> None:
        # An uneven grid, and per joint a cubic: the not-a-knot spline through
        # its samples is the cubic itself.
        t = np.array([0.0, 0.05, 0.21, 0.24, 0.5, 0.71, 0.93, 1.0, 1.13, 1.2])
        rng = np.random.default_rng(31)
        cubics = [Polynomial(rng.uniform(-0.8, 0.8, size=4)) for _ in range(6)]
        q = np.stack([p(t) for p in cubics], axis=1)
        for sample_time in (0.005, 0.007):  # 1.2 s: a multiple of 5 ms, not of 7 ms
            with self.subTest(sample_time=sample_time):
                time, q_out, qd, qdd = self.ur5.resample(t, q, sample_time)
                np.testing.assert_allclose(time, np.arange(len(time)) * sample_time,
                                           rtol=0, atol=1e-12)
                self.assertGreaterEqual(time[-1], t[-1] - 1e-12)   # the grid reaches the end
                self.assertLess(time[-2], t[-1] - 1e-12)           # and stops there
                inside = time <= t[-1] + 1e-12
                for j, p in enumerate(cubics):
                    np.testing.assert_allclose(q_out[inside, j], p(time[inside]), rtol=0, atol=1e-9)
                    np.testing.assert_allclose(qd[inside, j], p.deriv(1)(time[inside]),
                                               rtol=0, atol=1e-9)
                    np.testing.assert_allclose(qdd[inside, j], p.deriv(2)(time[inside]),
                                               rtol=0, atol=1e-9)
                # Past the last sample the arm holds it, at rest.
                np.testing.assert_allclose(q_out[~inside], np.repeat(q[-1:], (~inside).sum(), 0),
                                           rtol=0, atol=1e-9)
                np.testing.assert_allclose(qd[~inside], 0.0, atol=1e-12)
                np.testing.assert_allclose(qdd[~inside], 0.0, atol=1e-12)
                self.assertEqual(inside.all(), sample_time == 0.005)

    def test_resampling_on_the_samples_own_grid_goes_through_them(self) -> None:
        # Every 5th sample of a plan, resampled on their own spacing: the
        # interpolant passes through each sample.
        plan = self.plan
        time, q = plan.time[::5], plan.q[::5]
        resampled = self.ur5.resample(time, q, 5 * plan.sample_time)
        self.assertEqual(resampled.q.shape, q.shape)
        np.testing.assert_allclose(resampled.time, time, rtol=0, atol=1e-12)
        np.testing.assert_allclose(resampled.q, q, rtol=0, atol=1e-12)

    # --- CheckJointLimits ------------------------------------------------------
    def test_joint_limit_distances_agree_with_the_urdf(self) -> None:
        rng = np.random.default_rng(41)
        for file, base, tip in [("abb_irb120.urdf", "base_link", "tool0"),
                                ("quirks.urdf", "base_link", "tool")]:  # prismatic, continuous
            model = UrdfModel(ROBOTS_DIR / file)
            dofs = model.dofs(base, tip)
            limits = model.position_limits(base, tip)
            lower, upper = limits[:, 0], limits[:, 1]
            bounded = np.isfinite(lower)
            finite_lower = np.where(bounded, lower, -math.pi)
            finite_upper = np.where(bounded, upper, math.pi)
            qs = [rng.uniform(finite_lower, finite_upper) for _ in range(6)]
            qs += [np.where(bounded, lower - 0.1, -40.0),   # below every lower limit
                   np.where(bounded, upper + 0.2, 40.0),    # above every upper limit
                   finite_lower.copy(), finite_upper.copy()]  # exactly on them
            qs = np.array(qs)
            with self.subTest(file=file):
                check = self.client.robot(ROBOTS_DIR / file).check_joint_limits(qs)
                self.assertEqual(len(check), len(qs))
                self.assertEqual(check.joint_names, [j.name for j in dofs])
                np.testing.assert_array_equal(check.lower, lower)
                np.testing.assert_array_equal(check.upper, upper)
                to_lower, to_upper = qs - lower, upper - qs
                distance = np.where(bounded, np.minimum(to_lower, to_upper), math.inf)
                np.testing.assert_allclose(check.distance, distance, rtol=0, atol=1e-12)
                inside = ~bounded | ((to_lower >= 0) & (to_upper >= 0))
                np.testing.assert_array_equal(check.inside, inside.all(axis=1))
                for i, result in enumerate(check):
                    for j, state in enumerate(result.joints):
                        self.assertEqual(state.inside, bool(inside[i, j]))
                        self.assertEqual(state.value, qs[i, j])
                        nearest = "" if not bounded[j] else \
                            ("lower" if to_lower[i, j] <= to_upper[i, j] else "upper")
                        self.assertEqual(state.nearest, nearest)
                self.assertFalse(check.all_inside)
                self.assertEqual(check[6].outside, [j.name for j, b in zip(dofs, bounded) if b])
        one = self.ur5.check_joint_limits(np.zeros(6))  # one vector: one result
        self.assertEqual(len(one), 1)
        self.assertTrue(one.all_inside)

    def test_a_nan_joint_is_refused_by_name(self) -> None:
        with self.assertRaises(motiond.MotiondRpcError) as raised:
            self.ur5.check_joint_limits([[0] * 6, [0, 0, 0, math.nan, 0, 0]])
        self.assertEqual(raised.exception.code, grpc.StatusCode.INVALID_ARGUMENT)
        self.assertEqual(raised.exception.field, "configurations[1].values[3]")

    # --- CheckSingularity ------------------------------------------------------
    def test_singular_values_agree_with_a_finite_difference_jacobian(self) -> None:
        q = np.array([0.3, -1.1, 1.2, -1.6, -1.4, 0.5])
        tool = np.eye(4)
        tool[:3, 3] = (0.02, -0.03, 0.15)
        for name, tool_pose, tool_matrix in [("flange", None, np.eye(4)),
                                             ("tool", motiond.Pose.from_matrix(tool), tool)]:
            with self.subTest(reference=name):
                check = self.ur5.check_singularity(q, tool=tool_pose)
                jacobian = finite_difference_jacobian(UR5, *UR5_CHAIN, q, tool_matrix)
                sigma = np.linalg.svd(jacobian, compute_uv=False)
                np.testing.assert_allclose(check.singular_values, sigma, atol=1e-7)
                self.assertAlmostEqual(check.sigma_min, sigma[-1], delta=1e-7)
                self.assertAlmostEqual(check.manipulability, np.prod(sigma), delta=1e-7)
                self.assertAlmostEqual(check.condition_number, sigma[0] / sigma[-1],
                                       delta=1e-5 * sigma[0] / sigma[-1])
                self.assertEqual(check.threshold, 1e-3)  # geometry.proto: 0 = 1e-3
                self.assertFalse(check.near_singular)

    def test_a_wrist_singularity_is_near_singular(self) -> None:
        # UR wrist: wrist_2 = 0 lines up the axes of wrist_1 and wrist_3.
        q = np.array([0.3, -1.1, 1.2, -1.6, 0.0, 0.5])
        sigma = np.linalg.svd(finite_difference_jacobian(UR5, *UR5_CHAIN, q, np.eye(4)),
                              compute_uv=False)
        self.assertLess(sigma[-1], 1e-8)
        check = self.ur5.check_singularity(q)
        self.assertLess(check.sigma_min, 1e-8)
        self.assertTrue(check.near_singular)
        away = self.ur5.check_singularity([0.3, -1.1, 1.2, -1.6, 0.2, 0.5], threshold=0.5)
        self.assertEqual(away.threshold, 0.5)
        self.assertEqual(away.near_singular, away.sigma_min < 0.5)
        with self.assertRaises(motiond.MotiondRpcError) as raised:
            self.ur5.check_singularity(q, threshold=-1.0)
        self.assertEqual(raised.exception.field, "threshold")


class ResendTest(ServerTestCase):
    """A fresh server holds no robot: each new call re-sends its URDF once."""

    PRELOAD = False

    def test_every_new_robot_call_resends_the_urdf_once(self) -> None:
        calls = [
            ("CheckTrajectory", "ur5.urdf",
             lambda r: r.check_trajectory([0.0, 0.004], np.zeros((2, 6)))),
            ("ResampleTrajectory", "abb_irb120.urdf",
             lambda r: r.resample([0.0, 0.1, 0.3], np.zeros((3, 6)), 0.01)),
            ("CheckJointLimits", "panda.urdf", lambda r: r.check_joint_limits(np.zeros(7))),
            ("CheckSingularity", "fanuc_m10ia.urdf",
             lambda r: r.check_singularity([0, 0.1, 0.2, 0, 0.5, 0])),
        ]
        logged_before = self.server.robot_refusals()
        for method, file, call in calls:
            with self.subTest(method=method):
                robot = self.client.robot(ROBOTS_DIR / file)  # nothing sent yet
                before = self.client.refusal_count
                call(robot)
                events = self.client.refusals()[before:]
                self.assertEqual([(e.kind, e.content_id, e.method, e.resent) for e in events],
                                 [("robot", robot.id, method, True)])
                call(robot)  # the server holds it now (and it goes inline for a while)
                self.assertEqual(self.client.refusal_count, before + 1)
        # The server's own count: one "robot not registered" line per call.
        self.assertEqual(self.server.robot_refusals() - logged_before, len(calls))

    def test_a_robot_known_only_by_id_is_a_clear_refusal(self) -> None:
        iiwa = (ROBOTS_DIR / "iiwa14.urdf").read_bytes()
        robot = self.client.robot(motiond.robot_id_for_urdf(iiwa))
        with self.assertRaises(motiond.MotiondRpcError) as raised:
            robot.check_joint_limits(np.zeros(7))
        self.assertEqual(raised.exception.code, grpc.StatusCode.NOT_FOUND)
        self.assertEqual(raised.exception.reason, "ROBOT_NOT_REGISTERED")


if __name__ == "__main__":
    unittest.main()
