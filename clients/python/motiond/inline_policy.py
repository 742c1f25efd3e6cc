"""What a client sends inline, and when: the stateless-replica protocol.

Requests name robots (scenes) by content id only. A replica that does not
hold one answers NOT_FOUND with ROBOT_NOT_REGISTERED (SCENE_NOT_REGISTERED);
the client then re-sends the call with the URDF (scene) inline, once.

After such a refusal the client keeps sending that robot inline for
``inline_after_refusal`` seconds (the C++ library's
``ClientOptions::inline_after_refusal``): behind a round-robin balancer the
re-send itself may land on another replica, and the calls that follow reach
the rest, so each replica that lacks the robot refuses one call instead of
every call that lands on it.
"""
from __future__ import annotations

import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import Callable, Deque, Dict, List, Optional

from motiond._stubs import collision_pb2, common_pb2


@dataclass(frozen=True)
class RefusalEvent:
    """A server refused a call because it lacked a robot or a scene.

    Attributes:
        kind: ``"robot"`` or ``"scene"``.
        content_id: the robot_id or scene_id it lacked.
        method: the RPC, e.g. ``"ComputeFk"`` or ``"ValidatePath"``.
        resent: whether the client knew the content and re-sent it inline.
        monotonic_time: ``time.monotonic()`` when the refusal arrived.
    """

    kind: str
    content_id: str
    method: str
    resent: bool
    monotonic_time: float


RefusalHook = Callable[[RefusalEvent], None]


class InlinePolicy:
    """Known URDFs and scenes by id, and the ids to send inline for now.

    Thread-safe: one policy serves every call of a :class:`motiond.Client`,
    whichever thread makes it.
    """

    def __init__(self, inline_after_refusal: float) -> None:
        self._inline_after_refusal = float(inline_after_refusal)
        self._lock = threading.Lock()
        self._urdfs: Dict[str, str] = {}
        self._scenes: Dict[str, collision_pb2.Scene] = {}
        self._inline_until: Dict[str, float] = {}
        self._hooks: List[RefusalHook] = []
        self._refusals: Deque[RefusalEvent] = deque(maxlen=10000)
        self._refusal_count = 0

    # --- what the client knows ---------------------------------------------
    def add_robot(self, robot_id: str, urdf: str) -> None:
        """Remembers ``urdf`` as the content of ``robot_id``."""
        with self._lock:
            self._urdfs[robot_id] = urdf

    def add_scene(self, scene_id: str, scene: collision_pb2.Scene) -> None:
        """Remembers ``scene`` as the content of ``scene_id``."""
        with self._lock:
            self._scenes[scene_id] = scene

    def urdf_for(self, robot_id: str) -> Optional[str]:
        """The URDF this client knows for ``robot_id``, or None."""
        with self._lock:
            return self._urdfs.get(robot_id)

    def attach_robot(self, ref: common_pb2.RobotRef) -> bool:
        """Puts the known URDF into ``ref``; False when unknown or inline already."""
        if ref.urdf:
            return False
        urdf = self.urdf_for(ref.robot_id)
        if urdf is None:
            return False
        ref.urdf = urdf
        return True

    def attach_scene(self, ref: collision_pb2.SceneRef) -> bool:
        """Puts the known scene into ``ref``; False when unknown or inline already."""
        if ref.HasField("scene") or not ref.scene_id:
            return False
        with self._lock:
            scene = self._scenes.get(ref.scene_id)
        if scene is None:
            return False
        ref.scene.CopyFrom(scene)
        return True

    # --- refusals ----------------------------------------------------------
    def send_inline(self, content_id: str) -> bool:
        """Whether a recent refusal says replicas may lack ``content_id``."""
        if not content_id:
            return False
        with self._lock:
            until = self._inline_until.get(content_id)
            if until is None:
                return False
            if time.monotonic() < until:
                return True
            del self._inline_until[content_id]
            return False

    def refused(self, kind: str, content_id: str, method: str, resent: bool) -> None:
        """Records a refusal; when re-sent, sends ``content_id`` inline for a while."""
        now = time.monotonic()
        event = RefusalEvent(kind, content_id, method, resent, now)
        with self._lock:
            if resent:
                self._inline_until[content_id] = now + self._inline_after_refusal
            self._refusals.append(event)
            self._refusal_count += 1
            hooks = list(self._hooks)
        for hook in hooks:
            hook(event)

    def add_hook(self, hook: RefusalHook) -> None:
        """Calls ``hook(event)`` on every refusal, from the thread that saw it."""
        with self._lock:
            self._hooks.append(hook)

    @property
    def refusal_count(self) -> int:
        """Refusals seen since the client was made."""
        with self._lock:
            return self._refusal_count

    def refusals(self) -> List[RefusalEvent]:
        """The most recent refusals (up to 10 000), oldest first."""
        with self._lock:
            return list(self._refusals)
