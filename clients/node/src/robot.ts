// A handle on one robot's chain, in the spirit of the seed's RobotHandle:
// every call names the robot by robot_id (the client re-sends the URDF to a
// replica that lacks it) and the chosen base/tip links and joint limits.
// That holds for its Geometry calls too (trajectories, limits, singularity).

import { status as grpcStatus } from "@grpc/grpc-js";

import { MotionError } from "./errors";
import type { CheckSingularityResponse__Output } from "./generated/motion/v1/CheckSingularityResponse";
import type { CheckTrajectoryResponse__Output } from "./generated/motion/v1/CheckTrajectoryResponse";
import type { ComputeFkResponse__Output } from "./generated/motion/v1/ComputeFkResponse";
import type { ComputeJacobianResponse__Output } from "./generated/motion/v1/ComputeJacobianResponse";
import type { IkOptions } from "./generated/motion/v1/IkOptions";
import type { IkResult__Output } from "./generated/motion/v1/IkResult";
import type { JointLimitOverride } from "./generated/motion/v1/JointLimitOverride";
import type { JointLimitsResult__Output } from "./generated/motion/v1/JointLimitsResult";
import type { PlanPathRequest } from "./generated/motion/v1/PlanPathRequest";
import type { Pose } from "./generated/motion/v1/Pose";
import type { ReachabilityTarget } from "./generated/motion/v1/ReachabilityTarget";
import type { RobotInfo__Output } from "./generated/motion/v1/RobotInfo";
import type { RobotRef } from "./generated/motion/v1/RobotRef";
import type { ValidatePathResponse__Output } from "./generated/motion/v1/ValidatePathResponse";
import type { MotionClient } from "./motion_client";
import type { ValidateOptions } from "./path_validation";
import type { PlannedPath } from "./plan_collector";
import { flattenRows, splitRows, type JointRows, type ResampledTrajectory } from "./trajectory_rows";

export interface ChainSelection {
  /** Chain ends; empty: the server's default chain (RobotInfo.chain_rule). */
  baseLink?: string;
  tipLink?: string;
  /** The robot's real limits per joint (RobotRef.joint_limits). */
  jointLimits?: JointLimitOverride[];
}

/** A path for this robot: a PlanPathRequest without its `robot`. */
export type RobotPath = Omit<PlanPathRequest, "robot">;

export class Robot {
  constructor(
    private readonly client: MotionClient,
    /** "sha256:" + hex SHA-256 of the URDF (with meshes: see robotIdFor). */
    readonly id: string,
    private readonly chain: ChainSelection = {},
  ) {}

  /** The RobotRef every request of this handle carries. */
  get ref(): RobotRef {
    const ref: RobotRef = { robot_id: this.id };
    if (this.chain.baseLink) ref.base_link = this.chain.baseLink;
    if (this.chain.tipLink) ref.tip_link = this.chain.tipLink;
    if (this.chain.jointLimits) ref.joint_limits = this.chain.jointLimits;
    return ref;
  }

  /** Joints, limits and chain of this robot (registered on the server first if it lacks it). */
  info(): Promise<RobotInfo__Output> {
    return this.client.getRobot({
      robot_id: this.id,
      base_link: this.chain.baseLink ?? "",
      tip_link: this.chain.tipLink ?? "",
    });
  }

  /**
   * Flange and TCP pose (and every link with allLinks) for `joints`, chain
   * order; with a work-object `frame` (in the base frame) also
   * `tcp_in_frame` = frame^-1 * tcp.
   */
  fk(joints: number[], options: { tool?: Pose; allLinks?: boolean; frame?: Pose } = {}): Promise<ComputeFkResponse__Output> {
    return this.client.computeFk({
      robot: this.ref,
      joints,
      tool: options.tool ?? null,
      all_links: options.allLinks ?? false,
      frame: options.frame ?? null,
    });
  }

  /**
   * IK of a TCP pose (in the base frame, or in the work-object `frame`);
   * `ok` false (with `outcome` and `nearest_pose`) when it has no solution.
   */
  ik(target: Pose, options: { seed?: number[]; tool?: Pose; frame?: Pose; ik?: IkOptions } = {}): Promise<IkResult__Output> {
    return this.client.computeIk({
      robot: this.ref,
      target,
      seed: options.seed ?? [],
      tool: options.tool ?? null,
      options: options.ik ?? null,
      frame: options.frame ?? null,
    });
  }

  jacobian(joints: number[], options: { tool?: Pose } = {}): Promise<ComputeJacobianResponse__Output> {
    return this.client.computeJacobian({ robot: this.ref, joints, tool: options.tool ?? null });
  }

  /**
   * One IK result per target, in input order. Targets are poses, or
   * ReachabilityTarget ({ id, pose, seed, configuration }: its own seed and
   * configuration replace the request's; `id` comes back in the result).
   * `frame` is the work-object frame of every target; an unreachable one
   * has `nearest_pose` in it.
   */
  async reachability(
    targets: ReadonlyArray<Pose | ReachabilityTarget>,
    options: { seed?: number[]; tool?: Pose; frame?: Pose; ik?: IkOptions } = {},
  ): Promise<IkResult__Output[]> {
    const detailed = targets.some((t) => "pose" in t);
    const response = await this.client.checkReachability({
      robot: this.ref,
      ...(detailed
        ? { target_details: targets.map((t) => ("pose" in t ? t : { pose: t as Pose })) }
        : { targets: targets as Pose[] }),
      seed: options.seed ?? [],
      tool: options.tool ?? null,
      options: options.ik ?? null,
      frame: options.frame ?? null,
    });
    return response.results;
  }

  /** Plans a path and collects its stream (time, q, qd, qdd, tcp, reports). */
  plan(path: RobotPath): Promise<PlannedPath> {
    return this.client.plan({ ...path, robot: this.ref });
  }

  /**
   * A joint trajectory from elsewhere audited against this chain's limits
   * exactly as the planner audits its own: `time` on a uniform grid,
   * `positions` one row per sample (or flat, row-major) in chain order.
   * A limit broken is a diagnostic naming joint and point_index (ok = false).
   */
  async checkTrajectory(time: readonly number[], positions: JointRows): Promise<CheckTrajectoryResponse__Output> {
    return this.client.checkTrajectory({
      robot: this.ref,
      time: [...time],
      positions: flattenRows(positions, "CheckTrajectory"),
    });
  }

  /**
   * A trajectory of any spacing on a uniform grid of `sampleTime` from
   * time[0]: per joint the not-a-knot cubic spline through the samples
   * (exact for cubic motion), as rows of q, qd, qdd.
   */
  async resample(time: readonly number[], positions: JointRows, sampleTime: number): Promise<ResampledTrajectory> {
    const response = await this.client.resampleTrajectory({
      robot: this.ref,
      time: [...time],
      positions: flattenRows(positions, "ResampleTrajectory"),
      sample_time: sampleTime,
    });
    const n = response.time.length;
    const dof = n > 0 ? response.positions.length / n : 0;
    if (!Number.isInteger(dof)) {
      throw new MotionError({ code: grpcStatus.INTERNAL, details: `${response.positions.length} positions for ${n} grid times`, method: "ResampleTrajectory" });
    }
    return {
      time: response.time,
      q: splitRows(response.positions, dof),
      qd: splitRows(response.velocities, dof),
      qdd: splitRows(response.accelerations, dof),
      dof,
      sampleTime,
    };
  }

  /** Each joint vector against the position limits, one result per configuration in input order. */
  async checkJointLimits(configurations: ReadonlyArray<ReadonlyArray<number>>): Promise<JointLimitsResult__Output[]> {
    const response = await this.client.checkJointLimits({
      robot: this.ref,
      configurations: configurations.map((values) => ({ values: [...values] })),
    });
    return response.results;
  }

  /**
   * How close `joints` is to a singularity: the Jacobian's singular values
   * (at the flange, or `tool`), sigma_min against `threshold` (0 or absent:
   * the planner's 1e-3).
   */
  checkSingularity(joints: readonly number[], options: { tool?: Pose; threshold?: number } = {}): Promise<CheckSingularityResponse__Output> {
    return this.client.checkSingularity({
      robot: this.ref,
      joints: [...joints],
      tool: options.tool ?? null,
      threshold: options.threshold ?? 0,
    });
  }

  /** Validates many paths for this robot; answers in input order. */
  validate(
    paths: ReadonlyArray<{ requestId: string; path: RobotPath }>,
    options: ValidateOptions = {},
  ): Promise<ValidatePathResponse__Output[]> {
    return this.client.validatePaths(
      paths.map(({ requestId, path }) => ({ request_id: requestId, path: { ...path, robot: this.ref } })),
      options,
    );
  }
}
