"""Fleet validation: many programs over one ValidatePath stream.

The stream is bidirectional: requests go out while answers come back, each
tagged with its request_id, in the order they finish. The client keeps at
most ``max_in_flight`` requests unanswered (the server reads 16 per stream
and flow-controls the rest), so a slow consumer of the results slows the
sending, not the memory.

A request refused with ROBOT_NOT_REGISTERED (SCENE_NOT_REGISTERED) is
re-sent on the same stream with the URDF (scene) inline, and every later
request of that stream carries it too: a stream talks to one replica, and
that replica has just said it lacks it. When a stream breaks (a replica
killed, a connection lost) the requests not yet answered are sent again on
a new stream, and an answer is delivered once per request id, whatever
happened in between (the C++ library's ``ValidatePaths``).
"""
from __future__ import annotations

import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import (TYPE_CHECKING, Any, Deque, Dict, Iterable, Iterator, List, Optional, Set,
                    TextIO, Union)

import grpc

from motiond._stubs import motion_planner_pb2
from motiond.diagnostics import Diagnostic, diagnostics_from_proto
from motiond.errors import (ROBOT_NOT_REGISTERED, SCENE_NOT_REGISTERED, ErrorDetails,
                            MotiondRpcError)
from motiond.inline_policy import InlinePolicy
from motiond.program import load_program
from motiond.progress import ProgressBar
from motiond.robot import Robot, robot_for_program
from motiond.scene import Scene
from motiond.trajectory import Segment

if TYPE_CHECKING:
    from motiond.client import Client

ValidatePathRequest = motion_planner_pb2.ValidatePathRequest

# A stream that ends with one of these may succeed on a new stream (another
# replica, a restarted one, a fresh deadline); any other code says the
# requests themselves cannot be served, so it is raised at once.
_STREAM_RETRYABLE = frozenset({
    grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.RESOURCE_EXHAUSTED, grpc.StatusCode.ABORTED,
    grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.CANCELLED, grpc.StatusCode.INTERNAL,
    grpc.StatusCode.UNKNOWN})


@dataclass(frozen=True)
class ValidationResult:
    """The verdict on one program.

    Attributes:
        request_id: the id it was sent with.
        ok: planned without an error diagnostic.
        reachable: every target (and Cartesian sample) is reachable within
            the joint limits.
        cycle_time: s.
        segments, diagnostics: as in a :class:`motiond.Plan`.
        collision_checked, collision_free: as in PlanPathSummary.
        error_code: a ``grpc.StatusCode`` when this one request could not be
            processed (malformed path, unknown robot), else None. The stream
            goes on; :meth:`raise_for_error` turns it into an exception.
        error_message, error_reason: the server's message and ErrorInfo reason.
        raw: the ValidatePathResponse.
    """

    request_id: str
    ok: bool
    reachable: bool
    cycle_time: float
    segments: List[Segment]
    diagnostics: List[Diagnostic]
    collision_checked: bool
    collision_free: bool
    error_code: Optional[grpc.StatusCode]
    error_message: str
    error_reason: str
    raw: motion_planner_pb2.ValidatePathResponse

    @classmethod
    def from_proto(cls, response: motion_planner_pb2.ValidatePathResponse) -> "ValidationResult":
        """From a motion.v1.ValidatePathResponse."""
        code = None
        if response.error_code != 0:
            code = next((c for c in grpc.StatusCode if c.value[0] == response.error_code),
                        grpc.StatusCode.UNKNOWN)
        return cls(
            request_id=response.request_id,
            ok=response.ok,
            reachable=response.reachable,
            cycle_time=response.cycle_time,
            segments=[Segment.from_proto(r) for r in response.segment_reports],
            diagnostics=diagnostics_from_proto(response.diagnostics),
            collision_checked=response.collision_checked,
            collision_free=response.collision_free,
            error_code=code,
            error_message=response.error_message,
            error_reason=response.error_reason,
            raw=response,
        )

    def raise_for_error(self) -> None:
        """Raises :class:`MotiondRpcError` if the request was not processed."""
        if self.error_code is not None:
            raise MotiondRpcError(f"ValidatePath[{self.request_id}]", self.error_code,
                                  self.error_message,
                                  ErrorDetails(reason=self.error_reason or None))


def build_requests(client: "Client", programs: Iterable[Any], robot: Optional[Robot],
                   scene: Optional[Scene]) -> List[ValidatePathRequest]:
    """ValidatePathRequests for :meth:`motiond.Client.validate`'s inputs.

    Raises:
        ProgramError: a program cannot be read or names another robot.
        ValueError: a request id is used twice.
    """
    requests: List[ValidatePathRequest] = []
    seen: Set[str] = set()
    for index, item in enumerate(programs):
        if isinstance(item, ValidatePathRequest):
            request_id, program = item.request_id, item.path
        elif isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str):
            request_id, program = item
        else:
            request_id, program = "", item
        loaded = load_program(program)
        if not request_id:
            request_id = str(loaded.path) if loaded.path is not None else str(index)
        if request_id in seen:
            raise ValueError(f"validate: request_id '{request_id}' is used twice")
        seen.add(request_id)
        owner = robot if robot is not None else robot_for_program(client, loaded)
        path = owner.path_request(loaded)
        if scene is not None:
            path.scene.Clear()
            path.scene.scene_id = scene.id
        requests.append(ValidatePathRequest(request_id=request_id, path=path))
    return requests


class _StreamSender:
    """The request side of one ValidatePath stream (gRPC reads
    :meth:`requests` from its own thread), and the bookkeeping the answers
    drive: how many are in flight, what to re-send with what inline."""

    def __init__(self, round_: List[ValidatePathRequest], max_in_flight: int,
                 policy: InlinePolicy) -> None:
        self._round = round_
        self._by_id = {r.request_id: r for r in round_}
        self._max_in_flight = max(1, max_in_flight)
        self._policy = policy
        self._condition = threading.Condition()
        self._next = 0
        self._outstanding = 0
        self._resend: Deque[ValidatePathRequest] = deque()
        self._stopped = False
        # Robot and scene ids this stream's replica said it lacks: every
        # later request of the stream carries them inline.
        self._missing_here: Set[str] = set()
        self._resends: Dict[str, int] = {}
        self.peak_in_flight = 0

    def _may_send_or_end(self) -> bool:
        more = bool(self._resend) or self._next < len(self._round)
        return (self._stopped or (more and self._outstanding < self._max_in_flight)
                or (not more and self._outstanding == 0))

    def _attach_missing_here(self, path: motion_planner_pb2.PlanPathRequest) -> None:
        if path.robot.robot_id in self._missing_here:
            self._policy.attach_robot(path.robot)
        if path.scene.scene_id and path.scene.scene_id in self._missing_here:
            self._policy.attach_scene(path.scene)

    def requests(self) -> Iterator[ValidatePathRequest]:
        """Yields requests while fewer than max_in_flight are unanswered;
        returns (half-closing the stream) once all are sent and answered."""
        while True:
            with self._condition:
                self._condition.wait_for(self._may_send_or_end)
                if self._stopped:
                    return
                if self._resend:
                    request = self._resend.popleft()
                elif self._next < len(self._round):
                    request = ValidatePathRequest()
                    request.CopyFrom(self._round[self._next])
                    self._next += 1
                    self._attach_missing_here(request.path)
                else:
                    return
                self._outstanding += 1
                self.peak_in_flight = max(self.peak_in_flight, self._outstanding)
            yield request

    def answered(self, response: motion_planner_pb2.ValidatePathResponse,
                 unanswered: Dict[str, None]) -> bool:
        """Counts an answer; True when it is the one to deliver, False when
        it is a late duplicate or a refusal this client answers by re-sending."""
        refusal = None
        with self._condition:
            self._outstanding -= 1
            request_id = response.request_id
            deliver = request_id in unanswered
            kind = {ROBOT_NOT_REGISTERED: "robot",
                    SCENE_NOT_REGISTERED: "scene"}.get(response.error_reason)
            if deliver and kind is not None and request_id in self._by_id:
                # A fresh copy of the request as the caller gave it: attaching
                # succeeds exactly when this client knows the content and the
                # caller did not send it inline already.
                again = ValidatePathRequest()
                again.CopyFrom(self._by_id[request_id])
                content_id = again.path.robot.robot_id if kind == "robot" \
                    else again.path.scene.scene_id
                attached = (self._policy.attach_robot(again.path.robot) if kind == "robot"
                            else self._policy.attach_scene(again.path.scene))
                # At most one re-send per kind of content (robot, scene).
                if attached and self._resends.get(request_id, 0) < 2:
                    self._resends[request_id] = self._resends.get(request_id, 0) + 1
                    self._missing_here.add(content_id)
                    self._attach_missing_here(again.path)
                    self._resend.append(again)
                    deliver = False  # its real answer comes with the re-send
                refusal = (kind, content_id, attached)
            self._condition.notify_all()
        if refusal is not None:
            self._policy.refused(refusal[0], refusal[1], "ValidatePath", refusal[2])
        return deliver

    def stop(self) -> None:
        """Ends :meth:`requests` (the stream is over or abandoned)."""
        with self._condition:
            self._stopped = True
            self._condition.notify_all()


class ValidationRun(Iterator[ValidationResult]):
    """An iterator of :class:`ValidationResult`, one per request id, in the
    order the answers arrive. ``len(run)`` is the number of requests.

    Iterating drives the stream; stopping early (``break``, :meth:`close`,
    leaving a ``with`` block) cancels it.

    Attributes:
        peak_in_flight: the most requests that were unanswered at once.
        streams_opened: ValidatePath streams used (1 unless one broke).
    """

    def __init__(self, client: "Client", requests: List[ValidatePathRequest], *,
                 max_in_flight: int = 16, max_streams: int = 8,
                 progress: Union[bool, TextIO] = False, timeout: Optional[float] = None) -> None:
        self._client = client
        self._requests = requests
        self._max_in_flight = max_in_flight
        self._max_streams = max(1, max_streams)
        self._timeout = timeout
        self._bar: Optional[ProgressBar] = None
        if progress:
            self._bar = ProgressBar(len(requests), stream=None if progress is True else progress)
        self.peak_in_flight = 0
        self.streams_opened = 0
        self._results = self._run()

    def __len__(self) -> int:
        return len(self._requests)

    def __iter__(self) -> "ValidationRun":
        return self

    def __next__(self) -> ValidationResult:
        return next(self._results)

    def close(self) -> None:
        """Stops early: cancels the stream."""
        self._results.close()

    def __enter__(self) -> "ValidationRun":
        return self

    def __exit__(self, *_: Any) -> None:
        self.close()

    def _run(self) -> Iterator[ValidationResult]:
        by_id = {r.request_id: r for r in self._requests}
        unanswered: Dict[str, None] = dict.fromkeys(by_id)  # an ordered set
        last_error: Optional[grpc.RpcError] = None
        backoff = 0.05
        try:
            for _ in range(self._max_streams):
                if not unanswered:
                    break
                sender = _StreamSender([by_id[i] for i in unanswered], self._max_in_flight,
                                       self._client._policy)
                # wait_for_ready: a replica may be (re)starting; the stream
                # waits for it instead of failing at once.
                call = self._client._planner.ValidatePath(sender.requests(), timeout=self._timeout,
                                                          wait_for_ready=True)
                self.streams_opened += 1
                progress = False
                try:
                    for response in call:
                        deliver = sender.answered(response, unanswered)
                        self.peak_in_flight = max(self.peak_in_flight, sender.peak_in_flight)
                        if not deliver:
                            continue
                        del unanswered[response.request_id]
                        progress = True
                        result = ValidationResult.from_proto(response)
                        if self._bar is not None:
                            self._bar.update(result.ok)
                        yield result
                except grpc.RpcError as error:
                    if error.code() not in _STREAM_RETRYABLE:
                        raise MotiondRpcError.from_grpc("ValidatePath", error) from None
                    last_error = error
                finally:
                    sender.stop()
                    call.cancel()
                    self.peak_in_flight = max(self.peak_in_flight, sender.peak_in_flight)
                if unanswered and not progress:
                    time.sleep(backoff)
                    backoff = min(backoff * 2, 2.0)
            if unanswered:
                message = f"{len(unanswered)} of {len(by_id)} requests unanswered after " \
                          f"{self.streams_opened} streams"
                if last_error is not None:
                    raise MotiondRpcError("ValidatePath", last_error.code(),
                                          f"{message}: {last_error.details()}")
                raise MotiondRpcError("ValidatePath", grpc.StatusCode.UNAVAILABLE, message)
        finally:
            if self._bar is not None:
                self._bar.finish()
