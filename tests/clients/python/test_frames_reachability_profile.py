"""Work-object frames on FK and IK, CheckReachability with per-target ids,
seeds and configurations and the nearest pose of an unreachable target, and
ComputeProfile, through the Python client. Independent truth: numpy's matrix
algebra on the client's own FK, this folder's URDF FK, and the published
double-S example 3.9 of Biagiotti & Melchiorri (2008)."""
from __future__ import annotations

import math
import unittest

import grpc
import numpy as np

import motiond
from motiond_server import ROBOTS_DIR, ServerTestCase
from urdf_reference import UrdfModel


def rigid(yaw: float, translation) -> np.ndarray:
    m = np.eye(4)
    c, s = math.cos(yaw), math.sin(yaw)
    m[:2, :2] = [[c, -s], [s, c]]
    m[:3, 3] = translation
    return m


FRAME = rigid(0.7, (0.3, -0.2, 0.1))
Q = [0.4, -1.1, 1.3, -0.6, 1.2, 0.3]


class FramesReachabilityProfileTest(ServerTestCase):
    @classmethod
    def setUpClass(cls) -> None:
        super().setUpClass()
        cls.ur5 = cls.client.robot(ROBOTS_DIR / "ur5.urdf")

    def test_fk_in_a_frame_is_the_inverse_frame_times_the_base_pose(self) -> None:
        model = UrdfModel(ROBOTS_DIR / "ur5.urdf")
        base = model.fk("base_link", "tool0", Q)  # independent of the server
        in_frame = self.ur5.fk(Q, frame=FRAME).matrix
        np.testing.assert_allclose(in_frame, np.linalg.inv(FRAME) @ base, atol=1e-9)

    def test_ik_of_a_target_in_a_frame_reaches_it(self) -> None:
        target = np.linalg.inv(FRAME) @ self.ur5.fk(Q).matrix
        solution = self.ur5.ik(target, seed=Q, frame=FRAME)
        np.testing.assert_allclose(self.ur5.fk(solution.joints, frame=FRAME).matrix, target,
                                   atol=1e-5)

    def test_targets_bring_their_own_id_seed_and_configuration(self) -> None:
        pose = self.ur5.fk(Q)
        every = self.ur5.ik(pose, seed=Q, mode="all")
        self.assertGreaterEqual(len(every.solutions), 4)
        wanted = every.raw.solutions[3].configuration
        other = every.solutions[2]
        targets = [
            motiond.Target(pose, id="by_configuration",
                           configuration=motiond.Configuration(wanted.shoulder, wanted.elbow,
                                                               wanted.wrist)),
            motiond.Target(pose, id="by_seed", seed=other),
            pose,  # a bare pose among details: the request's seed
        ]
        results = self.ur5.reachability(targets, seed=Q)
        self.assertEqual([r.id for r in results], ["by_configuration", "by_seed", ""])
        self.assertTrue(all(r.ok for r in results))
        c = results[0].configuration
        self.assertEqual((c.shoulder, c.elbow, c.wrist),
                         (wanted.shoulder, wanted.elbow, wanted.wrist))
        np.testing.assert_allclose(results[1].joints, other, atol=1e-6)
        np.testing.assert_allclose(results[2].joints, Q, atol=1e-6)
        for r in results:
            np.testing.assert_allclose(self.ur5.fk(r.joints).matrix, pose.matrix, atol=1e-5)
            self.assertIsNone(r.nearest_pose)

    def test_an_unreachable_target_says_where_its_closest_joints_put_the_tcp(self) -> None:
        far = motiond.Pose((3.0, 0.5, 0.4), (0, 0, 0, 1))
        (result,) = self.ur5.reachability([far], frame=FRAME)
        self.assertFalse(result.ok)
        self.assertIsNotNone(result.nearest_pose)
        np.testing.assert_allclose(result.nearest_pose.matrix,
                                   self.ur5.fk(result.joints, frame=FRAME).matrix, atol=1e-9)
        self.assertGreater(np.linalg.norm(result.nearest_pose.position - far.position), 1.5)

    def test_a_bad_target_detail_names_its_field(self) -> None:
        pose = self.ur5.fk(Q)
        with self.assertRaises(motiond.MotiondRpcError) as raised:
            self.ur5.reachability([pose, motiond.Target(pose, seed=[0.1, 0.2])])
        self.assertEqual(raised.exception.code, grpc.StatusCode.INVALID_ARGUMENT)
        self.assertEqual(raised.exception.field, "target_details[1].seed")

    def test_compute_profile_matches_biagiotti_example_3_9(self) -> None:
        # q1 - q0 = 10, v0 = 1, vmax = 5, amax = 10, jmax = 30: the book gives
        # Ta = 0.7333, Tv = 1.1433, Td = 0.8333, T = 2.7100.
        p = motiond.compute_profile(self.client, 10, 5, 10, 30, start_velocity=1,
                                    sample_time=0.001)
        self.assertAlmostEqual(p.duration, 2.7100, places=4)
        names = [ph.name for ph in p.phases]
        self.assertEqual(names, ["accel_ramp_up", "accel_hold", "accel_ramp_down", "cruise",
                                 "decel_ramp_up", "decel_hold", "decel_ramp_down"])
        self.assertAlmostEqual(p.phases[3].duration, 1.1433, places=4)
        self.assertAlmostEqual(p.phases[3].start_time, 0.7333, places=4)
        self.assertEqual(p.s[-1], 10.0)
        self.assertAlmostEqual(p.sd[0], 1.0, places=12)
        # Divided differences of the sampled positions stay within the limits.
        dt = 0.001
        self.assertLessEqual(np.max(np.abs(np.diff(p.s) / dt)), 5 + 1e-9)
        self.assertLessEqual(np.max(np.abs(np.diff(p.s, 2) / dt**2)), 10 + 1e-3)

    def test_compute_profile_refuses_by_field(self) -> None:
        with self.assertRaises(motiond.MotiondRpcError) as raised:
            motiond.compute_profile(self.client, 1.0, 1.0, 1.0, 0.0)
        self.assertEqual(raised.exception.field, "max_jerk")
        with self.assertRaises(ValueError):
            motiond.compute_profile(self.client, 1.0, 1.0, 1.0, 1.0, profile="s_curve")


if __name__ == "__main__":
    unittest.main()
