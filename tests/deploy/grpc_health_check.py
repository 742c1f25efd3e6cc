#!/usr/bin/python3
"""grpc.health.v1.Health/Check against HOST:PORT; exit 0 when SERVING.

Usage: grpc_health_check.py HOST:PORT [SERVICE] [--timeout=SECONDS]

The request and response are encoded by hand (HealthCheckRequest{service} is
field 1, a string; HealthCheckResponse{status} is field 1, an enum, SERVING = 1)
because Debian ships python3-grpcio without the health stubs. Runs with Debian's
/usr/bin/python3 (python3-grpcio).
"""
import sys

import grpc

SERVING = 1
STATUS_NAMES = {0: "UNKNOWN", 1: "SERVING", 2: "NOT_SERVING", 3: "SERVICE_UNKNOWN"}


def encode_request(service: str) -> bytes:
    data = service.encode()
    if not data:
        return b""
    assert len(data) < 128, "service name too long for this one-byte length encoding"
    return b"\x0a" + bytes([len(data)]) + data


def decode_status(response: bytes) -> int:
    # An all-default message (UNKNOWN = 0) is empty on the wire.
    if not response:
        return 0
    if response[0] != 0x08 or len(response) < 2:
        raise ValueError(f"unexpected HealthCheckResponse bytes {response!r}")
    return response[1]


def main() -> int:
    args = [a for a in sys.argv[1:] if not a.startswith("--timeout=")]
    timeout = float(next((a.split("=", 1)[1] for a in sys.argv[1:]
                          if a.startswith("--timeout=")), "10"))
    if not args:
        print(__doc__, file=sys.stderr)
        return 2
    target, service = args[0], (args[1] if len(args) > 1 else "")
    with grpc.insecure_channel(target) as channel:
        check = channel.unary_unary("/grpc.health.v1.Health/Check")
        try:
            response = check(encode_request(service), timeout=timeout, wait_for_ready=True)
        except grpc.RpcError as error:
            print(f"health {target}: {error.code().name}: {error.details()}", file=sys.stderr)
            return 1
    status = decode_status(response)
    print(f"health {target} service '{service}': {STATUS_NAMES.get(status, status)}")
    return 0 if status == SERVING else 1


if __name__ == "__main__":
    sys.exit(main())
