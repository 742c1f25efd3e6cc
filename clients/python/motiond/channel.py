"""The gRPC channel to one or several motiond replicas.

Every replica is interchangeable (robots are content-addressed), so the
channel balances round robin over every address it resolves, and gRPC
itself retries UNAVAILABLE (a replica going away) with exponential backoff:
every motion.v1 call is idempotent (content-addressed registration, pure
computations). The same policy as the C++ library's ``MotionClient::Connect``.
"""
from __future__ import annotations

import ipaddress
import json
import socket
from typing import List, Optional, Sequence, Tuple

import grpc

_SERVICES = ("motion.v1.RobotRegistry", "motion.v1.Kinematics", "motion.v1.MotionPlanner",
             "motion.v1.Geometry", "motion.v1.Info")
_MAX_MESSAGE_BYTES = 64 << 20  # a 100 000-sample plan arrives in chunks far below this


def service_config(max_attempts: int) -> str:
    """Round robin, and retries of UNAVAILABLE from 50 ms up to 1 s apart
    (``max_attempts`` <= 1: no retries)."""
    method_config: dict = {"name": [{"service": s} for s in _SERVICES]}
    if max_attempts > 1:
        method_config["retryPolicy"] = {
            "maxAttempts": min(int(max_attempts), 5),  # gRPC caps it at 5
            "initialBackoff": "0.05s",
            "maxBackoff": "1s",
            "backoffMultiplier": 2,
            "retryableStatusCodes": ["UNAVAILABLE"],
        }
    return json.dumps({"loadBalancingConfig": [{"round_robin": {}}],
                       "methodConfig": [method_config]})


def _split_host_port(address: str) -> Tuple[str, str]:
    if address.startswith("["):  # [::1]:50051
        host, _, port = address[1:].partition("]:")
        return host, port
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit():
        raise ValueError(f"address {address!r} is not HOST:PORT")
    return host, port


def _ip_literals(host: str) -> List[str]:
    try:
        return [str(ipaddress.ip_address(host))]
    except ValueError:
        pass
    # A host name in a list: gRPC's static resolver takes IP literals only,
    # so resolve it here, once (use dns:/// to follow DNS changes).
    infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    return sorted({info[4][0] for info in infos},
                  key=lambda ip: (ipaddress.ip_address(ip).version, ip))


def resolve_target(target: str) -> str:
    """The gRPC target URI for a motiond address.

    ``"host:port"`` and URIs (``"dns:///motiond-headless:50051"``,
    ``"ipv4:..."``, ``"unix:..."``) are passed through. A comma-separated list
    ``"10.0.0.1:50051,10.0.0.2:50051"`` becomes gRPC's static multi-address
    target (``ipv4:`` or ``ipv6:``); host names in it are resolved now.
    """
    target = target.strip()
    if "," not in target or "://" in target or target.startswith(("ipv4:", "ipv6:", "unix:")):
        return target
    v4: List[str] = []
    v6: List[str] = []
    for address in (a.strip() for a in target.split(",") if a.strip()):
        host, port = _split_host_port(address)
        for ip in _ip_literals(host):
            if ipaddress.ip_address(ip).version == 4:
                v4.append(f"{ip}:{port}")
            else:
                v6.append(f"[{ip}]:{port}")
        # A name with both kinds of address keeps the IPv4 ones: one static
        # target cannot mix the two schemes.
    if v4:
        return "ipv4:" + ",".join(dict.fromkeys(v4))
    if v6:
        return "ipv6:" + ",".join(dict.fromkeys(v6))
    raise ValueError(f"no address in target {target!r}")


def open_channel(target: str, *, max_attempts: int = 4,
                 credentials: Optional[grpc.ChannelCredentials] = None,
                 options: Sequence[Tuple[str, object]] = ()) -> grpc.Channel:
    """A channel to ``target`` (see :func:`resolve_target`): plaintext, or TLS
    with ``credentials`` (``grpc.ssl_channel_credentials(...)``)."""
    channel_options = [
        ("grpc.service_config", service_config(max_attempts)),
        ("grpc.enable_retries", 1),
        ("grpc.max_receive_message_length", _MAX_MESSAGE_BYTES),
        ("grpc.max_send_message_length", _MAX_MESSAGE_BYTES),
        *options,
    ]
    uri = resolve_target(target)
    if credentials is None:
        return grpc.insecure_channel(uri, options=channel_options)
    return grpc.secure_channel(uri, credentials, options=channel_options)
