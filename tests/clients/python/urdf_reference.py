"""An independent reading of a URDF: the truth the client tests compare with.

Written from the URDF specification alone (xml.etree, numpy), sharing no
code with motiond or with the client: joint origin = translation(xyz) @
Rz(yaw) @ Ry(pitch) @ Rx(roll) (URDF's fixed-axis rpy), then the joint's
motion about / along its normalised axis (default x). Limits are read from
<limit>; acceleration and jerk limits are not in URDF. README "Joint limits"
documents the rule: where every moving link has an <inertial> and every joint
an effort, a joint's acceleration is what its effort leaves after gravity over
its inertia in the worst pose, at most 10 x max velocity per second
(effort_accelerations computes that here by random poses, so it agrees with
the server's to a few per cent); elsewhere 2 x max velocity per second. Max
jerk = 10 x max acceleration per second.
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
    effort: float
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
                effort=float(limit.get("effort", 0)) if limit is not None else 0.0,
                mimic=mimic.get("joint") if mimic is not None else None,
            )
            self.joints_by_child[joint.child] = joint
        self._effort_accelerations: Dict[tuple, Optional[np.ndarray]] = {}
        # <inertial> per link: mass, centre of mass and inertia (about it) in the link frame.
        self.inertials: Dict[str, tuple] = {}
        for element in root.findall("link"):
            inertial = element.find("inertial")
            if inertial is None:
                continue
            origin = inertial.find("origin")
            xyz = _floats(origin.get("xyz") if origin is not None else None, (0, 0, 0))
            rpy = _floats(origin.get("rpy") if origin is not None else None, (0, 0, 0))
            i = inertial.find("inertia")
            value = {k: float(i.get(k, 0)) for k in ("ixx", "iyy", "izz", "ixy", "ixz", "iyz")}
            tensor = np.array([[value["ixx"], value["ixy"], value["ixz"]],
                               [value["ixy"], value["iyy"], value["iyz"]],
                               [value["ixz"], value["iyz"], value["izz"]]])
            rotation = _rpy_matrix(*rpy)
            self.inertials[element.get("name")] = (
                float(inertial.find("mass").get("value")), xyz, rotation @ tensor @ rotation.T)

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

    def effort_accelerations(self, base: str, tip: str, poses: int = 1000,
                             seed: int = 26) -> Optional[np.ndarray]:
        """Per DOF, min over random poses of (effort - |g_i(q)|) / M_ii(q), gravity 9.81 along
        base -z, from the links of the chain (each link's own inertial; the chains these tests
        use have no side branches with mass); None when a moving link has no inertial or a
        joint no effort. g_i and M_ii by brute force: the torque of every link beyond joint i
        about its axis, and each link's inertia about that axis (parallel-axis theorem)."""
        key = (base, tip, poses, seed)
        if key not in self._effort_accelerations:
            self._effort_accelerations[key] = self._worst_pose_accelerations(base, tip, poses, seed)
        return self._effort_accelerations[key]

    def _worst_pose_accelerations(self, base: str, tip: str, poses: int,
                                  seed: int) -> Optional[np.ndarray]:
        chain = self.chain(base, tip)
        dofs = [j for j in chain if j.is_dof]
        moving = [j.child for j in chain[chain.index(dofs[0]):]]
        masses = [self.inertials.get(link, (0.0,))[0] for link in moving]
        if any(j.effort <= 0 for j in dofs) or masses[0] <= 0:
            return None
        gravity = np.array([0.0, 0.0, -9.81])
        rng = np.random.default_rng(seed)
        worst = np.full(len(dofs), np.inf)
        for _ in range(poses):
            q = self.random_joints(base, tip, rng, margin=0.0)
            values = iter(q)
            transform = np.eye(4)
            axes = []    # (world axis, world origin) of each DOF
            bodies = []  # (mass, world centre of mass, world inertia about it, DOFs before it)
            for joint in chain:
                transform = transform @ joint.origin
                if joint.is_dof:
                    axes.append((transform[:3, :3] @ joint.axis, transform[:3, 3].copy()))
                    transform = transform @ joint.motion(next(values))
                if joint.child in self.inertials and axes:
                    mass, com, tensor = self.inertials[joint.child]
                    r = transform[:3, :3]
                    bodies.append((mass, transform[:3, :3] @ com + transform[:3, 3],
                                   r @ tensor @ r.T, len(axes)))
            for i, (axis, origin) in enumerate(axes):
                torque = inertia = 0.0
                for mass, com, tensor, after in bodies:
                    if after <= i:
                        continue  # not moved by DOF i
                    lever = com - origin
                    torque += axis @ np.cross(lever, mass * gravity)
                    inertia += axis @ tensor @ axis + mass * np.linalg.norm(np.cross(axis, lever)) ** 2
                worst[i] = min(worst[i], (dofs[i].effort - abs(torque)) / inertia)
        return worst

    def acceleration_limits(self, base: str, tip: str) -> np.ndarray:
        """README "Joint limits" (effort-derived ones to the few per cent of a random search)."""
        velocity = self.velocity_limits(base, tip)
        from_effort = self.effort_accelerations(base, tip)
        if from_effort is None or np.any(from_effort <= 0):
            return 2.0 * velocity
        return np.minimum(from_effort, 10.0 * velocity)

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
