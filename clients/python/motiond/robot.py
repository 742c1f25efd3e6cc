"""A robot's chain on the motiond service: FK, IK, Jacobian, planning, and
the checks of joint data from elsewhere (trajectories, joint limits,
singularity; the answers are in :mod:`motiond.trajectory_check` and
:mod:`motiond.joint_checks`).

A :class:`Robot` is a handle: its content id and chain. Nothing is stored
on any server by making one; every call names the robot by id and the
client re-sends the URDF where a replica lacks it (:mod:`motiond.client`).
Joint vectors are in chain order (:attr:`Robot.joint_names`), in rad / m.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, List, Optional, Sequence

import numpy as np

from motiond._stubs import common_pb2, kinematics_pb2
from motiond.content_ids import robot_id_for_urdf
from motiond.errors import IkFailed, ProgramError
from motiond.ik_solution import Configuration, IkSolution, fill_ik_context
from motiond.joint_checks import (JointLimitsCheck, SingularityCheck, joint_limits_request,
                                  singularity_request)
from motiond.poses import Pose, PoseLike
from motiond.program import Program, ProgramLike, load_program
from motiond.reachability import TargetLike, reachability_request
from motiond.robot_info import JointLimits, RobotInfo
from motiond.scene import SceneLike
from motiond.trajectory import Plan, plan_from_stream
from motiond.trajectory_check import (ResampledTrajectory, TrajectoryCheck, check_request,
                                      resample_request)

if TYPE_CHECKING:
    from motiond.client import Client
    from motiond.validation import ValidationRun

_IK_MODES = {"first": kinematics_pb2.IkOptions.FIRST,
             "closest": kinematics_pb2.IkOptions.CLOSEST,
             "all": kinematics_pb2.IkOptions.ALL}


def _joint_vector(values: Any) -> list:
    return [float(v) for v in np.asarray(values, dtype=float).reshape(-1)]


class Robot:
    """One chain of one robot, bound to a :class:`motiond.Client`.

    Made by :meth:`motiond.Client.robot`. Attributes: ``id`` (robot_id),
    ``base_link`` / ``tip_link`` (empty = the server's default chain).
    """

    def __init__(self, client: "Client", robot_id: str, *, base_link: str = "",
                 tip_link: str = "") -> None:
        self._client = client
        self.id = robot_id
        self.base_link = base_link
        self.tip_link = tip_link
        self._info: Optional[RobotInfo] = None

    def __repr__(self) -> str:
        chain = f", {self.base_link or '(default)'} -> {self.tip_link or '(default)'}"
        return f"Robot({self.id[:19]}...{chain if self.base_link or self.tip_link else ''})"

    def chain(self, base_link: str = "", tip_link: str = "") -> "Robot":
        """The same robot with another chain (see ``info.candidate_chains``)."""
        return Robot(self._client, self.id, base_link=base_link, tip_link=tip_link)

    def ref(self) -> common_pb2.RobotRef:
        """The RobotRef every request carries: the id and chain; the client
        adds the URDF only where a replica lacks it."""
        return common_pb2.RobotRef(robot_id=self.id, base_link=self.base_link,
                                   tip_link=self.tip_link)

    # --- description -------------------------------------------------------
    @property
    def info(self) -> RobotInfo:
        """GetRobot's description of this chain (fetched once, then cached)."""
        if self._info is None:
            self._info = self._client._get_robot_info(self.id, self.base_link, self.tip_link)
        return self._info

    @property
    def joint_names(self) -> list:
        """The DOF in chain order: the order of every joint vector."""
        return self.info.joint_names

    @property
    def dof(self) -> int:
        """Number of independent joints of the chain."""
        return self.info.dof

    @property
    def limits(self) -> JointLimits:
        """Position, velocity, acceleration and jerk limits as arrays."""
        return self.info.limits

    # --- kinematics --------------------------------------------------------
    def fk(self, q: Sequence[float], *, tool: Optional[PoseLike] = None,
           frame: Optional[PoseLike] = None, timeout: Optional[float] = None) -> Pose:
        """Forward kinematics: the TCP pose in the base frame (or in ``frame``).

        Args:
            q: joint values (dof of them, chain order).
            tool: the TCP in the flange (tip link) frame; None = the flange.
            frame: a work-object frame (in the base frame); the TCP is then
                returned in it (frame^-1 * tcp, computed by the server).

        Raises:
            MotiondRpcError: e.g. INVALID_ARGUMENT with ``field == "joints"``
                for a wrong number of values.
        """
        request = kinematics_pb2.ComputeFkRequest(robot=self.ref(), joints=_joint_vector(q))
        if tool is not None:
            request.tool.CopyFrom(Pose.coerce(tool).to_proto())
        if frame is not None:
            request.frame.CopyFrom(Pose.coerce(frame).to_proto())
        client = self._client
        response = client._unary("ComputeFk", client._kinematics.ComputeFk, request, timeout)
        return Pose.from_proto(response.tcp_in_frame if frame is not None else response.tcp)

    def ik(self, pose: Optional[PoseLike] = None, seed: Optional[Sequence[float]] = None, *,
           position: Optional[Sequence[float]] = None,
           quaternion: Optional[Sequence[float]] = None,
           rpy: Optional[Sequence[float]] = None,
           tool: Optional[PoseLike] = None, frame: Optional[PoseLike] = None,
           configuration: Optional[Configuration] = None, mode: str = "first",
           solver: str = "", position_tolerance: float = 0.0,
           orientation_tolerance: float = 0.0, budget: float = 0.0, max_solutions: int = 0,
           check: bool = True, timeout: Optional[float] = None) -> IkSolution:
        """Inverse kinematics: joints that put the TCP at a pose.

        Args:
            pose: the target TCP pose in the base frame: a Pose, a 4x4
                matrix, (position, quaternion xyzw) or (position, rpy). Or
                give ``position`` with ``quaternion`` or ``rpy`` instead.
            seed: where the search starts and which solution is preferred
                (nearest); None = the middle of every joint's range.
            tool: the TCP in the flange frame; None = the flange.
            frame: the work-object frame (in the base frame) the pose is
                given in; None = the base frame.
            configuration: only solutions on this branch
                (:class:`motiond.Configuration`, flags 0 = any); None = any.
            mode: ``"first"``, ``"closest"`` or ``"all"`` (every distinct
                solution in ``solutions``).
            solver: ``""`` (default), ``"kdl_nr_jl"`` or ``"kdl_lma"``.
            position_tolerance, orientation_tolerance: m / rad (0 = 1e-5).
            budget: seconds of solver CPU time (0 = the server's 5 ms).
            max_solutions: for ``mode="all"`` (0 = 8).
            check: raise :class:`IkFailed` when no solution was found
                (default); False returns the failed answer.

        Raises:
            IkFailed: ``ok`` was false and ``check`` is true.
            MotiondRpcError: the request was refused (bad seed length, ...).
        """
        if pose is None:
            if position is None or (quaternion is None) == (rpy is None):
                raise ValueError("ik: give a pose, or position with exactly one of quaternion, rpy")
            target = Pose(position, quaternion) if quaternion is not None \
                else Pose.from_rpy(position, rpy)
        else:
            if position is not None or quaternion is not None or rpy is not None:
                raise ValueError("ik: give either pose or position/quaternion/rpy, not both")
            target = Pose.coerce(pose)
        if mode not in _IK_MODES:
            raise ValueError(f"ik: mode must be one of {sorted(_IK_MODES)}, got {mode!r}")
        options = kinematics_pb2.IkOptions(
            solver=solver, position_tolerance=position_tolerance,
            orientation_tolerance=orientation_tolerance, timeout=budget,
            mode=_IK_MODES[mode], max_solutions=max_solutions)
        request = kinematics_pb2.ComputeIkRequest(robot=self.ref(), target=target.to_proto(),
                                                  options=options)
        if seed is not None:
            request.seed.extend(_joint_vector(seed))
        fill_ik_context(request, tool=tool, frame=frame, configuration=configuration)
        client = self._client
        solution = IkSolution.from_proto(
            client._unary("ComputeIk", client._kinematics.ComputeIk, request, timeout))
        if check and not solution.ok:
            raise IkFailed(solution)
        return solution

    def reachability(self, targets: Iterable[TargetLike], *,
                     seed: Optional[Sequence[float]] = None, tool: Optional[PoseLike] = None,
                     frame: Optional[PoseLike] = None,
                     configuration: Optional[Configuration] = None,
                     seed_from_previous: bool = False, budget: float = 0.0, solver: str = "",
                     timeout: Optional[float] = None) -> List[IkSolution]:
        """CheckReachability: IK of many targets in one call, in input order.

        Args:
            targets: poses, or :class:`motiond.Target` (pose with its own id,
                seed and configuration), mixed as you like.
            seed: every target's seed unless it brings its own.
            tool, frame: as :meth:`ik`; ``frame`` applies to every target.
            configuration: every target's, unless it brings its own.
            seed_from_previous: the targets are a path; each is seeded
                from the previous solution.
            budget: seconds of solver CPU time per target (0 = 5 ms).

        Returns:
            One :class:`motiond.IkSolution` per target; an unreachable one
            has ``ok`` False and ``nearest_pose`` (where its closest joints
            put the TCP, in ``frame`` when given).
        """
        request = reachability_request(self.ref(), targets, seed=seed, tool=tool, frame=frame,
                                       configuration=configuration,
                                       seed_from_previous=seed_from_previous, budget=budget,
                                       solver=solver)
        client = self._client
        response = client._unary("CheckReachability", client._kinematics.CheckReachability,
                                 request, timeout)
        return [IkSolution.from_proto(r) for r in response.results]

    def jacobian(self, q: Sequence[float], *, tool: Optional[PoseLike] = None,
                 timeout: Optional[float] = None) -> np.ndarray:
        """The geometric Jacobian (6 x dof) in the base frame: rows vx, vy,
        vz, wx, wy, wz; reference point the TCP (``tool``) or the flange."""
        request = kinematics_pb2.ComputeJacobianRequest(robot=self.ref(), joints=_joint_vector(q))
        if tool is not None:
            request.tool.CopyFrom(Pose.coerce(tool).to_proto())
        client = self._client
        response = client._unary("ComputeJacobian", client._kinematics.ComputeJacobian, request,
                                 timeout)
        return np.asarray(response.data, dtype=float).reshape(response.rows, response.cols)

    # --- joint data from elsewhere ----------------------------------------
    def check_trajectory(self, time: Any, q: Any, *,
                         timeout: Optional[float] = None) -> TrajectoryCheck:
        """CheckTrajectory: a joint trajectory from any source audited as
        motiond audits its own plans.

        Args:
            time: (n,) s, strictly increasing on a uniform grid (within 1e-6
                of a spacing; :meth:`resample` puts any trajectory on one).
            q: (n, dof) joint positions, columns in :attr:`joint_names` order.

        Returns:
            A :class:`TrajectoryCheck`: ``ok``, the diagnostics (joint,
            point index, time, value, limit), the worst velocity /
            acceleration / jerk ratios, ``cycle_time``. A trajectory that
            breaks a limit is an answer, not an exception.

        Raises:
            MotiondRpcError: INVALID_ARGUMENT naming ``time[k]`` (off the
                grid, not increasing, not finite) or ``positions[i]``
                (i = k * dof + j), or more samples than the server's
                ``--max_trajectory_points``.
        """
        client = self._client
        request = check_request(self.ref(), time, q)
        return TrajectoryCheck.from_proto(
            client._unary("CheckTrajectory", client._geometry.CheckTrajectory, request, timeout))

    def resample(self, time: Any, q: Any, sample_time: float, *,
                 timeout: Optional[float] = None) -> ResampledTrajectory:
        """ResampleTrajectory: a joint trajectory of any spacing on a uniform
        grid of ``sample_time`` s from ``time[0]``, per joint the not-a-knot
        cubic spline through the samples (exact for cubic motion; 3 samples
        give the parabola, 2 the line). When the duration is not a multiple
        of ``sample_time`` the last grid time lies past the last sample,
        where the arm is held at rest.

        Returns:
            ``(time, q, qd, qdd)`` as a :class:`ResampledTrajectory`. A spline
            can overshoot between samples: :meth:`check_trajectory` it
            before it runs.

        Raises:
            MotiondRpcError: INVALID_ARGUMENT naming ``time[k]``,
                ``positions[i]`` or ``sample_time``.
        """
        client = self._client
        request = resample_request(self.ref(), time, q, sample_time)
        return ResampledTrajectory.from_proto(
            client._unary("ResampleTrajectory", client._geometry.ResampleTrajectory, request,
                          timeout))

    def check_joint_limits(self, qs: Any, *, timeout: Optional[float] = None) -> JointLimitsCheck:
        """CheckJointLimits: joint vectors against the chain's position limits.

        Args:
            qs: one joint vector (dof,) or up to 10 000 as an (m, dof) array.

        Returns:
            A :class:`JointLimitsCheck` in input order: per configuration
            ``inside`` and per joint the limits, the distance to the nearest
            one (negative outside) and which one it is.

        Raises:
            MotiondRpcError: INVALID_ARGUMENT naming ``configurations[i].values``
                (wrong count) or ``configurations[i].values[j]`` (not finite).
        """
        client = self._client
        request = joint_limits_request(self.ref(), qs)
        return JointLimitsCheck.from_proto(
            client._unary("CheckJointLimits", client._geometry.CheckJointLimits, request, timeout))

    def check_singularity(self, q: Sequence[float], tool: Optional[PoseLike] = None,
                          threshold: Optional[float] = None, *,
                          timeout: Optional[float] = None) -> SingularityCheck:
        """CheckSingularity: how close ``q`` is to a singularity, from the
        singular values of the Jacobian.

        Args:
            q: joint values (dof of them, chain order).
            tool: the Jacobian's reference point, the TCP in the flange frame
                (:meth:`motiond.Pose.coerce` forms); None = the flange.
            threshold: on sigma_min, for ``near_singular``; None = the
                planner's 1e-3 (0 is refused: on the wire it means the default).

        Raises:
            MotiondRpcError: INVALID_ARGUMENT naming ``joints``, ``tool`` or
                ``threshold``.
        """
        client = self._client
        request = singularity_request(self.ref(), q,
                                      None if tool is None else Pose.coerce(tool).to_proto(),
                                      threshold)
        return SingularityCheck.from_proto(
            client._unary("CheckSingularity", client._geometry.CheckSingularity, request, timeout))

    # --- planning ----------------------------------------------------------
    def plan(self, program: ProgramLike, *, start_joints: Optional[Sequence[float]] = None,
             sample_time: Optional[float] = None, include_tcp: bool = True,
             scene: Optional[SceneLike] = None, timeout: Optional[float] = None) -> Plan:
        """Plans a MoveJ / MoveL / MoveC program into a sampled trajectory.

        Args:
            program: a dict in motionctl's JSON program format, a path to
                such a file, JSON text, or a PlanPathRequest. Its ``"robot"``
                entry, if any, must name this robot (ProgramError otherwise);
                this robot's chain is used.
            start_joints, sample_time: override the program's values.
            include_tcp: return TCP poses (``Plan.tcp``); on by default.
            scene: a scene to check every sample and the motion between
                samples against (overrides the program's).

        Returns:
            The :class:`Plan`. A motion that cannot be done is not an
            exception: ``plan.ok`` is false and ``plan.diagnostics`` say why.

        Raises:
            ProgramError: the program cannot be read or is for another robot.
            MotiondRpcError: the server refused the request (the message and
                ``field`` name what is malformed).
        """
        request = self.path_request(program, start_joints=start_joints, sample_time=sample_time,
                                    include_tcp=include_tcp, scene=scene)
        return plan_from_stream(self._client._plan_stream(request, timeout), robot=self)

    def validate(self, programs: Iterable[Any], **options: Any) -> "ValidationRun":
        """:meth:`motiond.Client.validate` with every program for this robot."""
        return self._client.validate(programs, robot=self, **options)

    def path_request(self, program: ProgramLike, *, start_joints: Optional[Sequence[float]] = None,
                     sample_time: Optional[float] = None, include_tcp: Optional[bool] = None,
                     scene: Optional[SceneLike] = None) -> Any:
        """The PlanPathRequest :meth:`plan` sends (for ValidatePath, or to inspect)."""
        loaded = program if isinstance(program, Program) else load_program(program)
        self._check_program_is_mine(loaded)
        request = loaded.request
        ref = request.robot
        ref.robot_id = self.id
        if self.base_link:
            ref.base_link = self.base_link
        if self.tip_link:
            ref.tip_link = self.tip_link
        if start_joints is not None:
            del request.start_joints[:]
            request.start_joints.extend(_joint_vector(start_joints))
        if sample_time is not None:
            request.sample_time = float(sample_time)
        if include_tcp is not None:
            request.include_tcp = include_tcp
        if scene is not None:
            scene_obj = self._client.scene(scene)
            request.scene.Clear()
            request.scene.scene_id = scene_obj.id
        return request

    def _check_program_is_mine(self, program: Program) -> None:
        """A program that names another robot is a mistake worth an error:
        planning it for this one would answer a question nobody asked."""
        ref = program.request.robot
        where = str(program.path) if program.path else "program"
        if ref.urdf and robot_id_for_urdf(ref.urdf.encode("utf-8")) != self.id:
            raise ProgramError(f"{where}: its robot.urdf is not robot {self.id}")
        if ref.robot_id and ref.robot_id != self.id:
            raise ProgramError(f"{where}: written for robot {ref.robot_id}, not {self.id}")
        word = program.robot_word
        if not word:
            return
        urdf = program.urdf_path()
        if word.startswith("sha256:"):
            matches = word == self.id
        elif urdf is not None:
            matches = robot_id_for_urdf(urdf.read_bytes()) == self.id
        else:
            name = self.info.name
            matches = name == word or name.startswith(word) or self.id.startswith(word)
        if not matches:
            raise ProgramError(f"{where}: written for robot '{word}', planned for "
                               f"'{self.info.name}' ({self.id})")


def robot_for_program(client: "Client", program: Program) -> Robot:
    """The robot a program's own ``"robot"`` entry names (a name, a robot_id,
    a URDF path, or a RobotRef object), for planning it without a Robot."""
    ref = program.request.robot
    if program.robot_word:
        urdf = program.urdf_path()
        robot = client.robot(urdf if urdf is not None else program.robot_word)
    elif ref.urdf:
        robot = client.robot(ref.urdf)
    elif ref.robot_id:
        robot = client.robot(ref.robot_id)
    else:
        where = str(program.path) if program.path else "program"
        raise ProgramError(f"{where}: names no robot (give \"robot\", or plan it with Robot.plan)")
    return robot.chain(ref.base_link, ref.tip_link) if (ref.base_link or ref.tip_link) else robot

