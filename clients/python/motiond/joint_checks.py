"""Joint vectors checked by the server: position limits and singularity
(motion.v1.Geometry CheckJointLimits and CheckSingularity).

Joint vectors are in chain order (:attr:`motiond.Robot.joint_names`), rad / m.
Values are sent as given; the server names the first bad one
(``configurations[i].values[j]``, ``joints``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator, List, Optional, Tuple

import numpy as np

from motiond._stubs import common_pb2, geometry_pb2


def configurations(qs: Any) -> List[List[float]]:
    """One joint vector (dof,) or several (m, dof) as a list of rows.

    Raises:
        ValueError: ``qs`` has more than two dimensions.
    """
    array = np.asarray(qs, dtype=float)
    if array.ndim == 1:
        array = array.reshape(1, -1)
    if array.ndim != 2:
        raise ValueError(f"qs: expected a joint vector (dof,) or an (m, dof) array, "
                         f"got shape {array.shape}")
    return array.tolist()


@dataclass(frozen=True)
class JointLimitState:
    """One joint of one configuration (motion.v1.JointLimitState).

    Attributes:
        joint: the joint's name.
        value: its position (rad or m).
        lower, upper: its limits; -inf / +inf for a continuous joint.
        inside: lower <= value <= upper.
        distance: to the nearest limit: positive inside, negative outside,
            +inf for a continuous joint.
        nearest: ``"lower"`` or ``"upper"``; ``""`` for a continuous joint.
    """

    joint: str
    value: float
    lower: float
    upper: float
    inside: bool
    distance: float
    nearest: str

    @classmethod
    def from_proto(cls, message: geometry_pb2.JointLimitState) -> "JointLimitState":
        """From a motion.v1.JointLimitState."""
        return cls(message.joint, message.value, message.lower, message.upper, message.inside,
                   message.distance_to_nearest, message.nearest)


@dataclass(frozen=True)
class JointLimitsResult:
    """One configuration: ``inside`` when every joint is, and each joint's state."""

    inside: bool
    joints: Tuple[JointLimitState, ...]

    @property
    def distances(self) -> np.ndarray:
        """(dof,) distance of each joint to its nearest limit."""
        return np.array([j.distance for j in self.joints], dtype=float)

    @property
    def outside(self) -> List[str]:
        """The names of the joints outside their limits."""
        return [j.joint for j in self.joints if not j.inside]


@dataclass(frozen=True)
class JointLimitsCheck:
    """The answer of :meth:`motiond.Robot.check_joint_limits`, in input order.

    Index it for one configuration (:class:`JointLimitsResult`), or use the
    arrays: ``inside`` (m,), ``distance`` (m, dof), ``lower`` / ``upper`` (dof,).
    """

    results: Tuple[JointLimitsResult, ...]
    raw: geometry_pb2.CheckJointLimitsResponse = field(repr=False, compare=False)

    def __len__(self) -> int:
        return len(self.results)

    def __getitem__(self, index: int) -> JointLimitsResult:
        return self.results[index]

    def __iter__(self) -> Iterator[JointLimitsResult]:
        return iter(self.results)

    @property
    def all_inside(self) -> bool:
        """Every joint of every configuration is within its limits."""
        return all(r.inside for r in self.results)

    @property
    def inside(self) -> np.ndarray:
        """(m,) booleans: each configuration within every limit."""
        return np.array([r.inside for r in self.results], dtype=bool)

    @property
    def distance(self) -> np.ndarray:
        """(m, dof) distance of each joint to its nearest limit (negative outside)."""
        return np.array([r.distances for r in self.results], dtype=float)

    @property
    def joint_names(self) -> List[str]:
        """The joints, in chain order."""
        return [j.joint for j in self.results[0].joints] if self.results else []

    @property
    def lower(self) -> np.ndarray:
        """(dof,) lower limits (-inf for continuous joints)."""
        return np.array([j.lower for j in self.results[0].joints] if self.results else [])

    @property
    def upper(self) -> np.ndarray:
        """(dof,) upper limits (+inf for continuous joints)."""
        return np.array([j.upper for j in self.results[0].joints] if self.results else [])

    @classmethod
    def from_proto(cls, message: geometry_pb2.CheckJointLimitsResponse) -> "JointLimitsCheck":
        """From a motion.v1.CheckJointLimitsResponse."""
        results = tuple(
            JointLimitsResult(r.inside, tuple(JointLimitState.from_proto(j) for j in r.joints))
            for r in message.results)
        return cls(results, message)


def joint_limits_request(robot: common_pb2.RobotRef,
                         qs: Any) -> geometry_pb2.CheckJointLimitsRequest:
    """The CheckJointLimitsRequest for one joint vector or an (m, dof) array."""
    return geometry_pb2.CheckJointLimitsRequest(
        robot=robot, configurations=[common_pb2.JointTarget(values=row)
                                     for row in configurations(qs)])


@dataclass(frozen=True)
class SingularityCheck:
    """The answer of :meth:`motiond.Robot.check_singularity`.

    Attributes:
        sigma_min: the smallest of the Jacobian's min(6, dof) singular values.
        manipulability: their product.
        condition_number: sigma_max / sigma_min (+inf when singular).
        near_singular: sigma_min < threshold.
        threshold: the threshold applied (the planner's 1e-3 unless asked).
        singular_values: all of them, largest first.
    """

    sigma_min: float
    manipulability: float
    condition_number: float
    near_singular: bool
    threshold: float
    singular_values: np.ndarray
    raw: geometry_pb2.CheckSingularityResponse = field(repr=False, compare=False)

    @classmethod
    def from_proto(cls, message: geometry_pb2.CheckSingularityResponse) -> "SingularityCheck":
        """From a motion.v1.CheckSingularityResponse."""
        return cls(message.sigma_min, message.manipulability, message.condition_number,
                   message.near_singular, message.threshold,
                   np.asarray(message.singular_values, dtype=float), message)


def singularity_request(robot: common_pb2.RobotRef, q: Any, tool: Optional[common_pb2.Pose],
                        threshold: Optional[float]) -> geometry_pb2.CheckSingularityRequest:
    """The CheckSingularityRequest; ``threshold`` None sends 0 (the server's
    default); a NaN or negative one goes as given, for the server to refuse."""
    request = geometry_pb2.CheckSingularityRequest(
        robot=robot, joints=np.asarray(q, dtype=float).reshape(-1).tolist())
    if tool is not None:
        request.tool.CopyFrom(tool)
    if threshold is not None:
        value = float(threshold)
        if value == 0.0:  # on the wire 0 means "the default", not "never singular"
            raise ValueError("threshold: 0 would mean the server's default; give None for it")
        request.threshold = value
    return request
