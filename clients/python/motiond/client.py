"""The motiond client: a channel to the replicas, and the call protocol.

Every call names its robot by ``robot_id`` (and its scene by ``scene_id``).
When a server answers NOT_FOUND with ROBOT_NOT_REGISTERED (or
SCENE_NOT_REGISTERED) for content this client knows, the call is re-sent
with the URDF (scene) inline, and that content then travels inline for
``inline_after_refusal`` seconds (:mod:`motiond.inline_policy`). UNAVAILABLE
is retried by gRPC with backoff (:mod:`motiond.channel`). The behaviour is
the C++ library's (clients/motion_client.h).
"""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import (TYPE_CHECKING, Any, Callable, Iterable, List, Optional, Sequence, Tuple,
                    TypeVar, Union)

import grpc

from motiond._stubs import (geometry_pb2_grpc, info_pb2_grpc, kinematics_pb2_grpc,
                            motion_planner_pb2, motion_planner_pb2_grpc, robot_registry_pb2,
                            robot_registry_pb2_grpc)
from motiond.channel import open_channel
from motiond.content_ids import robot_id_for_urdf
from motiond.errors import (ROBOT_NOT_REGISTERED, SCENE_NOT_REGISTERED, MotiondRpcError,
                            RobotNotFound, error_details)
from motiond.inline_policy import InlinePolicy, RefusalEvent, RefusalHook
from motiond.program import ProgramLike, load_program
from motiond.robot import Robot, robot_for_program
from motiond.robot_info import RobotInfo
from motiond.scene import Scene, SceneLike, load_scene
from motiond.server_info import ServerInfo, fetch_server_info

if TYPE_CHECKING:
    from motiond.trajectory import Plan
    from motiond.validation import ValidationRun

Response = TypeVar("Response")
_ROBOT_ID = re.compile(r"^sha256:[0-9a-f]{64}$")

#: What :meth:`Client.robot` accepts: a URDF file path, URDF text or bytes,
#: a robot_id, or the name of a robot registered on the server.
RobotLike = Union[str, bytes, "os.PathLike[str]"]


class Client:
    """A client of one motiond, or of several replicas balanced round robin.

    Args:
        target: ``"host:port"``; several comma-separated addresses
            (``"10.0.0.1:50051,10.0.0.2:50051"``); or a gRPC target URI such
            as ``"dns:///motiond-headless:50051"`` (every pod of a headless
            Kubernetes Service).
        timeout: deadline of each call in seconds (overridable per call).
        max_attempts: attempts per call on UNAVAILABLE (gRPC caps it at 5).
        inline_after_refusal: seconds a refused robot or scene keeps being
            sent inline (see :mod:`motiond.inline_policy`).
        credentials: ``grpc.ssl_channel_credentials(...)`` for TLS / mTLS;
            None for plaintext.
        on_refusal: called with a :class:`RefusalEvent` on every refusal.

    Use as a context manager, or call :meth:`close`.
    """

    def __init__(self, target: str = "127.0.0.1:50051", *, timeout: float = 10.0,
                 max_attempts: int = 4, inline_after_refusal: float = 5.0,
                 credentials: Optional[grpc.ChannelCredentials] = None,
                 on_refusal: Optional[RefusalHook] = None,
                 channel_options: Sequence[Tuple[str, Any]] = ()) -> None:
        self.target = target
        self.timeout = float(timeout)
        self._channel = open_channel(target, max_attempts=max_attempts, credentials=credentials,
                                     options=channel_options)
        self._registry = robot_registry_pb2_grpc.RobotRegistryStub(self._channel)
        self._kinematics = kinematics_pb2_grpc.KinematicsStub(self._channel)
        self._planner = motion_planner_pb2_grpc.MotionPlannerStub(self._channel)
        self._geometry = geometry_pb2_grpc.GeometryStub(self._channel)
        self._info = info_pb2_grpc.InfoStub(self._channel)
        self._policy = InlinePolicy(inline_after_refusal)
        if on_refusal is not None:
            self._policy.add_hook(on_refusal)
        self._robots_by_name: Optional[List[RobotInfo]] = None

    # --- lifetime ------------------------------------------------------------
    @property
    def channel(self) -> grpc.Channel:
        """The gRPC channel (for stubs of other services, e.g. health)."""
        return self._channel

    def wait_ready(self, timeout: float = 10.0) -> None:
        """Blocks until the channel is connected to a replica.

        Raises:
            MotiondRpcError: UNAVAILABLE when none answered within ``timeout``.
        """
        try:
            grpc.channel_ready_future(self._channel).result(timeout=timeout)
        except grpc.FutureTimeoutError:
            message = f"no motiond reachable at {self.target} within {timeout} s"
            raise MotiondRpcError("connect", grpc.StatusCode.UNAVAILABLE, message) from None

    def close(self) -> None:
        """Closes the channel; calls in flight are cancelled."""
        self._channel.close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *_: Any) -> None:
        self.close()

    # --- the server ------------------------------------------------------------
    def server_info(self, *, timeout: Optional[float] = None) -> ServerInfo:
        """GetServerInfo: version, build architecture, capabilities and every
        bound the server enforces (``info.limits["max_trajectory_points"]``),
        from the replica the call reaches."""
        return fetch_server_info(self, timeout)

    # --- refusals --------------------------------------------------------------
    @property
    def refusal_count(self) -> int:
        """How many times a server refused a call for lacking a robot or scene."""
        return self._policy.refusal_count

    def refusals(self) -> List[RefusalEvent]:
        """The recent refusals, oldest first."""
        return self._policy.refusals()

    def add_refusal_hook(self, hook: RefusalHook) -> None:
        """Calls ``hook(event)`` on every refusal (from the calling thread)."""
        self._policy.add_hook(hook)

    # --- robots and scenes -----------------------------------------------------
    def robot(self, robot: RobotLike, *, base_link: str = "", tip_link: str = "") -> Robot:
        """A robot to compute with; nothing is sent to any server.

        Args:
            robot: a URDF file path, URDF text (str or bytes), a robot_id
                (``"sha256:..."``), or the name of a robot registered on the
                server (looked up with ListRobots; an unambiguous prefix of a
                name or id works too).
            base_link, tip_link: the chain; empty = the server's default chain.

        A robot given by its URDF is named by its content id in every call,
        and re-sent inline when a replica lacks it. A robot given by id or
        name cannot be re-sent: this client does not know its URDF (unless
        an earlier ``robot()`` call gave it).
        """
        if isinstance(robot, bytes):
            return self._robot_from_urdf(robot, base_link, tip_link)
        if isinstance(robot, os.PathLike):
            return self._robot_from_urdf(Path(robot).read_bytes(), base_link, tip_link)
        if not isinstance(robot, str):
            raise TypeError(f"robot: expected a path, URDF text or a robot_id, got {type(robot)}")
        if robot.lstrip().startswith("<"):
            return self._robot_from_urdf(robot.encode("utf-8"), base_link, tip_link)
        if _ROBOT_ID.match(robot):
            return Robot(self, robot, base_link=base_link, tip_link=tip_link)
        if os.path.isfile(robot):
            return self._robot_from_urdf(Path(robot).read_bytes(), base_link, tip_link)
        return Robot(self, self._robot_id_by_name(robot), base_link=base_link, tip_link=tip_link)

    def _robot_from_urdf(self, urdf: bytes, base_link: str, tip_link: str) -> Robot:
        try:
            text = urdf.decode("utf-8")
        except UnicodeDecodeError as error:
            raise ValueError(f"URDF is not UTF-8 text: {error}") from error
        # The id hashes the bytes exactly as they travel: protobuf sends the
        # string's UTF-8 encoding, which for valid UTF-8 is these bytes.
        robot_id = robot_id_for_urdf(urdf)
        self._policy.add_robot(robot_id, text)
        return Robot(self, robot_id, base_link=base_link, tip_link=tip_link)

    def _robot_id_by_name(self, word: str) -> str:
        # ListRobots once per client: names do not change under a content id.
        if self._robots_by_name is None:
            self._robots_by_name = self.robots()
        robots = self._robots_by_name
        exact = [r.robot_id for r in robots if r.name == word]
        if exact:
            return exact[0]
        matches = {r.robot_id for r in robots
                   if r.name.startswith(word) or r.robot_id.startswith(word)
                   or r.robot_id.startswith("sha256:" + word)}
        if len(matches) == 1:
            return matches.pop()
        what = "is ambiguous" if matches else "matches no registered robot, URDF file or robot_id"
        raise RobotNotFound(f"robot '{word}' {what} on {self.target}")

    def register(self, robot: RobotLike) -> RobotInfo:
        """RegisterRobot: stores the URDF on the replica the call reaches and
        returns its RobotInfo. Not needed for computing (calls re-send the
        URDF where it is missing); useful to validate a URDF up front."""
        handle = self.robot(robot)
        urdf = self._policy.urdf_for(handle.id)
        if urdf is None:
            raise ValueError("register() needs the URDF itself, not a robot_id or name")
        response = self._unary("RegisterRobot", self._registry.RegisterRobot,
                               robot_registry_pb2.RegisterRobotRequest(urdf=urdf))
        return RobotInfo.from_proto(response.info)

    def robots(self) -> List[RobotInfo]:
        """ListRobots: the robots registered on the replica the call reaches."""
        response = self._unary("ListRobots", self._registry.ListRobots,
                               robot_registry_pb2.ListRobotsRequest())
        return [RobotInfo.from_proto(r) for r in response.robots]

    def scene(self, scene: SceneLike) -> Scene:
        """A collision scene to plan against (a motion.v1.Scene, its JSON
        form, or a JSON file); nothing is sent until a call uses it."""
        loaded = load_scene(scene)
        self._policy.add_scene(loaded.id, loaded.message)
        return loaded

    # --- fleet validation ------------------------------------------------------
    def validate(self, programs: Iterable[Any], *, robot: Optional[Robot] = None,
                 max_in_flight: int = 16, progress: Any = False, max_streams: int = 8,
                 scene: Optional[SceneLike] = None,
                 timeout: Optional[float] = None) -> "ValidationRun":
        """Validates many programs over one ValidatePath stream.

        Args:
            programs: each a program (:data:`motiond.program.ProgramLike`), a
                ``(request_id, program)`` pair, or a ValidatePathRequest.
                Request ids default to the file path for files and the
                position in ``programs`` otherwise; they must be unique.
            robot: the robot every program is for (its ``"robot"`` entry must
                then agree); None = each program's own ``"robot"``.
            max_in_flight: requests sent but not yet answered, at most.
            progress: True (stderr) or a text stream: draw a progress bar.
            max_streams: streams to try when a stream breaks before every
                request is answered (the unanswered ones are re-sent).
            scene: a scene every program is checked against.
            timeout: deadline of each stream in seconds; None = no deadline
                (streams wait for a replica to become ready).

        Returns:
            An iterator of :class:`motiond.ValidationResult`, one per request
            id, in the order the answers arrive (not the input order).
        """
        from motiond.validation import ValidationRun, build_requests

        scene_obj = self.scene(scene) if scene is not None else None
        requests = build_requests(self, programs, robot, scene_obj)
        return ValidationRun(self, requests, max_in_flight=max_in_flight,
                             max_streams=max_streams, progress=progress, timeout=timeout)

    def plan(self, program: ProgramLike, **options: Any) -> "Plan":
        """Plans a program for the robot its ``"robot"`` entry names (see
        :meth:`Robot.plan` for ``options``)."""
        loaded = load_program(program)
        return robot_for_program(self, loaded).plan(loaded, **options)

    # --- the call protocol -----------------------------------------------------
    def _call_with_content(self, method: str, request: Any,
                           send: Callable[[Any], Response]) -> Response:
        """Sends ``request`` by id, and again with the URDF and/or the scene
        inline when the server lacks them and this client knows them (at
        most three sends: as given, with the robot, with the scene too)."""
        robot_ref = request.robot if _has_ref(request, "robot", "motion.v1.RobotRef") else None
        scene_ref = request.scene if _has_ref(request, "scene", "motion.v1.SceneRef") else None
        robot_attached = bool(robot_ref is not None and self._policy.send_inline(robot_ref.robot_id)
                              and self._policy.attach_robot(robot_ref))
        scene_attached = bool(scene_ref is not None and self._policy.send_inline(scene_ref.scene_id)
                              and self._policy.attach_scene(scene_ref))
        while True:
            try:
                return send(request)
            except grpc.RpcError as error:
                if error.code() != grpc.StatusCode.NOT_FOUND:
                    raise MotiondRpcError.from_grpc(method, error) from None
                reason = error_details(error).reason
                if reason == ROBOT_NOT_REGISTERED and robot_ref is not None and not robot_attached:
                    robot_attached = self._policy.attach_robot(robot_ref)
                    self._policy.refused("robot", robot_ref.robot_id, method, robot_attached)
                    if robot_attached:
                        continue
                elif (reason == SCENE_NOT_REGISTERED and scene_ref is not None
                      and not scene_attached):
                    scene_attached = self._policy.attach_scene(scene_ref)
                    self._policy.refused("scene", scene_ref.scene_id, method, scene_attached)
                    if scene_attached:
                        continue
                raise MotiondRpcError.from_grpc(method, error) from None

    def _unary(self, method: str, stub_method: Callable[..., Response], request: Any,
               timeout: Optional[float] = None) -> Response:
        """A unary call with the re-send protocol and the call deadline."""
        deadline = self.timeout if timeout is None else timeout
        return self._call_with_content(method, request,
                                       lambda r: stub_method(r, timeout=deadline))

    def _plan_stream(self, request: motion_planner_pb2.PlanPathRequest,
                     timeout: Optional[float] = None) -> List[motion_planner_pb2.PlanPathResponse]:
        """Every message of a PlanPath stream. A refusal arrives before any
        message, so re-sending the whole call never duplicates data."""
        deadline = self.timeout if timeout is None else timeout
        return self._call_with_content("PlanPath", request,
                                       lambda r: list(self._planner.PlanPath(r, timeout=deadline)))

    def _get_robot_info(self, robot_id: str, base_link: str, tip_link: str) -> RobotInfo:
        """GetRobot; a replica that lacks the robot is sent RegisterRobot
        first when the URDF is known (GetRobot has no inline URDF)."""
        request = robot_registry_pb2.GetRobotRequest(robot_id=robot_id, base_link=base_link,
                                                     tip_link=tip_link)
        try:
            return RobotInfo.from_proto(self._unary("GetRobot", self._registry.GetRobot, request))
        except MotiondRpcError as error:
            urdf = self._policy.urdf_for(robot_id)
            if error.reason != ROBOT_NOT_REGISTERED:
                raise
            self._policy.refused("robot", robot_id, "GetRobot", urdf is not None)
            if urdf is None:
                raise
        # The registration may reach another replica than the retry; a
        # RobotInfo is the same on every replica, so ask the one that has it.
        registered = self._unary("RegisterRobot", self._registry.RegisterRobot,
                                 robot_registry_pb2.RegisterRobotRequest(urdf=urdf))
        if not (base_link or tip_link):
            return RobotInfo.from_proto(registered.info)
        return RobotInfo.from_proto(self._unary("GetRobot", self._registry.GetRobot, request))


def _has_ref(message: Any, name: str, type_name: str) -> bool:
    """Whether ``message`` has a field ``name`` of message type ``type_name``
    (RegisterSceneRequest.scene is a Scene, not a SceneRef)."""
    field = message.DESCRIPTOR.fields_by_name.get(name)
    return field is not None and field.message_type is not None \
        and field.message_type.full_name == type_name

