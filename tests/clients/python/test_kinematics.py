"""FK, IK and Jacobian through the Python client, against independent truth:
the reference FK table of robots/README.md (computed there with KDL and a
separate URDF FK), published zero poses, and this folder's own URDF FK."""
from __future__ import annotations

import math
import re
import unittest
from typing import List, Tuple

import numpy as np

import motiond
from motiond_server import ROBOTS_DIR, ServerTestCase
from urdf_reference import UrdfModel, rotation_angle

# robots/README.md rounds the table to 1e-6.
TABLE_TOLERANCE = 1.5e-6


def reference_fk_rows() -> List[Tuple[str, str, str, List[float], np.ndarray, np.ndarray]]:
    """(file, base, tip, q, position, quaternion) of every row of the
    "Reference forward kinematics" table in robots/README.md."""
    text = (ROBOTS_DIR / "README.md").read_text(encoding="utf-8")
    table = text[text.index("## Reference forward kinematics"):]
    n = r"(-?\d+\.\d+)"
    row = re.compile(
        rf"^\| (\S+\.urdf) \| (\S+) → (\S+) \| (0|0\.1·\(i\+1\)) \| "
        rf"\({n}, {n}, {n}\) \| \({n}, {n}, {n}, {n}\) \|", re.MULTILINE)
    rows = []
    for match in row.finditer(table):
        file, base, tip, q_rule = match.group(1, 2, 3, 4)
        dof = len(UrdfModel(ROBOTS_DIR / file).dofs(base, tip))
        q = [0.0] * dof if q_rule == "0" else [0.1 * (i + 1) for i in range(dof)]
        values = [float(v) for v in match.groups()[4:]]
        rows.append((file, base, tip, q, np.array(values[:3]), np.array(values[3:])))
    return rows


class KinematicsTest(ServerTestCase):
    PRELOAD = True

    def test_reference_table_is_parsed_whole(self) -> None:
        # 12 files, 2 rows each, plus the alternative tips of panda and iiwa14.
        self.assertEqual(len(reference_fk_rows()), 28)

    def test_fk_matches_the_published_reference_table(self) -> None:
        for file, base, tip, q, position, quaternion in reference_fk_rows():
            with self.subTest(file=file, tip=tip, q=q[:2]):
                robot = self.client.robot(ROBOTS_DIR / file, base_link=base, tip_link=tip)
                pose = robot.fk(q)
                np.testing.assert_allclose(pose.position, position, atol=TABLE_TOLERANCE)
                # q and -q are the same rotation.
                sign = 1.0 if np.dot(pose.quaternion, quaternion) >= 0 else -1.0
                np.testing.assert_allclose(sign * pose.quaternion, quaternion,
                                           atol=TABLE_TOLERANCE)

    def test_ur5_zero_pose_is_the_published_dh_zero_pose(self) -> None:
        # robots/README.md: at q = 0, tool0 is at (0.81725, 0.19145, -0.005491)
        # in base_link (the UR DH zero pose, base_link turned 180 deg about z),
        # rotation quaternion (0, 0.707107, 0.707107, 0).
        ur5 = self.client.robot(ROBOTS_DIR / "ur5.urdf")
        pose = ur5.fk(np.zeros(6))
        expected = np.array([[-1, 0, 0, 0.81725],
                             [0, 0, 1, 0.19145],
                             [0, 1, 0, -0.005491],
                             [0, 0, 0, 1]], dtype=float)
        np.testing.assert_allclose(pose.matrix, expected, atol=1e-9)
        np.testing.assert_allclose(pose.position, expected[:3, 3], atol=1e-9)
        np.testing.assert_allclose(np.abs(pose.quaternion), [0, math.sqrt(0.5), math.sqrt(0.5), 0],
                                   atol=1e-9)

    def test_fk_matches_an_independent_urdf_fk_at_random_joints(self) -> None:
        rng = np.random.default_rng(7)
        chains = [("ur5.urdf", "base_link", "tool0"),
                  ("panda.urdf", "panda_link0", "panda_hand_tcp"),
                  ("abb_irb2400.urdf", "base_link", "tool0"),
                  ("fanuc_m10ia.urdf", "base_link", "tool0"),
                  ("quirks.urdf", "base_link", "tool"),
                  ("iiwa14.urdf", "base", "iiwa_link_ee")]
        for file, base, tip in chains:
            model = UrdfModel(ROBOTS_DIR / file)
            robot = self.client.robot(ROBOTS_DIR / file, base_link=base, tip_link=tip)
            for _ in range(5):
                q = model.random_joints(base, tip, rng)
                with self.subTest(file=file, q=q):
                    expected = model.fk(base, tip, q)
                    pose = robot.fk(q)
                    np.testing.assert_allclose(pose.position, expected[:3, 3], atol=1e-9)
                    self.assertLess(rotation_angle(pose.rotation, expected[:3, :3]), 1e-9)

    def test_default_chain_has_the_urdf_joints_in_chain_order(self) -> None:
        panda = self.client.robot(ROBOTS_DIR / "panda.urdf")
        model = UrdfModel(ROBOTS_DIR / "panda.urdf")
        self.assertEqual(panda.info.tip_link, "panda_link8")  # robots/README.md's arm chain
        self.assertEqual(panda.joint_names,
                         [j.name for j in model.dofs("panda_link0", "panda_link8")])
        np.testing.assert_allclose(panda.limits.max_velocity,
                                   model.velocity_limits("panda_link0", "panda_link8"))

    def test_ik_then_fk_reproduces_the_pose(self) -> None:
        rng = np.random.default_rng(11)
        for file, base, tip in [("ur5.urdf", "base_link", "tool0"),
                                ("abb_irb120.urdf", "base_link", "tool0"),
                                ("panda.urdf", "panda_link0", "panda_link8"),
                                ("kuka_iiwa14_r820.urdf", "base_link", "tool0")]:
            model = UrdfModel(ROBOTS_DIR / file)
            robot = self.client.robot(ROBOTS_DIR / file)
            limits = model.position_limits(base, tip)
            for _ in range(4):
                target = model.fk(base, tip, model.random_joints(base, tip, rng))
                with self.subTest(file=file):
                    # The server's default tolerances are 1e-5 m / rad; the
                    # numeric solver (7-DOF arms) stops at them, so ask for less.
                    solution = robot.ik(target, position_tolerance=1e-8,
                                        orientation_tolerance=1e-8)  # a 4x4 matrix
                    self.assertTrue(solution.ok)
                    reached = robot.fk(solution.joints)
                    position_error, angle = reached.distance_to(motiond.Pose.from_matrix(target))
                    self.assertLess(position_error, 1e-6)
                    self.assertLess(angle, 1e-6)
                    # The same with the independent FK, and within the URDF limits.
                    independent = model.fk(base, tip, solution.joints)
                    self.assertLess(np.linalg.norm(independent[:3, 3] - target[:3, 3]), 1e-6)
                    self.assertLess(rotation_angle(independent[:3, :3], target[:3, :3]), 1e-6)
                    self.assertTrue(np.all(solution.joints >= limits[:, 0] - 1e-12))
                    self.assertTrue(np.all(solution.joints <= limits[:, 1] + 1e-12))

    def test_ik_accepts_every_pose_form(self) -> None:
        ur5 = self.client.robot(ROBOTS_DIR / "ur5.urdf")
        seed = [0.2, -1.4, 1.3, -1.2, -1.5, 0.3]
        target = ur5.fk([0.1, -1.2, 1.4, -1.7, -1.6, 0.2])
        rpy = target.rpy
        forms = {
            "Pose": dict(pose=target),
            "matrix": dict(pose=target.matrix),
            "position+quaternion pair": dict(pose=(list(target.position), list(target.quaternion))),
            "position+rpy pair": dict(pose=(target.position, rpy)),
            "keywords quaternion": dict(position=target.position, quaternion=target.quaternion),
            "keywords rpy": dict(position=target.position, rpy=rpy),
            "JSON mapping": dict(pose={"position": dict(zip("xyz", target.position)),
                                       "orientation": dict(zip("xyzw", target.quaternion))}),
        }
        for name, arguments in forms.items():
            with self.subTest(form=name):
                solution = ur5.ik(seed=seed, **arguments)
                position_error, angle = ur5.fk(solution.joints).distance_to(target)
                self.assertLess(position_error, 1e-6)
                self.assertLess(angle, 1e-6)

    def test_ik_prefers_the_solution_nearest_the_seed(self) -> None:
        ur5 = self.client.robot(ROBOTS_DIR / "ur5.urdf")
        q = np.array([0.3, -1.1, 1.2, -1.6, -1.4, 0.5])
        solution = ur5.ik(ur5.fk(q), seed=q + 0.05)
        np.testing.assert_allclose(solution.joints, q, atol=1e-6)

    def test_unreachable_target_raises_ik_failed_with_the_reason(self) -> None:
        ur5 = self.client.robot(ROBOTS_DIR / "ur5.urdf")
        far = motiond.Pose((3.0, 0.0, 0.5))  # the UR5 reaches about 0.85 m
        with self.assertRaises(motiond.IkFailed) as raised:
            ur5.ik(far)
        self.assertEqual(raised.exception.solution.outcome, "unreachable")
        self.assertIn("TARGET_UNREACHABLE", [d.code for d in raised.exception.solution.diagnostics])
        answer = ur5.ik(far, check=False)
        self.assertFalse(answer.ok)

    def test_wrong_joint_count_raises_with_the_code_and_the_field(self) -> None:
        ur5 = self.client.robot(ROBOTS_DIR / "ur5.urdf")
        with self.assertRaises(motiond.MotiondRpcError) as raised:
            ur5.fk([0.0, 0.0, 0.0])
        error = raised.exception
        self.assertEqual(error.code.name, "INVALID_ARGUMENT")
        self.assertEqual(error.field, "joints")
        self.assertEqual(error.method, "ComputeFk")
        self.assertIn("expected 6 values", error.message)
        self.assertIn("INVALID_ARGUMENT", str(error))

        with self.assertRaises(motiond.MotiondRpcError) as raised:
            ur5.ik(ur5.fk(np.zeros(6)), seed=[0.0, 0.0])
        self.assertEqual(raised.exception.code.name, "INVALID_ARGUMENT")
        self.assertEqual(raised.exception.field, "seed")

    def test_jacobian_linear_rows_are_the_derivative_of_the_independent_fk(self) -> None:
        model = UrdfModel(ROBOTS_DIR / "ur5.urdf")
        ur5 = self.client.robot(ROBOTS_DIR / "ur5.urdf")
        q = np.array([0.4, -1.0, 1.1, -1.3, -1.2, 0.6])
        jacobian = ur5.jacobian(q)
        self.assertEqual(jacobian.shape, (6, 6))
        h = 1e-6
        for i in range(6):
            dq = np.zeros(6)
            dq[i] = h
            derivative = (model.fk("base_link", "tool0", q + dq)[:3, 3]
                          - model.fk("base_link", "tool0", q - dq)[:3, 3]) / (2 * h)
            np.testing.assert_allclose(jacobian[:3, i], derivative, atol=1e-7)

    def test_robot_by_name_is_the_robot_of_the_urdf(self) -> None:
        by_name = self.client.robot("ur5")
        by_file = self.client.robot(ROBOTS_DIR / "ur5.urdf")
        self.assertEqual(by_name.id, by_file.id)
        with self.assertRaises(motiond.RobotNotFound):
            self.client.robot("no_such_robot_anywhere")


if __name__ == "__main__":
    unittest.main()
