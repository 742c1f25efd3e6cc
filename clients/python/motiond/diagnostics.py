"""Diagnostics: structured findings about a request that was well-formed.

An error diagnostic does not fail the RPC; the answer says ``ok = False``
and its diagnostics say why and where (segment, sample, joint, value, limit).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, List, Optional, Tuple

from motiond._stubs import common_pb2


@dataclass(frozen=True)
class Diagnostic:
    """One motion.v1.Diagnostic.

    Attributes:
        severity: ``"ERROR"``, ``"WARNING"``, ``"INFO"`` (or ``"UNSPECIFIED"``).
        code: the DiagnosticCode name, e.g. ``"VELOCITY_LIMIT"``.
        message: the server's explanation.
        segment_id: the segment it is about ("" for the whole path).
        point_index: the sample it is tied to, or None.
        joint_name: the joint it is about ("" when none).
        value: the offending value (e.g. a joint velocity), as sent.
        limit: the limit it was checked against, as sent.
        time: seconds from the path start when the server sent one, else None
            (:meth:`motiond.Plan.time_of` also knows the sample's time).
        source: the segment's ``MotionSegment.source`` (a program line).
        contact: (link, other, depth) for COLLISION, else None.
    """

    severity: str
    code: str
    message: str
    segment_id: str = ""
    point_index: Optional[int] = None
    joint_name: str = ""
    value: float = 0.0
    limit: float = 0.0
    time: Optional[float] = None
    source: str = ""
    contact: Optional[Tuple[str, str, float]] = None

    @property
    def is_error(self) -> bool:
        """True for severity ERROR: the motion cannot be run as asked."""
        return self.severity == "ERROR"

    @classmethod
    def from_proto(cls, message: common_pb2.Diagnostic) -> "Diagnostic":
        """From a motion.v1.Diagnostic (point_index -1 means "no sample")."""
        severity = common_pb2.Severity.Name(message.severity).replace("SEVERITY_", "")
        contact = None
        if message.HasField("contact"):
            contact = (message.contact.link, message.contact.other, message.contact.depth)
        return cls(
            severity=severity,
            code=common_pb2.DiagnosticCode.Name(message.code),
            message=message.message,
            segment_id=message.segment_id,
            point_index=message.point_index if message.point_index >= 0 else None,
            joint_name=message.joint_name,
            value=message.value,
            limit=message.limit,
            # proto3 has no presence for doubles: 0 means "not tied to a time"
            # except for the first sample, which point_index 0 identifies.
            time=message.time if (message.time != 0.0 or message.point_index == 0) else None,
            source=message.source,
            contact=contact,
        )

    def __str__(self) -> str:
        where = []
        if self.segment_id:
            where.append(f"segment {self.segment_id}")
        if self.point_index is not None:
            where.append(f"sample {self.point_index}")
        if self.joint_name:
            where.append(self.joint_name)
        location = f" [{', '.join(where)}]" if where else ""
        return f"{self.severity} {self.code}{location}: {self.message}"


def diagnostics_from_proto(messages: Iterable[common_pb2.Diagnostic]) -> List[Diagnostic]:
    """Converts a repeated Diagnostic field."""
    return [Diagnostic.from_proto(m) for m in messages]
