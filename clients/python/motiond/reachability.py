"""CheckReachability's targets: bare poses, or :class:`Target` with an id,
a seed and a configuration of their own (motion.v1.ReachabilityTarget)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, List, Optional, Sequence, Union

import numpy as np

from motiond._stubs import common_pb2, kinematics_pb2
from motiond.ik_solution import Configuration, configuration_message, fill_ik_context
from motiond.poses import Pose, PoseLike


@dataclass(frozen=True)
class Target:
    """One reachability target with what it brings beyond its pose.

    Attributes:
        pose: the TCP target (any :meth:`motiond.Pose.coerce` form), in the
            base frame or in the request's ``frame``.
        id: echoed in :attr:`motiond.IkSolution.id` (at most 256 bytes).
        seed: this target's seed; replaces the request's (and the previous
            solution with ``seed_from_previous``). None: the request's.
        configuration: this target's :class:`motiond.Configuration`;
            replaces the request's. None: the request's.
    """

    pose: PoseLike
    id: str = ""
    seed: Optional[Sequence[float]] = None
    configuration: Optional[Configuration] = None


TargetLike = Union[Target, PoseLike]


def _values(values: Any) -> List[float]:
    return [float(v) for v in np.asarray(values, dtype=float).reshape(-1)]


def reachability_request(ref: common_pb2.RobotRef, targets: Iterable[TargetLike], *,
                         seed: Optional[Sequence[float]], tool: Optional[PoseLike],
                         frame: Optional[PoseLike], configuration: Optional[Configuration],
                         seed_from_previous: bool, budget: float,
                         solver: str) -> kinematics_pb2.CheckReachabilityRequest:
    """The CheckReachabilityRequest for ``targets``: ``target_details`` when
    any of them is a :class:`Target`, else bare poses."""
    items = list(targets)
    request = kinematics_pb2.CheckReachabilityRequest(
        robot=ref, options=kinematics_pb2.IkOptions(seed_from_previous=seed_from_previous,
                                                    timeout=budget, solver=solver))
    if seed is not None:
        request.seed.extend(_values(seed))
    fill_ik_context(request, tool=tool, frame=frame, configuration=configuration)
    if any(isinstance(item, Target) for item in items):
        for item in items:
            target = item if isinstance(item, Target) else Target(pose=item)
            detail = request.target_details.add(id=target.id)
            detail.pose.CopyFrom(Pose.coerce(target.pose).to_proto())
            if target.seed is not None:
                detail.seed.extend(_values(target.seed))
            own = configuration_message(target.configuration)
            if own is not None:
                detail.configuration.CopyFrom(own)
    else:
        for item in items:
            request.targets.add().CopyFrom(Pose.coerce(item).to_proto())
    return request
