"""Rigid poses: position (m) and unit quaternion (x, y, z, w), as motion.v1.

Conventions are the API's (proto/motion/v1/common.proto): a pose X_PC is the
child frame C in the parent frame P; its rotation turns vectors of C into P,
its position is C's origin in P. Roll-pitch-yaw angles follow URDF: fixed
axes X, then Y, then Z, i.e. R = Rz(yaw) @ Ry(pitch) @ Rx(roll). They are
radians unless said otherwise (``degrees=True``; a motion.v1.Rpy carries
its unit, and one without a unit is refused, as the server refuses it).
"""
from __future__ import annotations

import math
from typing import Any, Mapping, Sequence, Tuple, Union

import numpy as np

from motiond._stubs import common_pb2

#: What :meth:`Pose.coerce` accepts: a Pose, a 4x4 homogeneous matrix, a
#: (position, rotation) pair with a quaternion (x, y, z, w), roll-pitch-yaw or
#: a 3x3 matrix, a ``{"position", "orientation"}`` mapping (the JSON form), or
#: a motion.v1.Pose message.
PoseLike = Union["Pose", np.ndarray, Sequence[Any], Mapping[str, Any], common_pb2.Pose]


def _unit_quaternion(q: Sequence[float]) -> np.ndarray:
    quaternion = np.asarray(q, dtype=float).reshape(4)
    norm = float(np.linalg.norm(quaternion))
    if not math.isfinite(norm) or norm < 1e-12:
        raise ValueError(f"quaternion {list(quaternion)} is zero or not finite")
    return quaternion / norm


def quaternion_from_matrix(rotation: np.ndarray) -> np.ndarray:
    """Unit quaternion (x, y, z, w) of a 3x3 rotation matrix.

    Shepperd's method: take the square root of the largest of the four
    diagonal combinations, so no division by a small number loses digits.
    The sign is chosen with w >= 0.
    """
    r = np.asarray(rotation, dtype=float).reshape(3, 3)
    trace = r[0, 0] + r[1, 1] + r[2, 2]
    candidates = [trace, r[0, 0], r[1, 1], r[2, 2]]
    largest = int(np.argmax(candidates))
    if largest == 0:
        s = 2.0 * math.sqrt(max(1.0 + trace, 0.0))
        q = [(r[2, 1] - r[1, 2]) / s, (r[0, 2] - r[2, 0]) / s, (r[1, 0] - r[0, 1]) / s, 0.25 * s]
    elif largest == 1:
        s = 2.0 * math.sqrt(max(1.0 + r[0, 0] - r[1, 1] - r[2, 2], 0.0))
        q = [0.25 * s, (r[0, 1] + r[1, 0]) / s, (r[0, 2] + r[2, 0]) / s, (r[2, 1] - r[1, 2]) / s]
    elif largest == 2:
        s = 2.0 * math.sqrt(max(1.0 - r[0, 0] + r[1, 1] - r[2, 2], 0.0))
        q = [(r[0, 1] + r[1, 0]) / s, 0.25 * s, (r[1, 2] + r[2, 1]) / s, (r[0, 2] - r[2, 0]) / s]
    else:
        s = 2.0 * math.sqrt(max(1.0 - r[0, 0] - r[1, 1] + r[2, 2], 0.0))
        q = [(r[0, 2] + r[2, 0]) / s, (r[1, 2] + r[2, 1]) / s, 0.25 * s, (r[1, 0] - r[0, 1]) / s]
    quaternion = _unit_quaternion(q)
    return -quaternion if quaternion[3] < 0 else quaternion


def matrix_from_quaternion(quaternion: Sequence[float]) -> np.ndarray:
    """3x3 rotation matrix of a quaternion (x, y, z, w); normalised first."""
    x, y, z, w = _unit_quaternion(quaternion)
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
    ])


def matrix_from_rpy(roll: float, pitch: float, yaw: float) -> np.ndarray:
    """URDF's rpy: R = Rz(yaw) @ Ry(pitch) @ Rx(roll)."""
    cr, sr = math.cos(roll), math.sin(roll)
    cp, sp = math.cos(pitch), math.sin(pitch)
    cy, sy = math.cos(yaw), math.sin(yaw)
    return np.array([
        [cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
        [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
        [-sp, cp * sr, cp * cr],
    ])


def rpy_from_matrix(rotation: np.ndarray) -> Tuple[float, float, float]:
    """Inverse of :func:`matrix_from_rpy`, pitch in [-pi/2, pi/2].

    At pitch = +-pi/2 only roll - yaw (or roll + yaw) is defined; yaw is
    then reported as 0.
    """
    r = np.asarray(rotation, dtype=float).reshape(3, 3)
    pitch = math.atan2(-r[2, 0], math.hypot(r[0, 0], r[1, 0]))
    if math.hypot(r[0, 0], r[1, 0]) < 1e-12:  # gimbal lock
        return math.atan2(-r[1, 2], r[1, 1]), pitch, 0.0
    return math.atan2(r[2, 1], r[2, 2]), pitch, math.atan2(r[1, 0], r[0, 0])


def _vector(values: Any, length: int, what: str) -> np.ndarray:
    if isinstance(values, Mapping):
        keys = "xyzw"[:length]
        values = [values.get(k, 0.0) for k in keys]
    array = np.asarray(values, dtype=float).reshape(-1)
    if array.shape != (length,) or not np.all(np.isfinite(array)):
        raise ValueError(f"{what}: expected {length} finite numbers, got {values!r}")
    return array


def _degrees(unit: Any, what: str) -> bool:
    """True for DEGREES, False for RADIANS (an AngleUnit value or its name);
    anything else is refused: angles are never guessed."""
    if isinstance(unit, bool):
        unit = None
    if unit in (common_pb2.DEGREES, "DEGREES"):
        return True
    if unit in (common_pb2.RADIANS, "RADIANS"):
        return False
    raise ValueError(f"{what}: say RADIANS or DEGREES, got {unit!r}; angles are never guessed")


class Pose:
    """A rigid transform: ``position`` (m) and unit ``quaternion`` (x, y, z, w).

    Immutable; compose with ``@`` (``X_AC = X_AB @ X_BC``).
    """

    __slots__ = ("_position", "_quaternion")

    def __init__(self, position: Sequence[float] = (0.0, 0.0, 0.0),
                 quaternion: Sequence[float] = (0.0, 0.0, 0.0, 1.0)) -> None:
        self._position = _vector(position, 3, "position")
        self._position.flags.writeable = False
        self._quaternion = _unit_quaternion(_vector(quaternion, 4, "quaternion"))
        self._quaternion.flags.writeable = False

    # --- construction ------------------------------------------------------
    @classmethod
    def identity(cls) -> "Pose":
        """The identity transform."""
        return cls()

    @classmethod
    def from_matrix(cls, matrix: Any) -> "Pose":
        """From a 4x4 homogeneous matrix (its rotation part must be orthonormal)."""
        m = np.asarray(matrix, dtype=float)
        if m.shape != (4, 4):
            raise ValueError(f"expected a 4x4 matrix, got shape {m.shape}")
        rotation = m[:3, :3]
        orthonormal = np.allclose(rotation @ rotation.T, np.eye(3), atol=1e-6)
        if not orthonormal or np.linalg.det(rotation) < 0:
            raise ValueError("the 4x4 matrix's rotation part is not a rotation")
        return cls(m[:3, 3], quaternion_from_matrix(rotation))

    @classmethod
    def from_rpy(cls, position: Sequence[float], rpy: Sequence[float], *,
                 degrees: bool = False) -> "Pose":
        """From a position and URDF roll-pitch-yaw (rad, or degrees with
        ``degrees=True``)."""
        if isinstance(rpy, Mapping):
            rpy = [rpy.get(name, 0.0) for name in ("roll", "pitch", "yaw")]
        roll, pitch, yaw = _vector(rpy, 3, "rpy")
        if degrees:
            roll, pitch, yaw = (math.radians(a) for a in (roll, pitch, yaw))
        return cls(position, quaternion_from_matrix(matrix_from_rpy(roll, pitch, yaw)))

    @classmethod
    def from_proto(cls, message: common_pb2.Pose) -> "Pose":
        """From a motion.v1.Pose: its quaternion, or its ``rpy`` in the unit
        it names; an unset orientation is the identity.

        Raises:
            ValueError: both a quaternion and rpy, or rpy without a unit.
        """
        p = message.position
        if message.HasField("rpy"):
            if message.HasField("orientation"):
                raise ValueError("pose: give the orientation as a quaternion or as rpy, not both")
            rpy = message.rpy
            return cls.from_rpy((p.x, p.y, p.z), (rpy.roll, rpy.pitch, rpy.yaw),
                                degrees=_degrees(rpy.unit, "rpy.unit"))
        o = message.orientation
        quaternion = (o.x, o.y, o.z, o.w) if message.HasField("orientation") else (0, 0, 0, 1)
        return cls((p.x, p.y, p.z), quaternion)

    @classmethod
    def coerce(cls, value: PoseLike) -> "Pose":
        """Turns any :data:`PoseLike` into a Pose (see there for the forms).

        In a (position, rotation) pair, 4 numbers are a quaternion
        (x, y, z, w), 3 numbers roll-pitch-yaw, a 3x3 array a rotation matrix.
        """
        if isinstance(value, Pose):
            return value
        if isinstance(value, common_pb2.Pose):
            return cls.from_proto(value)
        if isinstance(value, Mapping):
            rotation = value.get("orientation", value.get("quaternion"))
            if rotation is None and "rpy" in value:
                rpy = value["rpy"]
                # The JSON form of motion.v1.Rpy names its unit; a list is rad.
                degrees = _degrees(rpy.get("unit"), "rpy.unit") if isinstance(rpy, Mapping) \
                    else False
                return cls.from_rpy(value.get("position", (0, 0, 0)), rpy, degrees=degrees)
            return cls(value.get("position", (0, 0, 0)),
                       (0, 0, 0, 1) if rotation is None else rotation)
        if isinstance(value, np.ndarray):
            return cls.from_matrix(value)
        if isinstance(value, Sequence) and len(value) == 4:
            return cls.from_matrix(np.asarray(value, dtype=float))
        if isinstance(value, Sequence) and len(value) == 2:
            position, rotation = value
            rotation_array = np.asarray(rotation, dtype=float)
            if rotation_array.shape == (4,):
                return cls(position, rotation_array)
            if rotation_array.shape == (3,):
                return cls.from_rpy(position, rotation_array)
            if rotation_array.shape == (3, 3):
                return cls(position, quaternion_from_matrix(rotation_array))
        raise ValueError(
            f"not a pose: {value!r} (give a Pose, a 4x4 matrix, (position, quaternion xyzw), "
            "(position, rpy), or {'position': ..., 'orientation': ...})")

    # --- views ---------------------------------------------------------------
    @property
    def position(self) -> np.ndarray:
        """Origin (x, y, z) in m, read-only array."""
        return self._position

    @property
    def quaternion(self) -> np.ndarray:
        """Unit quaternion (x, y, z, w), read-only array."""
        return self._quaternion

    @property
    def rotation(self) -> np.ndarray:
        """3x3 rotation matrix."""
        return matrix_from_quaternion(self._quaternion)

    @property
    def matrix(self) -> np.ndarray:
        """4x4 homogeneous matrix."""
        m = np.eye(4)
        m[:3, :3] = self.rotation
        m[:3, 3] = self._position
        return m

    @property
    def rpy(self) -> Tuple[float, float, float]:
        """URDF roll, pitch, yaw (rad)."""
        return rpy_from_matrix(self.rotation)

    def to_proto(self) -> common_pb2.Pose:
        """As a motion.v1.Pose."""
        x, y, z = (float(v) for v in self._position)
        qx, qy, qz, qw = (float(v) for v in self._quaternion)
        return common_pb2.Pose(position=common_pb2.Vector3(x=x, y=y, z=z),
                               orientation=common_pb2.Quaternion(x=qx, y=qy, z=qz, w=qw))

    def as_array(self) -> np.ndarray:
        """(x, y, z, qx, qy, qz, qw), the row layout of :attr:`motiond.Plan.tcp`."""
        return np.concatenate([self._position, self._quaternion])

    # --- algebra -------------------------------------------------------------
    def __matmul__(self, other: "Pose") -> "Pose":
        if not isinstance(other, Pose):
            return NotImplemented
        return Pose.from_matrix(self.matrix @ other.matrix)

    def inverse(self) -> "Pose":
        """The inverse transform (X_CP for X_PC)."""
        rotation_t = self.rotation.T
        x, y, z, w = self._quaternion
        return Pose(-rotation_t @ self._position, (-x, -y, -z, w))

    def distance_to(self, other: PoseLike) -> Tuple[float, float]:
        """(position error in m, rotation angle in rad) from this pose to ``other``.

        The angle is that of the relative rotation, in [0, pi]; q and -q are
        the same rotation and give 0.
        """
        target = Pose.coerce(other)
        position_error = float(np.linalg.norm(target.position - self._position))
        # The angle of q_self^-1 * q_other from its vector and scalar parts:
        # atan2 keeps full precision for tiny angles, where acos(w) does not.
        x1, y1, z1, w1 = self._quaternion
        x2, y2, z2, w2 = target.quaternion
        w = w1 * w2 + x1 * x2 + y1 * y2 + z1 * z2
        v = np.array([w1 * x2 - x1 * w2 - y1 * z2 + z1 * y2,
                      w1 * y2 - y1 * w2 - z1 * x2 + x1 * z2,
                      w1 * z2 - z1 * w2 - x1 * y2 + y1 * x2])
        return position_error, 2.0 * math.atan2(float(np.linalg.norm(v)), abs(w))

    def __repr__(self) -> str:
        p = ", ".join(f"{v:.6f}" for v in self._position)
        q = ", ".join(f"{v:.6f}" for v in self._quaternion)
        return f"Pose(position=({p}), quaternion=({q}))"
