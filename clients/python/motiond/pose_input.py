"""Poses for the Geometry service, sent as the caller gave them.

The Geometry service exists so that no client re-implements (and disagrees
with) motiond's pose conventions. Its wrappers (:mod:`motiond.geometry`)
therefore send the numbers they are given and let the server judge them: a
quaternion is not normalised here, a NaN is not caught here, and roll /
pitch / yaw go with the unit the caller named, or with none, which the
server refuses (INVALID_ARGUMENT naming ``<field>.rpy.unit``: angles are
never guessed). Refusals name the field (``poses[1].orientation``).

What a pose argument may be (:data:`GeometryPoseLike`):

- a :class:`motiond.Pose` (already a unit quaternion);
- a :class:`PoseInput` from :func:`pose_input` (position with a quaternion,
  or with rpy and ``degrees=True/False``), sent exactly as given;
- a ``motion.v1.Pose`` message, sent as it is;
- a 4x4 homogeneous matrix: :func:`motiond.geometry.convert_pose` sends it
  as a ``Matrix4`` for the server to judge; the others turn it into a
  quaternion here (:meth:`motiond.Pose.from_matrix`, ValueError unless
  rigid), because a motion.v1.Pose has no matrix form;
- a ``(position, quaternion)`` pair (4 numbers, sent as given) or a
  ``(position, rpy)`` pair (3 numbers, in the unit the call's ``degrees``
  names; without it the server refuses the pair);
- a ``(position, 3x3 rotation)`` pair or the JSON mapping, read as
  :meth:`motiond.Pose.coerce` reads them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from motiond._stubs import common_pb2, geometry_pb2
from motiond.poses import Pose

#: A pose argument of the :mod:`motiond.geometry` functions (see the module).
GeometryPoseLike = Union[Pose, "PoseInput", common_pb2.Pose, np.ndarray, Sequence[Any],
                         Mapping[str, Any]]


def _numbers(values: Any, length: int, what: str) -> Tuple[float, ...]:
    """``length`` numbers as floats; NaN and inf pass (the server judges them)."""
    array = np.asarray(values, dtype=float).reshape(-1)
    if array.shape != (length,):
        raise ValueError(f"{what}: expected {length} numbers, got {values!r}")
    return tuple(float(v) for v in array)


def _unit(degrees: Optional[bool]) -> int:
    if degrees is None:
        return common_pb2.ANGLE_UNIT_UNSPECIFIED
    return common_pb2.DEGREES if degrees else common_pb2.RADIANS


@dataclass(frozen=True)
class PoseInput:
    """A pose exactly as the caller gave it: a position (m) with a
    quaternion (x, y, z, w), or with roll / pitch / yaw (URDF's fixed axes
    X, Y, Z) in the unit ``degrees`` names (None: unnamed, which the server
    refuses). Neither rotation: the identity. Made by :func:`pose_input`."""

    position: Tuple[float, ...]
    quaternion: Optional[Tuple[float, ...]] = None
    rpy: Optional[Tuple[float, ...]] = None
    degrees: Optional[bool] = None

    def to_proto(self) -> common_pb2.Pose:
        """The motion.v1.Pose sent: these numbers, unnormalised."""
        x, y, z = self.position
        message = common_pb2.Pose(position=common_pb2.Vector3(x=x, y=y, z=z))
        if self.rpy is not None:
            roll, pitch, yaw = self.rpy
            message.rpy.CopyFrom(common_pb2.Rpy(roll=roll, pitch=pitch, yaw=yaw,
                                                unit=_unit(self.degrees)))
        if self.quaternion is not None or self.rpy is None:
            qx, qy, qz, qw = self.quaternion if self.quaternion is not None else (0, 0, 0, 1)
            message.orientation.CopyFrom(common_pb2.Quaternion(x=qx, y=qy, z=qz, w=qw))
        return message


def pose_input(position: Sequence[float] = (0.0, 0.0, 0.0),
               quaternion: Optional[Sequence[float]] = None,
               rpy: Optional[Sequence[float]] = None, *,
               degrees: Optional[bool] = None) -> PoseInput:
    """A pose to send as given: ``position`` with ``quaternion`` (x, y, z, w)
    or with ``rpy`` in degrees (``degrees=True``) or radians (``False``).

    Giving both rotations, a zero or non-finite quaternion, or rpy without
    ``degrees`` is not caught here: the server refuses it with
    INVALID_ARGUMENT and the field.

    Raises:
        ValueError: a wrong count of numbers, or ``degrees`` without ``rpy``.
    """
    if degrees is not None and rpy is None:
        raise ValueError("degrees: names the unit of rpy, and no rpy was given")
    return PoseInput(
        position=_numbers(position, 3, "position"),
        quaternion=None if quaternion is None else _numbers(quaternion, 4, "quaternion"),
        rpy=None if rpy is None else _numbers(rpy, 3, "rpy"),
        degrees=None if degrees is None else bool(degrees))


def as_matrix(value: Any) -> Optional[np.ndarray]:
    """``value`` as a 4x4 float array if it is one (an array or nested
    sequences), else None."""
    if isinstance(value, (Pose, PoseInput, common_pb2.Pose, Mapping, str, bytes)):
        return None
    try:
        array = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        return None
    return array if array.shape == (4, 4) else None


def matrix_message(matrix: np.ndarray) -> geometry_pb2.Matrix4:
    """A 4x4 array as a row-major motion.v1.Matrix4, unjudged."""
    return geometry_pb2.Matrix4(values=[float(v) for v in np.asarray(matrix).reshape(16)])


def pose_message(value: GeometryPoseLike, what: str,
                 degrees: Optional[bool] = None) -> common_pb2.Pose:
    """The motion.v1.Pose to send for a pose argument (see the module).

    Args:
        value: the argument.
        what: its field name, for the messages of local errors.
        degrees: the unit of a ``(position, rpy)`` pair's angles; None
            sends them without a unit (the server refuses them).

    Raises:
        ValueError: ``value`` is no pose form, or a 4x4 matrix that is not
            rigid (the message starts with ``what``).
    """
    try:
        return _pose_message(value, degrees)
    except ValueError as error:
        raise ValueError(f"{what}: {error}") from None


def _pose_message(value: GeometryPoseLike, degrees: Optional[bool]) -> common_pb2.Pose:
    if isinstance(value, PoseInput):
        return value.to_proto()
    if isinstance(value, Pose):
        return value.to_proto()
    if isinstance(value, common_pb2.Pose):
        message = common_pb2.Pose()
        message.CopyFrom(value)
        return message
    matrix = as_matrix(value)
    if matrix is None and not isinstance(value, Mapping) \
            and isinstance(value, Sequence) and len(value) == 2:
        position, rotation = value
        try:
            shape = np.asarray(rotation, dtype=float).shape
        except (TypeError, ValueError):
            shape = ()
        if shape == (4,):
            return pose_input(position, quaternion=rotation).to_proto()
        if shape == (3,):
            return pose_input(position, rpy=rotation, degrees=degrees).to_proto()
    return (Pose.from_matrix(matrix) if matrix is not None else Pose.coerce(value)).to_proto()
