"""motiond: Python client of the motiond motion-planning service.

    import motiond

    with motiond.Client("127.0.0.1:50051") as client:
        ur5 = client.robot("robots/ur5.urdf")
        pose = ur5.fk([0, -1.57, 1.57, 0, 0, 0])        # Pose: .matrix, .position, .quaternion
        q = ur5.ik(pose, seed=[0, -1.5, 1.5, 0, 0, 0]).joints
        plan = ur5.plan("clients/examples/ur5_glue_path.json")   # numpy arrays
        for result in client.validate(many_programs, robot=ur5, progress=True):
            print(result.request_id, result.ok, result.cycle_time)

        info = client.server_info()                    # version, capabilities, limits
        check = ur5.check_trajectory(time, q)          # a trajectory from elsewhere
        forms = motiond.geometry.convert_pose(client, position=(0, 0, 1),
                                              rpy=(90, 0, 0), degrees=True)

Plots are in :mod:`motiond.plot` (imports matplotlib; not imported here).
See clients/python/README.md.
"""
from motiond import geometry
from motiond.client import Client, RobotLike
from motiond.content_ids import robot_id_for_urdf, scene_id_for
from motiond.diagnostics import Diagnostic
from motiond.errors import (IkFailed, MotiondError, MotiondRpcError, ProgramError, ProtocolError,
                            RobotNotFound)
from motiond.ik_solution import Configuration, IkSolution
from motiond.geometry import PoseForms, ToolAndFrame
from motiond.inline_policy import RefusalEvent
from motiond.joint_checks import (JointLimitsCheck, JointLimitsResult, JointLimitState,
                                  SingularityCheck)
from motiond.pose_input import PoseInput, pose_input
from motiond.poses import Pose
from motiond.program import load_program
from motiond.profile import Profile, ProfilePhase, compute_profile
from motiond.reachability import Target
from motiond.robot import Robot
from motiond.robot_info import JointInfo, JointLimits, RobotInfo
from motiond.scene import Scene
from motiond.server_info import ServerInfo, ServerLimit
from motiond.trajectory import Plan, Segment
from motiond.trajectory_check import ResampledTrajectory, TrajectoryCheck
from motiond.validation import ValidationResult, ValidationRun

__version__ = "0.1.0"

__all__ = [
    "Client",
    "Configuration",
    "Diagnostic",
    "IkFailed",
    "IkSolution",
    "JointInfo",
    "JointLimitState",
    "JointLimits",
    "JointLimitsCheck",
    "JointLimitsResult",
    "MotiondError",
    "MotiondRpcError",
    "Plan",
    "Pose",
    "PoseForms",
    "Profile",
    "ProfilePhase",
    "PoseInput",
    "ProgramError",
    "ProtocolError",
    "RefusalEvent",
    "ResampledTrajectory",
    "Robot",
    "RobotInfo",
    "RobotLike",
    "RobotNotFound",
    "Scene",
    "Segment",
    "ServerInfo",
    "ServerLimit",
    "SingularityCheck",
    "Target",
    "ToolAndFrame",
    "TrajectoryCheck",
    "ValidationResult",
    "ValidationRun",
    "compute_profile",
    "geometry",
    "load_program",
    "pose_input",
    "robot_id_for_urdf",
    "scene_id_for",
]
