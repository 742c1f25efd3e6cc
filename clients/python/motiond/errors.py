"""Exceptions of the motiond client, and the reading of gRPC error details.

motiond reports a refused call with a gRPC status and, in the
``grpc-status-details-bin`` trailer, a serialized ``google.rpc.Status`` whose
details hold a ``google.rpc.ErrorInfo`` (a machine-readable reason such as
``ROBOT_NOT_REGISTERED``), a ``google.rpc.BadRequest`` (the field at fault)
or a ``google.rpc.RetryInfo`` (when to try again). :class:`MotiondRpcError`
carries all of it, so callers never parse messages.

A motion that cannot be done is not an RPC error (README "API in one
page"): it comes back as data with ``ok = False`` and diagnostics.
:class:`IkFailed` is raised only because an IK answer without a solution
has no joints a caller could use by mistake.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Dict, List, Optional, Tuple

import grpc

from motiond._stubs import error_details_pb2, status_pb2

if TYPE_CHECKING:
    from motiond.ik_solution import IkSolution

#: google.rpc.ErrorInfo.domain of every error motiond reports.
ERROR_DOMAIN = "motion.v1"
#: ErrorInfo.reason: the server does not hold this robot_id; re-send with the URDF.
ROBOT_NOT_REGISTERED = "ROBOT_NOT_REGISTERED"
#: ErrorInfo.reason: the server does not hold this scene_id; re-send the scene.
SCENE_NOT_REGISTERED = "SCENE_NOT_REGISTERED"

_STATUS_DETAILS_KEY = "grpc-status-details-bin"
# Messages of INVALID_ARGUMENT start with the field path ("joints: expected
# 6 values ..."), the same field BadRequest names; the prefix is the
# fallback when a server sends no BadRequest.
_FIELD_NAME = r"[A-Za-z_][A-Za-z0-9_]*(?:\[\d+\])?"  # "segments[1]"
_FIELD_PREFIX = re.compile(rf"^({_FIELD_NAME}(?:\.{_FIELD_NAME})*): ")


class MotiondError(Exception):
    """Base class of every exception this package raises."""


@dataclass(frozen=True)
class ErrorDetails:
    """The parts of a ``google.rpc.Status`` motiond fills in.

    Attributes:
        reason: ``ErrorInfo.reason`` in domain ``motion.v1`` (e.g.
            ``"ROBOT_NOT_REGISTERED"``), or None.
        metadata: ``ErrorInfo.metadata`` (e.g. ``{"robot_id": ...}``).
        field_violations: ``BadRequest`` entries as (field, description).
        retry_delay: ``RetryInfo.retry_delay`` in seconds, or None.
    """

    reason: Optional[str] = None
    metadata: Dict[str, str] = field(default_factory=dict)
    field_violations: List[Tuple[str, str]] = field(default_factory=list)
    retry_delay: Optional[float] = None


def error_details(error: grpc.RpcError) -> ErrorDetails:
    """Reads the ``grpc-status-details-bin`` trailer of a failed call.

    Missing or unparsable details give an empty :class:`ErrorDetails`: the
    status code and message are still there.
    """
    trailers = error.trailing_metadata() if hasattr(error, "trailing_metadata") else None
    blob = next((value for key, value in (trailers or ()) if key == _STATUS_DETAILS_KEY), None)
    if not blob:
        return ErrorDetails()
    status = status_pb2.Status()
    try:
        status.ParseFromString(blob)
    except Exception:  # a corrupt trailer must not hide the status itself
        return ErrorDetails()
    reason: Optional[str] = None
    metadata: Dict[str, str] = {}
    violations: List[Tuple[str, str]] = []
    retry_delay: Optional[float] = None
    for detail in status.details:
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            if info.domain == ERROR_DOMAIN:
                reason = info.reason
                metadata = dict(info.metadata)
        elif detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad = error_details_pb2.BadRequest()
            detail.Unpack(bad)
            violations.extend((v.field, v.description) for v in bad.field_violations)
        elif detail.Is(error_details_pb2.RetryInfo.DESCRIPTOR):
            retry = error_details_pb2.RetryInfo()
            detail.Unpack(retry)
            retry_delay = retry.retry_delay.ToTimedelta().total_seconds()
    return ErrorDetails(reason, metadata, violations, retry_delay)


def is_not_registered(error: grpc.RpcError, reason: str) -> bool:
    """True for NOT_FOUND with ``ErrorInfo{reason, domain: "motion.v1"}``."""
    return error.code() == grpc.StatusCode.NOT_FOUND and error_details(error).reason == reason


class MotiondRpcError(MotiondError):
    """A motiond call ended with a non-OK gRPC status.

    Attributes:
        method: the RPC, e.g. ``"ComputeFk"``.
        code: the ``grpc.StatusCode``.
        message: the server's message (for INVALID_ARGUMENT it starts with
            the field path).
        field: the field at fault (``BadRequest``'s first violation, else the
            message's ``field: `` prefix), or None.
        details: everything the status details said (:class:`ErrorDetails`).
    """

    def __init__(self, method: str, code: grpc.StatusCode, message: str,
                 details: Optional[ErrorDetails] = None) -> None:
        self.method = method
        self.code = code
        self.message = message
        self.details = details or ErrorDetails()
        if self.details.field_violations:
            self.field: Optional[str] = self.details.field_violations[0][0]
        else:
            match = _FIELD_PREFIX.match(message)
            self.field = match.group(1) if match else None
        text = f"{method} failed: {code.name}: {message}"
        if self.field and not message.startswith(self.field + ":"):
            text += f" (field {self.field})"
        super().__init__(text)

    @property
    def reason(self) -> Optional[str]:
        """``ErrorInfo.reason`` (e.g. ``"ROBOT_NOT_REGISTERED"``), or None."""
        return self.details.reason

    @classmethod
    def from_grpc(cls, method: str, error: grpc.RpcError) -> "MotiondRpcError":
        """Wraps a ``grpc.RpcError`` raised by a stub call."""
        return cls(method, error.code(), error.details() or "", error_details(error))


class IkFailed(MotiondError):
    """IK found no solution (``IkResult.ok`` was false).

    Attributes:
        solution: the whole answer (outcome, errors, diagnostics, and the
            joints of the closest attempt, which do not reach the target).
    """

    def __init__(self, solution: "IkSolution") -> None:
        self.solution = solution
        why = "; ".join(d.message for d in solution.diagnostics) or "no diagnostic"
        super().__init__(
            f"IK failed ({solution.outcome}): position error {solution.position_error:.3g} m, "
            f"orientation error {solution.orientation_error:.3g} rad: {why}")


class ProgramError(MotiondError, ValueError):
    """A motion program (dict, file or request) could not be read or does not
    fit the robot it is planned for."""


class ProtocolError(MotiondError):
    """The server's answer stream is inconsistent (e.g. trajectory chunks that
    do not cover the announced samples): a bug on one side, never ignored."""


class RobotNotFound(MotiondError, LookupError):
    """A robot named by name matches no robot registered on the server (or
    several), and is neither a URDF file nor a robot_id."""
