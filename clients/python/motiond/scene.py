"""Collision scenes (motion.v1.Scene), named by content id like robots.

A request names a scene by ``scene_id`` only; a replica that lacks it
answers SCENE_NOT_REGISTERED and the client re-sends the scene inline
(README "Collision checking", and :mod:`motiond.inline_policy`).
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Union

from google.protobuf import json_format

from motiond._stubs import collision_pb2
from motiond.content_ids import scene_id_for
from motiond.errors import ProgramError

#: A scene: a motion.v1.Scene, its JSON form as a dict or text, or a path to
#: a JSON file (clients/examples/ur5_cell_scene.json).
SceneLike = Union["Scene", collision_pb2.Scene, Mapping[str, Any], str, "os.PathLike[str]"]


@dataclass(frozen=True)
class Scene:
    """A scene and its content id (``"sha256:"`` + hash of its deterministic
    serialization, the id the server computes)."""

    id: str
    message: collision_pb2.Scene

    @property
    def object_ids(self) -> list:
        """The ids of its collision objects."""
        return [o.id for o in self.message.objects]


def load_scene(scene: SceneLike) -> Scene:
    """Reads any :data:`SceneLike` into a :class:`Scene`.

    Raises:
        ProgramError: unreadable file, not JSON, or not a motion.v1.Scene.
    """
    if isinstance(scene, Scene):
        return scene
    if isinstance(scene, collision_pb2.Scene):
        message = collision_pb2.Scene()
        message.CopyFrom(scene)
        return Scene(scene_id_for(message), message)
    where = "scene"
    if isinstance(scene, (str, os.PathLike)) and not str(scene).lstrip().startswith("{"):
        where = str(scene)
        try:
            scene = Path(scene).read_text(encoding="utf-8")
        except OSError as error:
            raise ProgramError(f"cannot read scene {where}: {error}") from error
    if isinstance(scene, str):
        try:
            scene = json.loads(scene)
        except json.JSONDecodeError as error:
            raise ProgramError(f"{where}: not JSON: {error}") from error
    if not isinstance(scene, Mapping):
        raise ProgramError(f"{where}: a scene is a JSON object with \"objects\"")
    message = collision_pb2.Scene()
    try:
        json_format.ParseDict(scene, message)
    except json_format.ParseError as error:
        raise ProgramError(f"{where}: not a motion.v1.Scene: {error}") from error
    return Scene(scene_id_for(message), message)
