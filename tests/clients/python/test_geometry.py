"""motiond.geometry (the server's pose operations) against hand-written
rotations and numpy's matrix algebra: products, numpy.linalg.inv, and the
documented definitions of offsets, tools and work-object frames. Bad input
is refused by the server, which names the field."""
from __future__ import annotations

import math
import unittest
from typing import Callable, List, Tuple

import grpc
import numpy as np

import motiond
from motiond import Pose, geometry, pose_input
from motiond_server import ServerTestCase

# Rounding of a few products of doubles.
TOLERANCE = 1e-12


def random_rigid(rng: np.random.Generator) -> np.ndarray:
    """A 4x4 rigid transform: a rotation from the QR decomposition of a
    random matrix (signs fixed so it is a rotation), a random translation."""
    q, r = np.linalg.qr(rng.normal(size=(3, 3)))
    q = q @ np.diag(np.sign(np.diag(r)))
    if np.linalg.det(q) < 0:
        q[:, 0] = -q[:, 0]
    m = np.eye(4)
    m[:3, :3] = q
    m[:3, 3] = rng.uniform(-2, 2, size=3)
    return m


def rotation_part(rotation: np.ndarray) -> np.ndarray:
    m = np.eye(4)
    m[:3, :3] = rotation
    return m


def identity_with(row: int, column: int, value: float) -> np.ndarray:
    m = np.eye(4)
    m[row, column] = value
    return m


class GeometryTest(ServerTestCase):
    PRELOAD = False  # no robot is needed

    def test_a_quarter_roll_in_degrees(self) -> None:
        s = math.sin(math.pi / 4)
        # Rx(90 deg), written out: y turns into z, z into -y.
        matrix = np.array([[1, 0, 0, 0.5],
                           [0, 0, -1, -0.25],
                           [0, 1, 0, 1.0],
                           [0, 0, 0, 1]], dtype=float)
        forms = geometry.convert_pose(self.client, position=(0.5, -0.25, 1.0), rpy=(90, 0, 0),
                                      degrees=True)
        np.testing.assert_allclose(forms.quaternion, (s, 0, 0, math.cos(math.pi / 4)),
                                   atol=TOLERANCE)
        np.testing.assert_allclose(forms.matrix, matrix, atol=TOLERANCE)
        np.testing.assert_allclose(forms.position, (0.5, -0.25, 1.0), atol=0)
        self.assertTrue(forms.degrees)  # the answer's rpy in the unit asked
        np.testing.assert_allclose(forms.rpy, (90, 0, 0), atol=1e-10)
        np.testing.assert_allclose(forms.pose.matrix, matrix, atol=TOLERANCE)
        # The hand-written matrix, sent as a matrix, answered in radians.
        back = geometry.convert_pose(self.client, matrix, answer_degrees=False)
        np.testing.assert_allclose(back.quaternion, (s, 0, 0, s), atol=TOLERANCE)
        np.testing.assert_allclose(back.rpy, (math.pi / 2, 0, 0), atol=TOLERANCE)
        self.assertFalse(back.degrees)

    def test_convert_pose_takes_every_form(self) -> None:
        s = math.sqrt(0.5)
        position = (0.1, 0.2, 0.3)
        expected = (s, 0, 0, s)
        forms = {
            "Pose": dict(pose=Pose(position, expected)),
            "4x4 list": dict(pose=[[1, 0, 0, 0.1], [0, 0, -1, 0.2], [0, 1, 0, 0.3], [0, 0, 0, 1]]),
            "position + quaternion keywords": dict(position=position, quaternion=(2, 0, 0, 2)),
            "position + rpy keywords, radians": dict(position=position, rpy=(math.pi / 2, 0, 0),
                                                     degrees=False),
            "(position, quaternion) pair": dict(pose=(position, (1, 0, 0, 1))),
            "(position, rpy) pair in degrees": dict(pose=(position, (90, 0, 0)), degrees=True),
            "pose_input": dict(pose=pose_input(position, rpy=(90, 0, 0), degrees=True)),
        }
        for name, arguments in forms.items():
            with self.subTest(form=name):
                answer = geometry.convert_pose(self.client, **arguments)
                np.testing.assert_allclose(answer.quaternion, expected, atol=TOLERANCE)
                np.testing.assert_allclose(answer.position, position, atol=TOLERANCE)

    def test_compose_agrees_with_numpy_matrix_products(self) -> None:
        rng = np.random.default_rng(21)
        for count in (1, 2, 3, 5):
            matrices = [random_rigid(rng) for _ in range(count)]
            expected = np.linalg.multi_dot(matrices) if count > 1 else matrices[0]
            for form, poses in [("matrices", matrices),
                                ("Poses", [Pose.from_matrix(m) for m in matrices])]:
                with self.subTest(count=count, form=form):
                    product = geometry.compose_poses(self.client, *poses)
                    np.testing.assert_allclose(product.matrix, expected, atol=TOLERANCE)

    def test_invert_agrees_with_numpy_linalg_inv(self) -> None:
        rng = np.random.default_rng(22)
        for _ in range(5):
            m = random_rigid(rng)
            inverse = geometry.invert_pose(self.client, m)
            np.testing.assert_allclose(inverse.matrix, np.linalg.inv(m), atol=TOLERANCE)
            again = geometry.compose_poses(self.client, m, inverse)
            np.testing.assert_allclose(again.matrix, np.eye(4), atol=TOLERANCE)

    def test_tool_and_frame_agree_with_numpy(self) -> None:
        rng = np.random.default_rng(23)
        frame, target, tool = (random_rigid(rng) for _ in range(3))
        answer = geometry.apply_tool_and_frame(self.client, target, frame=frame, tool=tool)
        np.testing.assert_allclose(answer.tcp.matrix, frame @ target, atol=TOLERANCE)
        np.testing.assert_allclose(answer.flange.matrix, frame @ target @ np.linalg.inv(tool),
                                   atol=TOLERANCE)
        tcp, flange = geometry.apply_tool_and_frame(self.client, target)  # base frame, flange
        np.testing.assert_allclose(tcp.matrix, target, atol=TOLERANCE)
        np.testing.assert_allclose(flange.matrix, target, atol=TOLERANCE)

    def test_offsets_agree_with_their_documented_definitions(self) -> None:
        # geometry.proto / MotionSegment.OffsetFrame: TOOL = target * offset;
        # WORLD and FRAME turn about the target's origin, in base or
        # work-object axes: rotation R_offset R, position p + p_offset.
        rng = np.random.default_rng(24)
        frame, target, offset = (random_rigid(rng) for _ in range(3))

        def about_origin(m: np.ndarray) -> np.ndarray:
            out = np.eye(4)
            out[:3, :3] = offset[:3, :3] @ m[:3, :3]
            out[:3, 3] = m[:3, 3] + offset[:3, 3]
            return out

        expected = {"tool": frame @ target @ offset,
                    "frame": frame @ about_origin(target),
                    "world": about_origin(frame @ target)}
        for axes, matrix in expected.items():
            with self.subTest(offset_frame=axes):
                moved = geometry.apply_offset(self.client, target, offset, frame=frame,
                                              offset_frame=axes)
                np.testing.assert_allclose(moved.matrix, matrix, atol=TOLERANCE)
        unmoved = geometry.apply_offset(self.client, target)
        np.testing.assert_allclose(unmoved.matrix, target, atol=TOLERANCE)

    def test_bad_input_is_refused_naming_the_field(self) -> None:
        nan = math.nan
        client = self.client
        cases: List[Tuple[str, str, Callable[[], object]]] = [
            ("NaN position", "pose.position",
             lambda: geometry.convert_pose(client, position=(nan, 0, 0), quaternion=(0, 0, 0, 1))),
            ("NaN quaternion", "pose.orientation",
             lambda: geometry.invert_pose(client, position=(0, 0, 0), quaternion=(nan, 0, 0, 1))),
            ("NaN roll", "pose.rpy.roll",
             lambda: geometry.invert_pose(client, position=(0, 0, 0), rpy=(nan, 0, 0),
                                          degrees=True)),
            ("NaN in a matrix", "matrix.values[6]",
             lambda: geometry.convert_pose(client, identity_with(1, 2, nan))),  # row-major 6
            ("zero quaternion", "poses[1].orientation",
             lambda: geometry.compose_poses(client, Pose(), ((0, 0, 0), (0, 0, 0, 0)))),
            ("zero quaternion", "tool.orientation",
             lambda: geometry.apply_tool_and_frame(client, Pose(),
                                                   tool=pose_input(quaternion=(0, 0, 0, 0)))),
            ("missing angle unit", "pose.rpy.unit",
             lambda: geometry.convert_pose(client, position=(0, 0, 0), rpy=(90, 0, 0))),
            ("missing angle unit in a pair", "poses[0].rpy.unit",
             lambda: geometry.compose_poses(client, ((0, 0, 0), (0.1, 0.2, 0.3)), Pose())),
            ("missing angle unit", "offset.rpy.unit",
             lambda: geometry.apply_offset(client, Pose(), pose_input(rpy=(0, 0, 10)))),
            ("degrees sent as radians", "pose.rpy.roll",
             lambda: geometry.convert_pose(client, position=(0, 0, 0), rpy=(90, 0, 0),
                                           degrees=False)),
            ("quaternion and rpy", "pose.rpy",
             lambda: geometry.invert_pose(client, pose_input(quaternion=(0, 0, 0, 1),
                                                             rpy=(0, 0, 0), degrees=True))),
            ("a scaled matrix", "matrix",
             lambda: geometry.convert_pose(client, np.diag([2.0, 1.0, 1.0, 1.0]))),
        ]
        for name, field, call in cases:
            with self.subTest(name, field=field):
                with self.assertRaises(motiond.MotiondRpcError) as raised:
                    call()
                self.assertEqual(raised.exception.code, grpc.StatusCode.INVALID_ARGUMENT)
                self.assertEqual(raised.exception.field, field)

    def test_matrices_other_calls_cannot_send_are_refused_here(self) -> None:
        # motion.v1.Pose has no matrix form, so compose & co. turn a matrix
        # into a quaternion here, and refuse one that is not a rotation.
        with self.assertRaisesRegex(ValueError, r"^poses\[1\]: "):
            geometry.compose_poses(self.client, np.eye(4), np.diag([1.0, 1.0, -1.0, 1.0]))
        with self.assertRaisesRegex(ValueError, "offset_frame"):
            geometry.apply_offset(self.client, Pose(), offset_frame="sideways")


if __name__ == "__main__":
    unittest.main()
