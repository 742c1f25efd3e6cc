"""An independent reading of a URDF: the truth the client tests compare with.

Written from the URDF specification alone (xml.etree, numpy), sharing no
code with motiond or with the client: joint origin = translation(xyz) @
Rz(yaw) @ Ry(pitch) @ Rx(roll) (URDF's fixed-axis rpy), then the joint's
motion about / along its normalised axis (default x). Limits are read from
<limit>; acceleration and jerk limits are not in URDF, so they follow the
rule README "Joint limits" documents: max acceleration = 2 x max velocity
per second, max jerk = 10 x max acceleration per second.
"""
from __future__ import annotations

import math
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Sequence

import numpy as np


def _floats(text: Optional[str], default: Sequence[float]) -> np.ndarray:
    return np.array([float(v) for v in text.split()]) if text else np.array(default, dtype=float)


def _rpy_matrix(roll: float, pitch: float, yaw: float) -> np.ndarray:
    def rx(a: float) -> np.ndarray:
        return np.array([[1, 0, 0], [0, math.cos(a), -math.sin(a)], [0, math.sin(a), math.cos(a)]])

    def ry(a: float) -> np.ndarray:
        return np.array([[math.cos(a), 0, math.sin(a)], [0, 1, 0], [-math.sin(a), 0, math.cos(a)]])

    def rz(a: float) -> np.ndarray:
        return np.array([[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0], [0, 0, 1]])

    return rz(yaw) @ ry(pitch) @ rx(roll)


def _axis_angle(axis: np.ndarray, angle: float) -> np.ndarray:
    """Rodrigues' formula."""
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.eye(3) + math.sin(angle) * k + (1 - math.cos(angle)) * (k @ k)


@dataclass
class UrdfJoint:
    name: str
    type: str
    parent: str
    child: str
    origin: np.ndarray  # 4x4
    axis: np.ndarray    # unit
    lower: float
    upper: float
    velocity: float
    mimic: Optional[str]

    @property
    def is_dof(self) -> bool:
        return self.type in ("revolute", "continuous", "prismatic") and self.mimic is None

    def motion(self, value: float) -> np.ndarray:
        m = np.eye(4)
        if self.type in ("revolute", "continuous"):
            m[:3, :3] = _axis_angle(self.axis, value)
        elif self.type == "prismatic":
            m[:3, 3] = self.axis * value
        return m


class UrdfModel:
    """Joints of a URDF file, a chain between two links, and its FK."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        root = ElementTree.parse(self.path).getroot()
        self.name = root.get("name", "")
        self.joints_by_child: Dict[str, UrdfJoint] = {}
        for element in root.findall("joint"):
            origin = element.find("origin")
            xyz = _floats(origin.get("xyz") if origin is not None else None, (0, 0, 0))
            rpy = _floats(origin.get("rpy") if origin is not None else None, (0, 0, 0))
            transform = np.eye(4)
            transform[:3, :3] = _rpy_matrix(*rpy)
            transform[:3, 3] = xyz
            axis_element = element.find("axis")
            axis = _floats(axis_element.get("xyz") if axis_element is not None else None, (1, 0, 0))
            norm = np.linalg.norm(axis)
            axis = axis / norm if norm > 0 else np.array([1.0, 0.0, 0.0])
            limit = element.find("limit")
            kind = element.get("type")
            unbounded = kind == "continuous" or limit is None
            mimic = element.find("mimic")
            joint = UrdfJoint(
                name=element.get("name"),
                type=kind,
                parent=element.find("parent").get("link"),
                child=element.find("child").get("link"),
                origin=transform,
                axis=axis,
                lower=-math.inf if unbounded else float(limit.get("lower", 0)),
                upper=math.inf if unbounded else float(limit.get("upper", 0)),
                velocity=float(limit.get("velocity", 0)) if limit is not None else 0.0,
                mimic=mimic.get("joint") if mimic is not None else None,
            )
            self.joints_by_child[joint.child] = joint

    def chain(self, base: str, tip: str) -> List[UrdfJoint]:
        """Joints from ``base`` to ``tip``, base first."""
        joints = []
        link = tip
        while link != base:
            if link not in self.joints_by_child:
                raise ValueError(f"{tip} is not below {base} in {self.path.name}")
            joint = self.joints_by_child[link]
            joints.append(joint)
            link = joint.parent
        return joints[::-1]

    def dofs(self, base: str, tip: str) -> List[UrdfJoint]:
        """The chain's independent joints, in chain order."""
        return [j for j in self.chain(base, tip) if j.is_dof]

    def fk(self, base: str, tip: str, q: Sequence[float]) -> np.ndarray:
        """4x4 pose of ``tip`` in ``base`` for the chain's DOF values ``q``."""
        values = iter(np.asarray(q, dtype=float))
        transform = np.eye(4)
        for joint in self.chain(base, tip):
            transform = transform @ joint.origin
            if joint.is_dof:
                transform = transform @ joint.motion(next(values))
            elif joint.mimic is not None:
                raise NotImplementedError("mimic joints inside the chain")
        return transform

    def velocity_limits(self, base: str, tip: str) -> np.ndarray:
        return np.array([j.velocity for j in self.dofs(base, tip)])

    def acceleration_limits(self, base: str, tip: str) -> np.ndarray:
        return 2.0 * self.velocity_limits(base, tip)

    def jerk_limits(self, base: str, tip: str) -> np.ndarray:
        return 10.0 * self.acceleration_limits(base, tip)

    def position_limits(self, base: str, tip: str) -> np.ndarray:
        """(dof, 2): lower, upper."""
        return np.array([(j.lower, j.upper) for j in self.dofs(base, tip)])

    def random_joints(self, base: str, tip: str, rng: np.random.Generator,
                      margin: float = 0.05) -> np.ndarray:
        """Uniform within the limits (shrunk by ``margin`` of the range;
        unbounded joints in [-pi, pi])."""
        lows, highs = [], []
        for lower, upper in self.position_limits(base, tip):
            if not math.isfinite(lower) or not math.isfinite(upper):
                lower, upper = -math.pi, math.pi
            span = upper - lower
            lows.append(lower + margin * span)
            highs.append(upper - margin * span)
        return rng.uniform(lows, highs)


def rotation_angle(r_a: np.ndarray, r_b: np.ndarray) -> float:
    """Angle (rad) of the rotation between two 3x3 rotation matrices."""
    cos = (np.trace(r_a.T @ r_b) - 1.0) / 2.0
    sin = np.linalg.norm([r_a.T @ r_b - (r_a.T @ r_b).T]) / (2.0 * math.sqrt(2.0))
    return math.atan2(sin, cos)
