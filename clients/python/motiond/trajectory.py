"""A planned path: the PlanPath stream assembled into numpy arrays.

PlanPath streams a header, trajectory chunks (row-major n_points x dof, at
most ``max_chunk_points`` samples each), a report per segment and a
summary. :func:`plan_from_stream` checks that the chunks cover exactly the
announced samples, in order, and fails loudly (:class:`ProtocolError`)
otherwise: a silently shifted sample would read as a valid trajectory.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable, List, Optional, Tuple

import numpy as np

from motiond._stubs import motion_planner_pb2
from motiond.diagnostics import Diagnostic, diagnostics_from_proto
from motiond.errors import ProtocolError
from motiond.poses import Pose

if TYPE_CHECKING:
    from motiond.robot import Robot


@dataclass(frozen=True)
class Segment:
    """One motion.v1.SegmentReport.

    Attributes:
        id: the segment's id; index: its position in the program.
        motion: ``"movej"``, ``"movel"`` or ``"movec"``.
        ok: no error diagnostic.
        start_time, duration: s, on the path's time axis.
        first_index, point_count: its samples in the plan's arrays.
        max_velocity_ratio, max_acceleration_ratio, max_jerk_ratio: worst
            |rate| / limit over its joints (divided differences of positions).
        max_cartesian_error: m, farthest TCP sample from the programmed path.
        diagnostics: its findings.
        raw: the SegmentReport (arc geometry, blend report, ...).
    """

    id: str
    index: int
    motion: str
    ok: bool
    start_time: float
    duration: float
    first_index: int
    point_count: int
    max_velocity_ratio: float
    max_acceleration_ratio: float
    max_jerk_ratio: float
    max_cartesian_error: float
    diagnostics: List[Diagnostic]
    raw: motion_planner_pb2.SegmentReport

    @classmethod
    def from_proto(cls, report: motion_planner_pb2.SegmentReport) -> "Segment":
        """From a motion.v1.SegmentReport."""
        return cls(
            id=report.segment_id,
            index=report.segment_index,
            motion=report.motion,
            ok=report.ok,
            start_time=report.start_time,
            duration=report.duration,
            first_index=report.first_index,
            point_count=report.point_count,
            max_velocity_ratio=report.max_joint_velocity_ratio,
            max_acceleration_ratio=report.max_joint_acceleration_ratio,
            max_jerk_ratio=report.max_joint_jerk_ratio,
            max_cartesian_error=report.max_cartesian_error,
            diagnostics=diagnostics_from_proto(report.diagnostics),
            raw=report,
        )


@dataclass
class Plan:
    """A planned program.

    Attributes:
        ok: no error anywhere (the summary's verdict).
        cycle_time: s, the path's real duration.
        sample_time: s between samples; every sample is at k x sample_time.
        joint_names: chain order, the columns of q, qd, qdd.
        time: (n,) s from the path start.
        q, qd, qdd: (n, dof) joint positions, velocities, accelerations.
        tcp: (n, 7) TCP poses as rows (x, y, z, qx, qy, qz, qw) in the base
            frame, or None when the request had ``include_tcp`` false;
            :meth:`tcp_poses` gives them as :class:`Pose` objects.
        segments: one :class:`Segment` per planned segment, in order.
        diagnostics: every finding of the path (the summary's, which
            repeats the segments' and adds path-level ones).
        collision_checked, collision_free: as in PlanPathSummary.
        robot_id: the robot it was planned for.
        robot: the :class:`motiond.Robot` it was planned with, if any
            (:mod:`motiond.plot` reads the joint limits from it).
    """

    ok: bool
    cycle_time: float
    sample_time: float
    joint_names: List[str]
    time: np.ndarray
    q: np.ndarray
    qd: np.ndarray
    qdd: np.ndarray
    tcp: Optional[np.ndarray]
    segments: List[Segment]
    diagnostics: List[Diagnostic]
    collision_checked: bool
    collision_free: bool
    robot_id: str
    robot: Optional["Robot"] = field(default=None, repr=False)

    def __len__(self) -> int:
        return int(self.time.shape[0])

    @property
    def dof(self) -> int:
        """Number of joints (columns of q)."""
        return len(self.joint_names)

    def jerk(self) -> Tuple[np.ndarray, np.ndarray]:
        """Joint jerk as finite differences of ``qdd``.

        Returns:
            (t, jerk): t (n-1,) the midpoints between samples, jerk (n-1, dof)
            = (qdd[k+1] - qdd[k]) / sample_time, the mean jerk over each
            sample interval.
        """
        if len(self) < 2:
            return np.zeros(0), np.zeros((0, self.dof))
        return 0.5 * (self.time[1:] + self.time[:-1]), np.diff(self.qdd, axis=0) / self.sample_time

    def tcp_poses(self) -> List[Pose]:
        """The TCP rows as :class:`Pose` objects (empty without ``include_tcp``)."""
        if self.tcp is None:
            return []
        return [Pose(row[:3], row[3:]) for row in self.tcp]

    def segment(self, segment_id: str) -> Segment:
        """The segment with this id (KeyError if none)."""
        for s in self.segments:
            if s.id == segment_id:
                return s
        raise KeyError(segment_id)

    def time_of(self, diagnostic: Diagnostic) -> Optional[float]:
        """When a diagnostic happened on this path's time axis, or None.

        The sample index is preferred: it is always set for findings tied
        to a sample, while ``Diagnostic.time`` may be left 0.
        """
        if diagnostic.point_index is not None and 0 <= diagnostic.point_index < len(self):
            return float(self.time[diagnostic.point_index])
        return diagnostic.time


def plan_from_stream(messages: Iterable[motion_planner_pb2.PlanPathResponse],
                     robot: Optional["Robot"] = None) -> Plan:
    """Assembles a PlanPath response stream into a :class:`Plan`.

    Raises:
        ProtocolError: no header or no summary, or chunks that overlap,
            leave gaps, or do not match the header's dof and point count.
    """
    header: Optional[motion_planner_pb2.PlanPathHeader] = None
    summary: Optional[motion_planner_pb2.PlanPathSummary] = None
    chunks: List[motion_planner_pb2.TrajectoryChunk] = []
    reports: List[motion_planner_pb2.SegmentReport] = []
    for message in messages:
        kind = message.WhichOneof("payload")
        if kind == "header":
            header = message.header
        elif kind == "chunk":
            chunks.append(message.chunk)
        elif kind == "segment_report":
            reports.append(message.segment_report)
        elif kind == "summary":
            summary = message.summary
    if header is None or summary is None:
        raise ProtocolError("PlanPath stream ended without a header or a summary")

    dof = header.dof
    n = sum(len(c.time) for c in chunks)
    if n != header.point_count:
        raise ProtocolError(f"PlanPath: header announced {header.point_count} samples, "
                            f"chunks carry {n}")
    time = np.empty(n)
    q, qd, qdd = (np.empty((n, dof)) for _ in range(3))
    with_tcp = n > 0 and all(len(c.tcp) == len(c.time) for c in chunks)
    tcp = np.empty((n, 7)) if with_tcp else None
    expected_first = 0
    for c in chunks:
        m = len(c.time)
        if c.first_index != expected_first:
            raise ProtocolError(f"PlanPath: chunk starts at sample {c.first_index}, "
                                f"expected {expected_first}")
        for name, values in (("positions", c.positions), ("velocities", c.velocities),
                             ("accelerations", c.accelerations)):
            if len(values) != m * dof:
                raise ProtocolError(f"PlanPath: chunk at {c.first_index} has {len(values)} "
                                    f"{name}, expected {m} x {dof}")
        rows = slice(expected_first, expected_first + m)
        time[rows] = c.time
        q[rows] = np.asarray(c.positions).reshape(m, dof)
        qd[rows] = np.asarray(c.velocities).reshape(m, dof)
        qdd[rows] = np.asarray(c.accelerations).reshape(m, dof)
        if tcp is not None:
            tcp[rows] = [(p.position.x, p.position.y, p.position.z, p.orientation.x,
                          p.orientation.y, p.orientation.z, p.orientation.w) for p in c.tcp]
        expected_first += m

    return Plan(
        ok=summary.ok,
        cycle_time=summary.duration,
        sample_time=header.sample_time,
        joint_names=list(header.joint_names),
        time=time,
        q=q,
        qd=qd,
        qdd=qdd,
        tcp=tcp,
        segments=[Segment.from_proto(r) for r in reports],
        diagnostics=diagnostics_from_proto(summary.diagnostics),
        collision_checked=summary.collision_checked,
        collision_free=summary.collision_free,
        robot_id=header.robot_id,
        robot=robot,
    )
