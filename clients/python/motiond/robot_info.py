"""What the server says about a robot's chain (motion.v1.RobotInfo).

Position and velocity limits come from the URDF; acceleration and jerk from
documented defaults (README "Joint limits": 2 x max velocity per second, and
10 x max acceleration per second) unless a request overrides them. The
``*_source`` fields say which.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import List, Tuple

import numpy as np

from motiond._stubs import robot_registry_pb2


@dataclass(frozen=True)
class JointInfo:
    """One degree of freedom of the chain, in chain order.

    Attributes:
        name: the URDF joint name.
        type: ``"REVOLUTE"``, ``"CONTINUOUS"`` or ``"PRISMATIC"``.
        lower, upper: position limits (rad or m); -inf / +inf when unbounded.
        max_velocity, max_acceleration, max_jerk: rate limits (rad or m per s^k).
        velocity_source, acceleration_source, jerk_source: where each came from.
    """

    name: str
    type: str
    lower: float
    upper: float
    bounded: bool
    max_velocity: float
    max_acceleration: float
    max_jerk: float
    velocity_source: str
    acceleration_source: str
    jerk_source: str


@dataclass(frozen=True)
class JointLimits:
    """Every joint's limits as arrays in chain order (length dof), for
    vectorised checks: ``np.all(np.abs(plan.qd) <= limits.max_velocity)``."""

    names: Tuple[str, ...]
    lower: np.ndarray
    upper: np.ndarray
    max_velocity: np.ndarray
    max_acceleration: np.ndarray
    max_jerk: np.ndarray


@dataclass(frozen=True)
class RobotInfo:
    """A robot's chain as the server built it from the URDF.

    Attributes:
        name: ``<robot name="...">``.
        robot_id: the content id.
        base_link, tip_link: the chain (the default one unless asked).
        dof: independent joints in the chain.
        joints: one :class:`JointInfo` per DOF.
        chain_rule: how the default chain was chosen, in words.
        candidate_chains: (base, tip, dof) of every chain a request may name.
        raw: the motion.v1.RobotInfo message, for everything else.
    """

    name: str
    robot_id: str
    base_link: str
    tip_link: str
    dof: int
    joints: Tuple[JointInfo, ...]
    chain_rule: str
    candidate_chains: Tuple[Tuple[str, str, int], ...]
    raw: robot_registry_pb2.RobotInfo

    @property
    def joint_names(self) -> List[str]:
        """The DOF names in chain order (the order of every joint vector)."""
        return [j.name for j in self.joints]

    @property
    def limits(self) -> JointLimits:
        """The joints' limits as arrays."""
        return JointLimits(
            names=tuple(j.name for j in self.joints),
            lower=np.array([j.lower for j in self.joints], dtype=float),
            upper=np.array([j.upper for j in self.joints], dtype=float),
            max_velocity=np.array([j.max_velocity for j in self.joints], dtype=float),
            max_acceleration=np.array([j.max_acceleration for j in self.joints], dtype=float),
            max_jerk=np.array([j.max_jerk for j in self.joints], dtype=float),
        )

    @classmethod
    def from_proto(cls, message: robot_registry_pb2.RobotInfo) -> "RobotInfo":
        """From a motion.v1.RobotInfo."""
        joints = tuple(
            JointInfo(
                name=j.name,
                type=robot_registry_pb2.JointType.Name(j.type),
                lower=j.lower,
                upper=j.upper,
                bounded=j.bounded,
                max_velocity=j.max_velocity,
                max_acceleration=j.max_acceleration,
                max_jerk=j.max_jerk,
                velocity_source=j.velocity_source,
                acceleration_source=j.acceleration_source,
                jerk_source=j.jerk_source,
            )
            for j in message.joints)
        return cls(
            name=message.name,
            robot_id=message.robot_id,
            base_link=message.base_link,
            tip_link=message.tip_link,
            dof=message.dof,
            joints=joints,
            chain_rule=message.chain_rule,
            candidate_chains=tuple((c.base_link, c.tip_link, c.dof)
                                   for c in message.candidate_chains),
            raw=message,
        )
