"""motiond.Pose conversions against hand-derived rotations (no server)."""
from __future__ import annotations

import math
import unittest

import numpy as np

from motiond import Pose
from motiond._stubs import common_pb2


def rx(a: float) -> np.ndarray:
    return np.array([[1, 0, 0], [0, math.cos(a), -math.sin(a)], [0, math.sin(a), math.cos(a)]])


def ry(a: float) -> np.ndarray:
    return np.array([[math.cos(a), 0, math.sin(a)], [0, 1, 0], [-math.sin(a), 0, math.cos(a)]])


def rz(a: float) -> np.ndarray:
    return np.array([[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0], [0, 0, 1]])


class PoseTest(unittest.TestCase):
    def test_quarter_turns_about_each_axis(self) -> None:
        s = math.sqrt(0.5)
        # A rotation by angle a about unit axis k is (k sin(a/2), cos(a/2)).
        for axis, quaternion, matrix in [((1, 0, 0), (s, 0, 0, s), rx(math.pi / 2)),
                                         ((0, 1, 0), (0, s, 0, s), ry(math.pi / 2)),
                                         ((0, 0, 1), (0, 0, s, s), rz(math.pi / 2))]:
            with self.subTest(axis=axis):
                np.testing.assert_allclose(Pose((0, 0, 0), quaternion).rotation, matrix, atol=1e-15)
                np.testing.assert_allclose(Pose.from_matrix(_homogeneous(matrix)).quaternion,
                                           quaternion, atol=1e-15)

    def test_rpy_is_urdf_fixed_axis_xyz(self) -> None:
        roll, pitch, yaw = 0.3, -0.7, 2.1
        pose = Pose.from_rpy((1, 2, 3), (roll, pitch, yaw))
        np.testing.assert_allclose(pose.rotation, rz(yaw) @ ry(pitch) @ rx(roll), atol=1e-14)
        np.testing.assert_allclose(pose.rpy, (roll, pitch, yaw), atol=1e-12)

    def test_matrix_quaternion_round_trip_for_random_rotations(self) -> None:
        rng = np.random.default_rng(3)
        for _ in range(200):
            quaternion = rng.normal(size=4)
            quaternion /= np.linalg.norm(quaternion)
            pose = Pose(rng.normal(size=3), quaternion)
            again = Pose.from_matrix(pose.matrix)
            np.testing.assert_allclose(again.position, pose.position, atol=1e-14)
            # Same rotation: q or -q.
            self.assertAlmostEqual(abs(float(np.dot(again.quaternion, quaternion))), 1.0, places=12)
            rotation = pose.rotation
            np.testing.assert_allclose(rotation @ rotation.T, np.eye(3), atol=1e-14)

    def test_composition_and_inverse(self) -> None:
        # X_AB: B is A turned 90 deg about z and moved 1 m along x; a point at
        # B's (1, 0, 0) is then at A's (1, 1, 0).
        x_ab = Pose((1, 0, 0), (0, 0, math.sqrt(0.5), math.sqrt(0.5)))
        x_bc = Pose((1, 0, 0))
        np.testing.assert_allclose((x_ab @ x_bc).position, (1, 1, 0), atol=1e-15)
        identity = x_ab @ x_ab.inverse()
        np.testing.assert_allclose(identity.matrix, np.eye(4), atol=1e-15)

    def test_distance_to_measures_position_and_angle(self) -> None:
        a = Pose((0, 0, 0))
        b = Pose((0.3, 0.4, 0), (0, 0, math.sin(0.05), math.cos(0.05)))  # 0.1 rad about z
        position_error, angle = a.distance_to(b)
        self.assertAlmostEqual(position_error, 0.5, places=15)
        self.assertAlmostEqual(angle, 0.1, places=15)
        # q and -q are one rotation; tiny angles keep their digits.
        self.assertEqual(b.distance_to(Pose(b.position, -b.quaternion))[1], 0.0)
        tiny = Pose((0, 0, 0), (math.sin(5e-10), 0, 0, math.cos(5e-10)))
        self.assertAlmostEqual(a.distance_to(tiny)[1], 1e-9, delta=1e-18)

    def test_coerce_accepts_every_documented_form(self) -> None:
        expected = Pose.from_rpy((0.1, 0.2, 0.3), (0.4, 0.5, 0.6))
        message = common_pb2.Pose()
        message.CopyFrom(expected.to_proto())
        forms = [expected, expected.matrix, expected.matrix.tolist(),
                 (expected.position, expected.quaternion), ((0.1, 0.2, 0.3), (0.4, 0.5, 0.6)),
                 (expected.position, expected.rotation),
                 {"position": {"x": 0.1, "y": 0.2, "z": 0.3},
                  "orientation": dict(zip("xyzw", expected.quaternion))},
                 {"position": (0.1, 0.2, 0.3), "rpy": (0.4, 0.5, 0.6)}, message]
        for form in forms:
            with self.subTest(form=type(form).__name__):
                position_error, angle = Pose.coerce(form).distance_to(expected)
                self.assertLess(position_error, 1e-15)
                self.assertLess(angle, 1e-7)

    def test_bad_poses_are_refused(self) -> None:
        for bad in [(0, 0, 0, 0), (math.nan, 0, 0, 1)]:
            with self.subTest(quaternion=bad), self.assertRaises(ValueError):
                Pose((0, 0, 0), bad)
        with self.assertRaises(ValueError):
            Pose.coerce(np.eye(3))
        with self.assertRaises(ValueError):
            Pose.from_matrix(np.diag([1.0, 1.0, -1.0, 1.0]))  # a reflection
        with self.assertRaises(ValueError):
            Pose.coerce("not a pose")

    def test_rpy_in_degrees_and_in_messages_say_their_unit(self) -> None:
        expected = rz(math.radians(30)) @ ry(math.radians(-20)) @ rx(math.radians(90))
        degrees = Pose.from_rpy((1, 2, 3), (90, -20, 30), degrees=True)
        np.testing.assert_allclose(degrees.rotation, expected, atol=1e-14)
        for unit, angles in [(common_pb2.DEGREES, (90, -20, 30)),
                             (common_pb2.RADIANS, tuple(math.radians(a) for a in (90, -20, 30)))]:
            with self.subTest(unit=common_pb2.AngleUnit.Name(unit)):
                message = common_pb2.Pose(rpy=common_pb2.Rpy(roll=angles[0], pitch=angles[1],
                                                              yaw=angles[2], unit=unit))
                np.testing.assert_allclose(Pose.from_proto(message).rotation, expected, atol=1e-14)
                mapping = {"position": (0, 0, 0),
                           "rpy": {"roll": angles[0], "pitch": angles[1], "yaw": angles[2],
                                   "unit": common_pb2.AngleUnit.Name(unit)}}
                np.testing.assert_allclose(Pose.coerce(mapping).rotation, expected, atol=1e-14)
        # Angles are never guessed; a quaternion and rpy together are refused.
        with self.assertRaisesRegex(ValueError, "rpy.unit"):
            Pose.from_proto(common_pb2.Pose(rpy=common_pb2.Rpy(roll=90)))
        with self.assertRaisesRegex(ValueError, "rpy.unit"):
            Pose.coerce({"rpy": {"roll": 90}})
        with self.assertRaisesRegex(ValueError, "not both"):
            Pose.from_proto(common_pb2.Pose(orientation=common_pb2.Quaternion(w=1),
                                            rpy=common_pb2.Rpy(unit=common_pb2.RADIANS)))

    def test_unset_orientation_in_a_message_is_the_identity(self) -> None:
        message = common_pb2.Pose(position=common_pb2.Vector3(x=1.0))
        np.testing.assert_allclose(Pose.from_proto(message).quaternion, (0, 0, 0, 1))


def _homogeneous(rotation: np.ndarray) -> np.ndarray:
    matrix = np.eye(4)
    matrix[:3, :3] = rotation
    return matrix


if __name__ == "__main__":
    unittest.main()
