"""ComputeProfile: one path parameter's profile exactly as the planner times
a segment or a MoveJ joint (motion.v1.Geometry.ComputeProfile)::

    p = motiond.compute_profile(client, length=1.2, max_velocity=3.1,
                                max_acceleration=10, max_jerk=80, sample_time=0.004)
    p.duration, p.peak_velocity, [ph.name for ph in p.phases]
    p.time, p.s, p.sd, p.sdd, p.jerk          # numpy arrays (empty without sample_time)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, List, Optional

import numpy as np

from motiond._stubs import geometry_pb2, motion_planner_pb2

if TYPE_CHECKING:
    from motiond.client import Client

_PROFILES = {"jerk_limited": motion_planner_pb2.PlanPathRequest.JERK_LIMITED,
             "trapezoid": motion_planner_pb2.PlanPathRequest.TRAPEZOID}


@dataclass(frozen=True)
class ProfilePhase:
    """A phase of constant jerk (jerk-limited: accel_ramp_up, accel_hold,
    accel_ramp_down, cruise, decel_ramp_up, decel_hold, decel_ramp_down) or
    constant acceleration (trapezoid: accelerate, cruise, decelerate); those
    of zero duration are listed too."""

    name: str
    start_time: float
    duration: float
    start_position: float
    start_velocity: float
    acceleration: float  #: at the start (the phase's constant for the trapezoid)
    jerk: float          #: over the phase (0 for the trapezoid)


@dataclass(frozen=True)
class Profile:
    """The answer of :func:`compute_profile`.

    Attributes:
        duration: s. stretch: played duration / the profile's own (>= 1).
        peak_velocity, peak_acceleration, peak_deceleration, peak_jerk: the
            extremes (all >= 0; peak_jerk 0 for the trapezoid).
        phases: the :class:`ProfilePhase` list, in order.
        time, s, sd, sdd, jerk: the samples (empty without ``sample_time``).
        raw: the ComputeProfileResponse.
    """

    duration: float
    stretch: float
    peak_velocity: float
    peak_acceleration: float
    peak_deceleration: float
    peak_jerk: float
    phases: List[ProfilePhase]
    time: np.ndarray
    s: np.ndarray
    sd: np.ndarray
    sdd: np.ndarray
    jerk: np.ndarray
    raw: geometry_pb2.ComputeProfileResponse

    @classmethod
    def from_proto(cls, m: geometry_pb2.ComputeProfileResponse) -> "Profile":
        """From a motion.v1.ComputeProfileResponse."""
        return cls(
            duration=m.duration, stretch=m.stretch, peak_velocity=m.peak_velocity,
            peak_acceleration=m.peak_acceleration, peak_deceleration=m.peak_deceleration,
            peak_jerk=m.peak_jerk,
            phases=[ProfilePhase(p.name, p.start_time, p.duration, p.start_position,
                                 p.start_velocity, p.acceleration, p.jerk) for p in m.phases],
            time=np.array(m.time, dtype=float), s=np.array(m.position, dtype=float),
            sd=np.array(m.velocity, dtype=float), sdd=np.array(m.acceleration, dtype=float),
            jerk=np.array(m.jerk, dtype=float), raw=m)


def compute_profile(client: "Client", length: float, max_velocity: float,
                    max_acceleration: float, max_jerk: float = 0.0, *,
                    profile: str = "jerk_limited", start_velocity: float = 0.0,
                    end_velocity: float = 0.0, duration: float = 0.0, sample_time: float = 0.0,
                    on_grid: bool = False, timeout: Optional[float] = None) -> Profile:
    """ComputeProfile: s from 0 to ``length`` within the limits, fastest.

    Args:
        length: >= 0, in any unit the limits share (m, rad, 1).
        max_velocity, max_acceleration: > 0; max_jerk > 0 for
            ``profile="jerk_limited"`` (ignored by ``"trapezoid"``).
        start_velocity, end_velocity: in [0, max_velocity].
        duration: > 0 for a rest-to-rest profile lasting exactly this long,
            as MoveJ plays every joint but the slowest.
        sample_time: > 0 for samples on that grid; ``on_grid`` stretches
            the profile to end on it, as the planner ends every segment.

    Raises:
        ValueError: an unknown ``profile`` name.
        MotiondRpcError: INVALID_ARGUMENT naming the field at fault.
    """
    if profile not in _PROFILES:
        raise ValueError(f"compute_profile: profile must be one of {sorted(_PROFILES)}, "
                         f"got {profile!r}")
    request = geometry_pb2.ComputeProfileRequest(
        profile=_PROFILES[profile], length=length, max_velocity=max_velocity,
        max_acceleration=max_acceleration, max_jerk=max_jerk, start_velocity=start_velocity,
        end_velocity=end_velocity, duration=duration, sample_time=sample_time, on_grid=on_grid)
    return Profile.from_proto(
        client._unary("ComputeProfile", client._geometry.ComputeProfile, request, timeout))
