"""An inverse-kinematics answer (motion.v1.IkResult) as numpy data."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, List, Optional, Tuple

import numpy as np

from motiond._stubs import common_pb2, kinematics_pb2
from motiond.diagnostics import Diagnostic, diagnostics_from_proto
from motiond.poses import Pose


@dataclass(frozen=True)
class Configuration:
    """Which IK branch a joint vector is on (README "Robot configurations").

    Flags are +1 / -1, 0 on a boundary (singular) or for chains that have
    none; ``turns[i]`` = k with q_i = r + 2 pi k, r in (-pi, pi].
    """

    shoulder: int
    elbow: int
    wrist: int
    turns: Tuple[int, ...] = ()


def configuration_message(configuration: Optional[Configuration]
                          ) -> Optional[common_pb2.RobotConfiguration]:
    """The wire form of a requested configuration (None: any)."""
    if configuration is None:
        return None
    return common_pb2.RobotConfiguration(shoulder=configuration.shoulder,
                                         elbow=configuration.elbow, wrist=configuration.wrist,
                                         turns=list(configuration.turns))


def fill_ik_context(request: Any, *, tool: Any, frame: Any,
                    configuration: Optional[Configuration]) -> None:
    """Sets the tool, work-object frame and configuration of a
    ComputeIkRequest or CheckReachabilityRequest (None: not sent)."""
    if tool is not None:
        request.tool.CopyFrom(Pose.coerce(tool).to_proto())
    if frame is not None:
        request.frame.CopyFrom(Pose.coerce(frame).to_proto())
    wire_configuration = configuration_message(configuration)
    if wire_configuration is not None:
        request.options.configuration.CopyFrom(wire_configuration)


def _configuration(message: kinematics_pb2.IkResult) -> Optional[Configuration]:
    if not message.HasField("configuration"):
        return None
    c = message.configuration
    return Configuration(c.shoulder, c.elbow, c.wrist, tuple(c.turns))


@dataclass(frozen=True)
class IkSolution:
    """The answer of :meth:`motiond.Robot.ik`.

    Attributes:
        ok: a solution within tolerances and joint limits was found.
        joints: the solution (chain order); when not ok, the closest attempt.
        position_error: m, of ``joints``.
        orientation_error: rad, of ``joints``.
        outcome: ``"ok"``, ``"unreachable"``, ``"joint_limit"``,
            ``"max_iterations"`` or ``"timeout"``.
        method: ``"closed_form"``, ``"numeric"`` or ``"kdl"``.
        iterations: FK evaluations spent; attempts: descents started.
        configuration: the branch of ``joints`` (None if not reported).
        solutions: with mode ``"all"``, every distinct solution, closest first.
        diagnostics: why it failed, when it did.
        id: the id of the :class:`Target` it answers (reachability), else "".
        nearest_pose: when not ok, the TCP where ``joints`` put it, in the
            frame the target was given in; None when ok.
        raw: the motion.v1.IkResult message.
    """

    ok: bool
    joints: np.ndarray
    position_error: float
    orientation_error: float
    outcome: str
    method: str
    iterations: int
    attempts: int
    configuration: Optional[Configuration]
    solutions: List[np.ndarray]
    diagnostics: List[Diagnostic]
    id: str
    nearest_pose: Optional[Pose]
    raw: kinematics_pb2.IkResult

    @classmethod
    def from_proto(cls, message: kinematics_pb2.IkResult) -> "IkSolution":
        """From a motion.v1.IkResult."""
        return cls(
            ok=message.ok,
            joints=np.array(message.joints, dtype=float),
            position_error=message.position_error,
            orientation_error=message.orientation_error,
            outcome=message.outcome,
            method=message.method,
            iterations=message.iterations,
            attempts=message.attempts,
            configuration=_configuration(message),
            solutions=[np.array(s.joints, dtype=float) for s in message.solutions],
            diagnostics=diagnostics_from_proto(message.diagnostics),
            id=message.id,
            nearest_pose=(Pose.from_proto(message.nearest_pose)
                          if message.HasField("nearest_pose") else None),
            raw=message,
        )
