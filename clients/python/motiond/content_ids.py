"""Content addresses of robots and scenes, computed as the server does.

Because the id is a hash of the content, a client names a robot (scene) by
id without asking any server, and every replica that holds the same bytes
agrees on it (design.md "Robot registry"; README "Collision checking").
"""
from __future__ import annotations

import hashlib

from motiond._stubs import collision_pb2


def robot_id_for_urdf(urdf: bytes) -> str:
    """``"sha256:"`` + lowercase hex SHA-256 of the URDF bytes exactly as sent
    (a robot without meshes)."""
    return "sha256:" + hashlib.sha256(urdf).hexdigest()


def scene_id_for(scene: collision_pb2.Scene) -> str:
    """``"sha256:"`` + hex SHA-256 of the scene serialized deterministically
    (fields in number order, what every protobuf library writes for a
    message without maps)."""
    return "sha256:" + hashlib.sha256(scene.SerializeToString(deterministic=True)).hexdigest()
