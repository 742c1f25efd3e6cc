"""The generated motion.v1 modules, imported in one place.

They are build artefacts (clients/python/stage_stubs.cmake writes them into
the staged package in the CMake build tree), so a checkout that was not
built has none: say how to get them instead of a bare ImportError.
"""
try:
    from motiond._generated.google.rpc import error_details_pb2, status_pb2
    from motiond._generated.motion.v1 import (
        collision_pb2,
        common_pb2,
        geometry_pb2,
        geometry_pb2_grpc,
        info_pb2,
        info_pb2_grpc,
        kinematics_pb2,
        kinematics_pb2_grpc,
        motion_planner_pb2,
        motion_planner_pb2_grpc,
        robot_registry_pb2,
        robot_registry_pb2_grpc,
    )
except ImportError as error:  # pragma: no cover - depends on the build
    raise ImportError(
        "motiond: the generated gRPC stubs are missing. Build the staged package with "
        "`cmake --build build --target python_client` and put build/clients/python on "
        f"PYTHONPATH (not the source folder clients/python). Cause: {error}"
    ) from error

__all__ = [
    "collision_pb2",
    "common_pb2",
    "error_details_pb2",
    "geometry_pb2",
    "geometry_pb2_grpc",
    "info_pb2",
    "info_pb2_grpc",
    "kinematics_pb2",
    "kinematics_pb2_grpc",
    "motion_planner_pb2",
    "motion_planner_pb2_grpc",
    "robot_registry_pb2",
    "robot_registry_pb2_grpc",
    "status_pb2",
]
