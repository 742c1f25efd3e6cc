"""What a motiond server is and what it enforces (motion.v1.Info).

A client adapts to the server instead of guessing: it tests for a
capability word (``"trajectory_check"``), never for a version, and reads a
bound (``limits["max_trajectory_points"].value``) instead of assuming the
default.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Dict, NamedTuple, Optional, Tuple

from motiond._stubs import info_pb2

if TYPE_CHECKING:
    from motiond.client import Client


class ServerLimit(NamedTuple):
    """One bound a request meets (README "Limits and protection").

    Attributes:
        value: the bound, in ``unit``.
        unit: ``"samples"``, ``"bytes"``, ``"s"``, ...
        flag: the motiond flag that sets it (``"--max_trajectory_points"``);
            empty when it is fixed.
    """

    value: float
    unit: str
    flag: str


@dataclass(frozen=True)
class ServerInfo:
    """motion.v1.GetServerInfoResponse.

    Attributes:
        version: motiond's version.
        architecture: the build architecture, ``"x86_64"`` or ``"aarch64"``.
        compiler, kdl_version, fcl_version, grpc_version, protobuf_version:
            what the server was built with.
        capabilities: stable words for what the server can do
            (``"ik"``, ``"zone_blending"``, ``"trajectory_check"``, ``"tls"``...).
        limits: every bound by name: ``(value, unit, flag)``.
        limit_descriptions: what each bound applies to, in words, by name.
        workers, short_workers: solver threads, and the extra ones that
            run short calls only.
        raw: the response message.
    """

    version: str
    architecture: str
    compiler: str
    kdl_version: str
    fcl_version: str
    grpc_version: str
    protobuf_version: str
    capabilities: Tuple[str, ...]
    limits: Dict[str, ServerLimit]
    limit_descriptions: Dict[str, str]
    workers: int
    short_workers: int
    raw: info_pb2.GetServerInfoResponse = field(repr=False, compare=False)

    def supports(self, capability: str) -> bool:
        """Whether ``capability`` (a word of :attr:`capabilities`) is served."""
        return capability in self.capabilities

    @classmethod
    def from_proto(cls, message: info_pb2.GetServerInfoResponse) -> "ServerInfo":
        """From a motion.v1.GetServerInfoResponse."""
        return cls(
            version=message.version,
            architecture=message.build_architecture,
            compiler=message.compiler,
            kdl_version=message.kdl_version,
            fcl_version=message.fcl_version,
            grpc_version=message.grpc_version,
            protobuf_version=message.protobuf_version,
            capabilities=tuple(message.capabilities),
            limits={l.name: ServerLimit(l.value, l.unit, l.flag) for l in message.limits},
            limit_descriptions={l.name: l.applies_to for l in message.limits},
            workers=message.workers,
            short_workers=message.short_workers,
            raw=message,
        )


def fetch_server_info(client: "Client", timeout: Optional[float] = None) -> ServerInfo:
    """GetServerInfo on the replica the call reaches (behind a balancer,
    replicas of one deployment answer alike)."""
    response = client._unary("GetServerInfo", client._info.GetServerInfo,
                             info_pb2.GetServerInfoRequest(), timeout)
    return ServerInfo.from_proto(response)
