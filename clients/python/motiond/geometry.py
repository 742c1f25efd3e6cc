"""motiond's pose operations (motion.v1.Geometry), computed by the server.

Module functions; each takes the :class:`motiond.Client` first::

    from motiond import geometry

    forms = geometry.convert_pose(client, position=(0, 0, 1), rpy=(90, 0, 0), degrees=True)
    forms.quaternion, forms.matrix, forms.rpy          # (x, y, z, w), 4x4, degrees
    x_ac = geometry.compose_poses(client, x_ab, x_bc)  # Pose
    x_ba = geometry.invert_pose(client, x_ab)
    target = geometry.apply_offset(client, target, offset, frame=work_object, offset_frame="tool")
    tcp, flange = geometry.apply_tool_and_frame(client, target, frame=work_object, tool=tool)

The server is the judge of every pose (:mod:`motiond.pose_input` says what a
pose argument may be and what is sent for it): a NaN, a zero quaternion or
roll / pitch / yaw without a unit raise :class:`motiond.MotiondRpcError`
with INVALID_ARGUMENT and ``field`` naming it (``pose.rpy.unit``,
``poses[1].orientation``). The single-pose functions also take
``position=`` with ``quaternion=`` or ``rpy=`` and ``degrees=``.

Answers are :class:`motiond.Pose` (quaternion normalised, w >= 0). These
calls need no robot; they go to whichever replica the channel picks.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple, Optional, Sequence, Tuple, Union

import numpy as np

from motiond._stubs import common_pb2, geometry_pb2, motion_planner_pb2
from motiond.pose_input import (GeometryPoseLike, PoseInput, as_matrix, matrix_message,
                                pose_input, pose_message)
from motiond.poses import Pose

if TYPE_CHECKING:
    from motiond.client import Client

__all__ = ["PoseForms", "PoseInput", "ToolAndFrame", "apply_offset", "apply_tool_and_frame",
           "compose_poses", "convert_pose", "invert_pose", "pose_input"]

_OFFSET_FRAMES = {"world": motion_planner_pb2.MotionSegment.WORLD,
                  "frame": motion_planner_pb2.MotionSegment.FRAME,
                  "tool": motion_planner_pb2.MotionSegment.TOOL}


@dataclass(frozen=True)
class PoseForms:
    """One pose in every form (the answer of :func:`convert_pose`).

    Attributes:
        pose: as a :class:`motiond.Pose`.
        position: (3,) m.
        quaternion: (4,) x, y, z, w, normalised, w >= 0.
        rpy: roll, pitch, yaw (URDF's fixed axes X, Y, Z), pitch within
            +-90 degrees; at +-90 roll = 0.
        degrees: the unit of ``rpy`` (True: degrees, False: radians).
        matrix: (4, 4) homogeneous matrix.
        raw: the ConvertPoseResponse.
    """

    pose: Pose
    position: np.ndarray
    quaternion: np.ndarray
    rpy: Tuple[float, float, float]
    degrees: bool
    matrix: np.ndarray
    raw: geometry_pb2.ConvertPoseResponse = field(repr=False, compare=False)

    @classmethod
    def from_proto(cls, message: geometry_pb2.ConvertPoseResponse) -> "PoseForms":
        """From a motion.v1.ConvertPoseResponse."""
        p, o = message.pose.position, message.pose.orientation
        return cls(pose=Pose.from_proto(message.pose),
                   position=np.array([p.x, p.y, p.z]),
                   quaternion=np.array([o.x, o.y, o.z, o.w]),
                   rpy=(message.rpy.roll, message.rpy.pitch, message.rpy.yaw),
                   degrees=message.rpy.unit == common_pb2.DEGREES,
                   matrix=np.asarray(message.matrix.values, dtype=float).reshape(4, 4),
                   raw=message)


class ToolAndFrame(NamedTuple):
    """The answer of :func:`apply_tool_and_frame`, in the base frame:
    ``tcp`` = frame * target, ``flange`` = frame * target * tool^-1 (what IK
    is solved for)."""

    tcp: Pose
    flange: Pose


def _single_pose(function: str, pose: Optional[GeometryPoseLike],
                 position: Optional[Sequence[float]], quaternion: Optional[Sequence[float]],
                 rpy: Optional[Sequence[float]], degrees: Optional[bool]) -> GeometryPoseLike:
    """The pose argument, from ``pose`` or from the keywords."""
    keywords = position is not None or quaternion is not None or rpy is not None
    if pose is not None and keywords:
        raise ValueError(f"{function}: give pose, or position with quaternion / rpy, not both")
    if pose is None:
        if position is None:
            raise ValueError(f"{function}: give a pose, or position with quaternion or rpy")
        return pose_input(position, quaternion, rpy, degrees=degrees)
    return pose


def _optional(request_field: common_pb2.Pose, value: Optional[GeometryPoseLike], what: str,
              degrees: Optional[bool]) -> None:
    if value is not None:
        request_field.CopyFrom(pose_message(value, what, degrees))


def convert_pose(client: "Client", pose: Optional[GeometryPoseLike] = None, *,
                 position: Optional[Sequence[float]] = None,
                 quaternion: Optional[Sequence[float]] = None,
                 rpy: Optional[Sequence[float]] = None, degrees: Optional[bool] = None,
                 answer_degrees: Optional[bool] = None,
                 timeout: Optional[float] = None) -> PoseForms:
    """ConvertPose: one pose as quaternion, roll / pitch / yaw and 4x4 matrix.

    Args:
        pose: any pose argument; a 4x4 matrix is sent as a matrix, so the
            server judges its rigidity (orthonormal to 1e-6, determinant +1,
            last row 0 0 0 1). Or give ``position`` with ``quaternion`` or
            ``rpy`` instead.
        degrees: the unit of the rpy given (``rpy=`` or a (position, rpy)
            pair): True degrees, False radians, None not said (refused).
        answer_degrees: the unit of the answer's rpy; None = ``degrees`` when
            given, else radians.

    Raises:
        MotiondRpcError: INVALID_ARGUMENT naming the field at fault.
    """
    value = _single_pose("convert_pose", pose, position, quaternion, rpy, degrees)
    in_degrees = answer_degrees if answer_degrees is not None else bool(degrees)
    request = geometry_pb2.ConvertPoseRequest(
        rpy_unit=common_pb2.DEGREES if in_degrees else common_pb2.RADIANS)
    matrix = as_matrix(value)
    if matrix is not None:
        request.matrix.CopyFrom(matrix_message(matrix))
    else:
        request.pose.CopyFrom(pose_message(value, "pose", degrees))
    return PoseForms.from_proto(
        client._unary("ConvertPose", client._geometry.ConvertPose, request, timeout))


def compose_poses(client: "Client", *poses: GeometryPoseLike, degrees: Optional[bool] = None,
                  timeout: Optional[float] = None) -> Pose:
    """ComposePoses: ``poses[0] * poses[1] * ...``, each the next one's
    parent frame (1 to 1000 poses): ``compose_poses(client, x_ab, x_bc)`` is
    X_AC.

    Args:
        degrees: the unit of every (position, rpy) pair given.

    Raises:
        MotiondRpcError: INVALID_ARGUMENT naming ``poses[i]...``.
    """
    request = geometry_pb2.ComposePosesRequest(
        poses=[pose_message(p, f"poses[{i}]", degrees) for i, p in enumerate(poses)])
    response = client._unary("ComposePoses", client._geometry.ComposePoses, request, timeout)
    return Pose.from_proto(response.pose)


def invert_pose(client: "Client", pose: Optional[GeometryPoseLike] = None, *,
                position: Optional[Sequence[float]] = None,
                quaternion: Optional[Sequence[float]] = None,
                rpy: Optional[Sequence[float]] = None, degrees: Optional[bool] = None,
                timeout: Optional[float] = None) -> Pose:
    """InvertPose: X_CP for X_PC.

    Raises:
        MotiondRpcError: INVALID_ARGUMENT naming ``pose...``.
    """
    value = _single_pose("invert_pose", pose, position, quaternion, rpy, degrees)
    request = geometry_pb2.InvertPoseRequest(pose=pose_message(value, "pose", degrees))
    response = client._unary("InvertPose", client._geometry.InvertPose, request, timeout)
    return Pose.from_proto(response.pose)


def apply_offset(client: "Client", target: GeometryPoseLike,
                 offset: Optional[GeometryPoseLike] = None, *,
                 frame: Optional[GeometryPoseLike] = None,
                 offset_frame: Union[str, int] = "world", degrees: Optional[bool] = None,
                 timeout: Optional[float] = None) -> Pose:
    """ApplyOffset: ``target`` (in the work-object ``frame``; the base frame
    when None) moved by ``offset`` as ``MotionSegment.offset`` moves it,
    answered in the base frame.

    Args:
        offset_frame: the axes the offset is about: ``"world"`` (base axes,
            about the target's origin), ``"frame"`` (work-object axes, about
            the target's origin) or ``"tool"`` (the target's own axes:
            target * offset); or a ``MotionSegment.OffsetFrame`` value.
        degrees: the unit of every (position, rpy) pair given.

    Raises:
        MotiondRpcError: INVALID_ARGUMENT naming ``target``, ``frame`` or
            ``offset``.
    """
    if isinstance(offset_frame, str):
        if offset_frame.lower() not in _OFFSET_FRAMES:
            raise ValueError(f"offset_frame: one of {sorted(_OFFSET_FRAMES)}, got {offset_frame!r}")
        axes = _OFFSET_FRAMES[offset_frame.lower()]
    else:
        axes = int(offset_frame)
    request = geometry_pb2.ApplyOffsetRequest(target=pose_message(target, "target", degrees),
                                              offset_frame=axes)
    _optional(request.offset, offset, "offset", degrees)
    _optional(request.frame, frame, "frame", degrees)
    response = client._unary("ApplyOffset", client._geometry.ApplyOffset, request, timeout)
    return Pose.from_proto(response.pose)


def apply_tool_and_frame(client: "Client", target: GeometryPoseLike, *,
                         frame: Optional[GeometryPoseLike] = None,
                         tool: Optional[GeometryPoseLike] = None,
                         degrees: Optional[bool] = None,
                         timeout: Optional[float] = None) -> ToolAndFrame:
    """ApplyToolAndFrame: a TCP ``target`` in the work-object ``frame`` (the
    base frame when None) with ``tool`` (the TCP in the flange frame; the
    flange when None) -> the TCP and the flange in the base frame.

    Raises:
        MotiondRpcError: INVALID_ARGUMENT naming ``target``, ``frame`` or ``tool``.
    """
    request = geometry_pb2.ApplyToolAndFrameRequest(target=pose_message(target, "target", degrees))
    _optional(request.frame, frame, "frame", degrees)
    _optional(request.tool, tool, "tool", degrees)
    response = client._unary("ApplyToolAndFrame", client._geometry.ApplyToolAndFrame, request,
                             timeout)
    return ToolAndFrame(Pose.from_proto(response.tcp), Pose.from_proto(response.flange))
