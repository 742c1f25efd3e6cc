"""Trajectories from elsewhere: CheckTrajectory and ResampleTrajectory.

A joint trajectory recorded on the robot, made by another planner or edited
by hand is sent as ``time`` (n,) and ``q`` (n, dof), in the order of
:attr:`motiond.Robot.joint_names`. The server audits it exactly as it audits
its own plans (positions against the joint limits; velocity, acceleration
and jerk as divided differences on the uniform grid, the arm at rest before
the first and after the last sample), or puts it on a uniform grid with the
not-a-knot cubic spline through the samples (top README "Trajectories from
elsewhere").

Values are sent as given: the server judges them and names the first bad
entry (``time[k]``, ``positions[i]`` with i = k * dof + j).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, List, NamedTuple, Tuple

import numpy as np

from motiond._stubs import common_pb2, geometry_pb2
from motiond.diagnostics import Diagnostic, diagnostics_from_proto
from motiond.errors import ProtocolError


def joint_samples(time: Any, q: Any) -> Tuple[List[float], List[float]]:
    """``time`` (n,) and ``q`` (n, dof) as the request's flat lists
    (positions row-major, as TrajectoryChunk).

    Raises:
        ValueError: ``time`` is not one-dimensional, ``q`` not two-dimensional.
    """
    times = np.asarray(time, dtype=float)
    positions = np.asarray(q, dtype=float)
    if times.ndim != 1:
        raise ValueError(f"time: expected a 1-D array of n times, got shape {times.shape}")
    if positions.ndim != 2:
        raise ValueError(f"q: expected an (n, dof) array, got shape {positions.shape}")
    return times.tolist(), positions.reshape(-1).tolist()


@dataclass(frozen=True)
class TrajectoryCheck:
    """The answer of :meth:`motiond.Robot.check_trajectory`.

    Attributes:
        ok: no error diagnostic: the trajectory can run as it is.
        diagnostics: per joint and kind, at most one: ``JOINT_LIMIT`` at the
            joint's first sample outside its limits, ``VELOCITY_LIMIT``,
            ``ACCEL_LIMIT`` and ``JERK_LIMIT`` at its worst sample; each names
            ``joint_name``, ``point_index``, ``time``, ``value`` and ``limit``.
        max_velocity_ratio, max_acceleration_ratio, max_jerk_ratio: the worst
            |rate| / limit over every joint and sample.
        cycle_time: s, last time - first time.
        sample_time: s, the grid's spacing (0 for one sample).
        raw: the CheckTrajectoryResponse.
    """

    ok: bool
    diagnostics: List[Diagnostic]
    max_velocity_ratio: float
    max_acceleration_ratio: float
    max_jerk_ratio: float
    cycle_time: float
    sample_time: float
    raw: geometry_pb2.CheckTrajectoryResponse = field(repr=False, compare=False)

    @property
    def errors(self) -> List[Diagnostic]:
        """The error diagnostics (those that make ``ok`` false)."""
        return [d for d in self.diagnostics if d.is_error]

    @classmethod
    def from_proto(cls, message: geometry_pb2.CheckTrajectoryResponse) -> "TrajectoryCheck":
        """From a motion.v1.CheckTrajectoryResponse."""
        return cls(
            ok=message.ok,
            diagnostics=diagnostics_from_proto(message.diagnostics),
            max_velocity_ratio=message.max_joint_velocity_ratio,
            max_acceleration_ratio=message.max_joint_acceleration_ratio,
            max_jerk_ratio=message.max_joint_jerk_ratio,
            cycle_time=message.cycle_time,
            sample_time=message.sample_time,
            raw=message,
        )


class ResampledTrajectory(NamedTuple):
    """The answer of :meth:`motiond.Robot.resample`: ``time`` (m,) on the
    uniform grid, and ``q``, ``qd``, ``qdd`` (m, dof) of one C2 spline, so
    the three agree. Unpacks as ``time, q, qd, qdd``."""

    time: np.ndarray
    q: np.ndarray
    qd: np.ndarray
    qdd: np.ndarray

    @classmethod
    def from_proto(cls, message: geometry_pb2.ResampleTrajectoryResponse) -> "ResampledTrajectory":
        """From a motion.v1.ResampleTrajectoryResponse.

        Raises:
            ProtocolError: the arrays do not have n x dof values each.
        """
        time = np.asarray(message.time, dtype=float)
        n = len(time)
        sizes = (len(message.positions), len(message.velocities), len(message.accelerations))
        if n == 0 or len(set(sizes)) != 1 or sizes[0] % n != 0:
            raise ProtocolError(f"ResampleTrajectory answered {n} times and "
                                f"{'/'.join(map(str, sizes))} positions/velocities/accelerations")
        dof = sizes[0] // n

        def table(values: Any) -> np.ndarray:
            return np.asarray(values, dtype=float).reshape(n, dof)

        return cls(time, table(message.positions), table(message.velocities),
                   table(message.accelerations))


def check_request(robot: common_pb2.RobotRef, time: Any,
                  q: Any) -> geometry_pb2.CheckTrajectoryRequest:
    """The CheckTrajectoryRequest for ``time`` (n,) and ``q`` (n, dof)."""
    times, positions = joint_samples(time, q)
    return geometry_pb2.CheckTrajectoryRequest(robot=robot, time=times, positions=positions)


def resample_request(robot: common_pb2.RobotRef, time: Any, q: Any,
                     sample_time: float) -> geometry_pb2.ResampleTrajectoryRequest:
    """The ResampleTrajectoryRequest for ``time`` (n,) and ``q`` (n, dof)."""
    times, positions = joint_samples(time, q)
    return geometry_pb2.ResampleTrajectoryRequest(robot=robot, time=times, positions=positions,
                                                  sample_time=float(sample_time))
