// The motiond client: every RPC of motion.v1, with the rules that make
// stateless replicas interchangeable (the same as clients/motion_client.h):
//  - robots (scenes) the client knows are sent by robot_id (scene_id) only;
//  - NOT_FOUND with ErrorInfo ROBOT_NOT_REGISTERED (SCENE_NOT_REGISTERED)
//    re-sends the call once with the URDF (scene) inline, and for
//    `inlineAfterRefusalMs` afterwards every call naming it carries it
//    inline, so each replica behind a round-robin balancer refuses it once;
//  - UNAVAILABLE is retried with exponential backoff (all calls are idempotent).
// Geometry's pose operations and Info name no robot: they are retried only.

import * as grpc from "@grpc/grpc-js";

import { CallStats } from "./call_stats";
import { createChannel, type ChannelSettings } from "./channel";
import { sceneIdFor } from "./content_ids";
import { isRobotNotRegistered, isSceneNotRegistered, MotionError, toMotionError } from "./errors";
import type { AngleUnit } from "./generated/motion/v1/AngleUnit";
import type { ApplyOffsetRequest } from "./generated/motion/v1/ApplyOffsetRequest";
import type { ApplyToolAndFrameRequest } from "./generated/motion/v1/ApplyToolAndFrameRequest";
import type { ApplyToolAndFrameResponse__Output } from "./generated/motion/v1/ApplyToolAndFrameResponse";
import type { CheckCollisionRequest } from "./generated/motion/v1/CheckCollisionRequest";
import type { CheckCollisionResponse__Output } from "./generated/motion/v1/CheckCollisionResponse";
import type { CheckJointLimitsRequest } from "./generated/motion/v1/CheckJointLimitsRequest";
import type { CheckJointLimitsResponse__Output } from "./generated/motion/v1/CheckJointLimitsResponse";
import type { CheckReachabilityRequest } from "./generated/motion/v1/CheckReachabilityRequest";
import type { CheckReachabilityResponse__Output } from "./generated/motion/v1/CheckReachabilityResponse";
import type { CheckSingularityRequest } from "./generated/motion/v1/CheckSingularityRequest";
import type { ComputeProfileRequest } from "./generated/motion/v1/ComputeProfileRequest";
import type { ComputeProfileResponse__Output } from "./generated/motion/v1/ComputeProfileResponse";
import type { CheckSingularityResponse__Output } from "./generated/motion/v1/CheckSingularityResponse";
import type { CheckTrajectoryRequest } from "./generated/motion/v1/CheckTrajectoryRequest";
import type { CheckTrajectoryResponse__Output } from "./generated/motion/v1/CheckTrajectoryResponse";
import type { ComposePosesRequest } from "./generated/motion/v1/ComposePosesRequest";
import type { ComputeFkRequest } from "./generated/motion/v1/ComputeFkRequest";
import type { ComputeFkResponse__Output } from "./generated/motion/v1/ComputeFkResponse";
import type { ComputeIkRequest } from "./generated/motion/v1/ComputeIkRequest";
import type { ComputeJacobianRequest } from "./generated/motion/v1/ComputeJacobianRequest";
import type { ComputeJacobianResponse__Output } from "./generated/motion/v1/ComputeJacobianResponse";
import type { ConvertPoseRequest } from "./generated/motion/v1/ConvertPoseRequest";
import type { ConvertPoseResponse__Output } from "./generated/motion/v1/ConvertPoseResponse";
import type { GeometryClient } from "./generated/motion/v1/Geometry";
import type { GetRobotRequest } from "./generated/motion/v1/GetRobotRequest";
import type { GetServerInfoRequest } from "./generated/motion/v1/GetServerInfoRequest";
import type { GetServerInfoResponse__Output } from "./generated/motion/v1/GetServerInfoResponse";
import type { InfoClient } from "./generated/motion/v1/Info";
import type { InvertPoseRequest } from "./generated/motion/v1/InvertPoseRequest";
import type { IkResult__Output } from "./generated/motion/v1/IkResult";
import type { JointLimitOverride } from "./generated/motion/v1/JointLimitOverride";
import type { KinematicsClient } from "./generated/motion/v1/Kinematics";
import type { ListRobotsRequest } from "./generated/motion/v1/ListRobotsRequest";
import type { ListRobotsResponse__Output } from "./generated/motion/v1/ListRobotsResponse";
import type { MeshFile } from "./generated/motion/v1/MeshFile";
import type { MotionPlannerClient } from "./generated/motion/v1/MotionPlanner";
import type { PlanPathRequest } from "./generated/motion/v1/PlanPathRequest";
import type { PlanPathResponse__Output } from "./generated/motion/v1/PlanPathResponse";
import type { Pose, Pose__Output } from "./generated/motion/v1/Pose";
import type { PoseResponse__Output } from "./generated/motion/v1/PoseResponse";
import type { RegisterRobotRequest } from "./generated/motion/v1/RegisterRobotRequest";
import type { RegisterRobotResponse__Output } from "./generated/motion/v1/RegisterRobotResponse";
import type { RegisterSceneRequest } from "./generated/motion/v1/RegisterSceneRequest";
import type { RegisterSceneResponse__Output } from "./generated/motion/v1/RegisterSceneResponse";
import type { ResampleTrajectoryRequest } from "./generated/motion/v1/ResampleTrajectoryRequest";
import type { ResampleTrajectoryResponse__Output } from "./generated/motion/v1/ResampleTrajectoryResponse";
import type { RobotInfo__Output } from "./generated/motion/v1/RobotInfo";
import type { RobotRef } from "./generated/motion/v1/RobotRef";
import type { RobotRegistryClient } from "./generated/motion/v1/RobotRegistry";
import type { Scene } from "./generated/motion/v1/Scene";
import type { SceneRef } from "./generated/motion/v1/SceneRef";
import type { ValidatePathRequest } from "./generated/motion/v1/ValidatePathRequest";
import type { ValidatePathResponse__Output } from "./generated/motion/v1/ValidatePathResponse";
import type { HealthClient } from "./generated/grpc/health/v1/Health";
import type { HealthCheckRequest } from "./generated/grpc/health/v1/HealthCheckRequest";
import type { HealthCheckResponse__Output } from "./generated/grpc/health/v1/HealthCheckResponse";
import { InlineWindow } from "./inline_window";
import { KnownContent } from "./known_content";
import { validatePaths, type ValidateOptions } from "./path_validation";
import { PlanCollector, type PlannedPath } from "./plan_collector";
import { loadMotionProtos } from "./proto_loading";
import { retryUnavailable, type RetrySettings } from "./retry";
import { Robot, type ChainSelection } from "./robot";

export interface ClientOptions extends Partial<ChannelSettings> {
  /** Deadline of one call in ms, its retries and re-sends included [10000]. */
  timeoutMs?: number;
  /** Attempts per call on UNAVAILABLE, the first included [4]. */
  maxAttempts?: number;
  /** Backoff before the first retry, doubled each time up to maxBackoffMs [50, 1000]. */
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /** How long after a refusal a robot (scene) is sent inline [5000]. */
  inlineAfterRefusalMs?: number;
  /** Folder of the motion/v1 protos (default: MOTIOND_PROTO_DIR, else the repository's proto/). */
  protoDir?: string;
}

type UnaryMethod<Req, Res> = (
  request: Req,
  options: grpc.CallOptions,
  callback: grpc.requestCallback<Res>,
) => grpc.ClientUnaryCall;

/** One unary call as a promise; errors become MotionError with the answering peer. */
function callUnary<Req, Res>(method: string, start: UnaryMethod<Req, Res>, request: Req, deadline: number): Promise<Res> {
  return new Promise<Res>((resolve, reject) => {
    const call: grpc.ClientUnaryCall = start(request, { deadline }, (error, response) => {
      if (error) reject(toMotionError(error, method, call.getPeer()));
      else if (response === undefined) reject(new MotionError({ code: grpc.status.INTERNAL, details: "no response", method }));
      else resolve(response);
    });
  });
}

/** Requests that name a robot, and maybe a scene. */
interface RobotRequest {
  robot?: RobotRef | null;
  scene?: SceneRef | null;
}

/** PoseResponse.pose, which the server always sets. */
function answeredPose(pose: Pose__Output | null, method: string): Pose__Output {
  if (!pose) throw new MotionError({ code: grpc.status.INTERNAL, details: "the answer holds no pose", method });
  return pose;
}

export class MotionClient {
  readonly stats = new CallStats();
  private readonly channel: grpc.Channel;
  private readonly registry: RobotRegistryClient;
  private readonly kinematics: KinematicsClient;
  private readonly planner: MotionPlannerClient;
  private readonly geometry: GeometryClient;
  private readonly info: InfoClient;
  private readonly health: HealthClient;
  private readonly known = new KnownContent();
  private readonly inline: InlineWindow;
  private readonly timeoutMs: number;
  private readonly retry: RetrySettings;
  private readonly limitsByRobot = new Map<string, JointLimitOverride[]>();

  constructor(options: ClientOptions = {}) {
    const { protos } = loadMotionProtos(options.protoDir);
    this.channel = createChannel({ ...options, target: options.target ?? "127.0.0.1:50051" });
    // Every stub on one channel: one connection per replica, not one per service.
    const shared = { channelOverride: this.channel };
    const v1 = protos.motion.v1;
    this.registry = new v1.RobotRegistry("", grpc.credentials.createInsecure(), shared);
    this.kinematics = new v1.Kinematics("", grpc.credentials.createInsecure(), shared);
    this.planner = new v1.MotionPlanner("", grpc.credentials.createInsecure(), shared);
    this.geometry = new v1.Geometry("", grpc.credentials.createInsecure(), shared);
    this.info = new v1.Info("", grpc.credentials.createInsecure(), shared);
    this.health = new protos.grpc.health.v1.Health("", grpc.credentials.createInsecure(), shared);
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.retry = {
      maxAttempts: Math.max(1, options.maxAttempts ?? 4),
      initialBackoffMs: options.initialBackoffMs ?? 50,
      maxBackoffMs: options.maxBackoffMs ?? 1000,
    };
    this.inline = new InlineWindow(options.inlineAfterRefusalMs ?? 5000);
  }

  /** Closes the channel; calls in flight fail with CANCELLED/UNAVAILABLE. */
  close(): void {
    this.channel.close();
  }

  // ---- robots and scenes the client can re-send ----

  /** Remembers a URDF (and its collision meshes) and returns its robot_id; no call is made. */
  addRobot(urdf: string, meshes: MeshFile[] = []): string {
    return this.known.addRobot(urdf, meshes);
  }

  /** Remembers a scene and returns its scene_id (computed locally, as the server does). */
  addScene(scene: Scene): string {
    return this.known.addScene(scene, sceneIdFor(scene));
  }

  /** A handle for one robot's chain: FK, IK, plans and validations by robot_id. */
  robot(urdf: string, chain: ChainSelection = {}, meshes: MeshFile[] = []): Robot {
    return new Robot(this, this.addRobot(urdf, meshes), chain);
  }

  /**
   * The robot's real joint limits, attached to every PlanPath, ValidatePath
   * and CheckTrajectory request for `robotId` that carries none of its own.
   * An empty list clears them.
   */
  setJointLimits(robotId: string, limits: JointLimitOverride[]): void {
    if (limits.length === 0) this.limitsByRobot.delete(robotId);
    else this.limitsByRobot.set(robotId, [...limits]);
  }

  // ---- RobotRegistry ----

  async registerRobot(urdf: string, meshes: MeshFile[] = []): Promise<RegisterRobotResponse__Output> {
    this.addRobot(urdf, meshes);
    return this.unary("RegisterRobot", (r: RegisterRobotRequest, o, cb: grpc.requestCallback<RegisterRobotResponse__Output>) => this.registry.RegisterRobot(r, o, cb), { urdf, meshes });
  }

  async registerScene(scene: Scene): Promise<RegisterSceneResponse__Output> {
    const response = await this.unary("RegisterScene", (r: RegisterSceneRequest, o, cb: grpc.requestCallback<RegisterSceneResponse__Output>) => this.registry.RegisterScene(r, o, cb), { scene });
    this.known.addScene(scene, response.scene_id);
    return response;
  }

  /** RobotInfo; a robot this client knows is registered first when the server lacks it. */
  async getRobot(request: GetRobotRequest): Promise<RobotInfo__Output> {
    const get = (r: GetRobotRequest, o: grpc.CallOptions, cb: grpc.requestCallback<RobotInfo__Output>) => this.registry.GetRobot(r, o, cb);
    try {
      return await this.unary("GetRobot", get, request);
    } catch (error) {
      const known = this.known.robot(request.robot_id ?? "");
      if (!(error instanceof MotionError) || !isRobotNotRegistered(error) || !known) throw error;
      this.stats.recordRefusal({ kind: "robot", id: request.robot_id ?? "", method: "GetRobot", peer: error.peer });
      await this.registerRobot(known.urdf, known.meshes);
      return this.unary("GetRobot", get, request);
    }
  }

  async listRobots(): Promise<ListRobotsResponse__Output> {
    return this.unary("ListRobots", (r: ListRobotsRequest, o, cb: grpc.requestCallback<ListRobotsResponse__Output>) => this.registry.ListRobots(r, o, cb), {});
  }

  // ---- Kinematics ----

  async computeFk(request: ComputeFkRequest): Promise<ComputeFkResponse__Output> {
    return this.callWithRobot("ComputeFk", (r: ComputeFkRequest, o, cb: grpc.requestCallback<ComputeFkResponse__Output>) => this.kinematics.ComputeFk(r, o, cb), request);
  }

  /** IK; an unreachable target is an answer (ok = false, outcome says why), not an error. */
  async computeIk(request: ComputeIkRequest): Promise<IkResult__Output> {
    return this.callWithRobot("ComputeIk", (r: ComputeIkRequest, o, cb: grpc.requestCallback<IkResult__Output>) => this.kinematics.ComputeIk(r, o, cb), request);
  }

  async computeJacobian(request: ComputeJacobianRequest): Promise<ComputeJacobianResponse__Output> {
    return this.callWithRobot("ComputeJacobian", (r: ComputeJacobianRequest, o, cb: grpc.requestCallback<ComputeJacobianResponse__Output>) =>
      this.kinematics.ComputeJacobian(r, o, cb), request);
  }

  async checkReachability(request: CheckReachabilityRequest): Promise<CheckReachabilityResponse__Output> {
    return this.callWithRobot("CheckReachability", (r: CheckReachabilityRequest, o, cb: grpc.requestCallback<CheckReachabilityResponse__Output>) =>
      this.kinematics.CheckReachability(r, o, cb), request);
  }

  async checkCollision(request: CheckCollisionRequest): Promise<CheckCollisionResponse__Output> {
    return this.callWithRobot("CheckCollision", (r: CheckCollisionRequest, o, cb: grpc.requestCallback<CheckCollisionResponse__Output>) =>
      this.kinematics.CheckCollision(r, o, cb), request);
  }

  // ---- MotionPlanner ----

  /**
   * Streams a PlanPath call into `onMessage`. Re-sends (URDF, UNAVAILABLE)
   * happen only while the server has sent nothing, so no message is
   * delivered twice.
   */
  async planPath(request: PlanPathRequest, onMessage: (message: PlanPathResponse__Output) => void): Promise<void> {
    const sent = this.withOwnRefs(request);
    this.attachJointLimits(sent.robot!);
    let received = false;
    await this.sendWithRefs(
      "PlanPath",
      sent,
      (deadline) =>
        new Promise<void>((resolve, reject) => {
          const call = this.planner.PlanPath(sent, { deadline });
          let settled = false;
          call.on("data", (message: PlanPathResponse__Output) => {
            if (settled) return;
            received = true;
            try {
              onMessage(message);
            } catch (error) {
              settled = true;
              call.cancel();
              reject(error);
            }
          });
          call.on("error", (error) => {
            if (settled) return;
            settled = true;
            reject(toMotionError(error, "PlanPath", call.getPeer()));
          });
          call.on("end", () => {
            if (settled) return;
            settled = true;
            resolve();
          });
        }),
      () => !received,
    );
  }

  /** A whole PlanPath stream collected into arrays (PlannedPath). */
  async plan(request: PlanPathRequest): Promise<PlannedPath> {
    const collector = new PlanCollector();
    await this.planPath(request, (message) => collector.add(message));
    return collector.result();
  }

  /**
   * Validates many paths over ValidatePath streams: answers in the order of
   * `requests`, each delivered once (options.onResponse as they come).
   */
  async validatePaths(
    requests: readonly ValidatePathRequest[],
    options: ValidateOptions = {},
  ): Promise<ValidatePathResponse__Output[]> {
    const withLimits = requests.map((request) => {
      const path: PlanPathRequest = { ...(request.path ?? {}) };
      path.robot = { ...(path.robot ?? {}) };
      this.attachJointLimits(path.robot);
      return { ...request, path };
    });
    return validatePaths({ planner: this.planner, known: this.known, stats: this.stats }, withLimits, options);
  }

  // ---- Geometry: a robot's trajectories and joint vectors (re-sent like Kinematics) ----

  /**
   * A joint trajectory from anywhere audited as the planner audits its own
   * (README "Trajectories from elsewhere"); limits broken are diagnostics
   * (ok = false), not errors. setJointLimits' limits are attached.
   */
  async checkTrajectory(request: CheckTrajectoryRequest): Promise<CheckTrajectoryResponse__Output> {
    return this.callWithRobot("CheckTrajectory", (r: CheckTrajectoryRequest, o, cb: grpc.requestCallback<CheckTrajectoryResponse__Output>) =>
      this.geometry.CheckTrajectory(r, o, cb), request, { attachJointLimits: true });
  }

  /** A trajectory of any spacing on a uniform grid: the not-a-knot cubic spline per joint, with its velocities and accelerations. */
  async resampleTrajectory(request: ResampleTrajectoryRequest): Promise<ResampleTrajectoryResponse__Output> {
    return this.callWithRobot("ResampleTrajectory", (r: ResampleTrajectoryRequest, o, cb: grpc.requestCallback<ResampleTrajectoryResponse__Output>) =>
      this.geometry.ResampleTrajectory(r, o, cb), request);
  }

  async checkJointLimits(request: CheckJointLimitsRequest): Promise<CheckJointLimitsResponse__Output> {
    return this.callWithRobot("CheckJointLimits", (r: CheckJointLimitsRequest, o, cb: grpc.requestCallback<CheckJointLimitsResponse__Output>) =>
      this.geometry.CheckJointLimits(r, o, cb), request);
  }

  async checkSingularity(request: CheckSingularityRequest): Promise<CheckSingularityResponse__Output> {
    return this.callWithRobot("CheckSingularity", (r: CheckSingularityRequest, o, cb: grpc.requestCallback<CheckSingularityResponse__Output>) =>
      this.geometry.CheckSingularity(r, o, cb), request);
  }

  // ---- Geometry: poses (no robot; the server's conventions, so nobody re-implements them) ----

  /**
   * One pose in every form: quaternion (normalised, w >= 0), roll/pitch/yaw
   * in `rpy_unit` (required: RADIANS or DEGREES) and the row-major 4 x 4
   * matrix. Give `pose` (quaternion or rpy with its unit) or `matrix`.
   */
  async convertPose(request: ConvertPoseRequest & { rpy_unit: AngleUnit }): Promise<ConvertPoseResponse__Output> {
    return this.unary("ConvertPose", (r: ConvertPoseRequest, o, cb: grpc.requestCallback<ConvertPoseResponse__Output>) => this.geometry.ConvertPose(r, o, cb), request);
  }

  /** poses[0] * poses[1] * ... (each pose given in the frame of the one before); 1 to 1000 poses. */
  async composePoses(poses: Pose[]): Promise<Pose__Output> {
    const response = await this.unary("ComposePoses", (r: ComposePosesRequest, o, cb: grpc.requestCallback<PoseResponse__Output>) =>
      this.geometry.ComposePoses(r, o, cb), { poses });
    return answeredPose(response.pose, "ComposePoses");
  }

  /** pose^-1. */
  async invertPose(pose: Pose): Promise<Pose__Output> {
    const response = await this.unary("InvertPose", (r: InvertPoseRequest, o, cb: grpc.requestCallback<PoseResponse__Output>) =>
      this.geometry.InvertPose(r, o, cb), { pose });
    return answeredPose(response.pose, "InvertPose");
  }

  /**
   * `target` in the work-object `frame` (base frame when absent) moved by
   * `offset` about the axes `offset_frame` names (WORLD, FRAME, TOOL), as
   * MotionSegment.offset moves it; the answer is in the base frame.
   */
  async applyOffset(request: ApplyOffsetRequest): Promise<Pose__Output> {
    const response = await this.unary("ApplyOffset", (r: ApplyOffsetRequest, o, cb: grpc.requestCallback<PoseResponse__Output>) =>
      this.geometry.ApplyOffset(r, o, cb), request);
    return answeredPose(response.pose, "ApplyOffset");
  }

  /** A TCP `target` in the work-object `frame` with a `tool` -> `tcp` = frame * target and `flange` = tcp * tool^-1 (what IK solves for). */
  async applyToolAndFrame(request: ApplyToolAndFrameRequest): Promise<ApplyToolAndFrameResponse__Output> {
    return this.unary("ApplyToolAndFrame", (r: ApplyToolAndFrameRequest, o, cb: grpc.requestCallback<ApplyToolAndFrameResponse__Output>) =>
      this.geometry.ApplyToolAndFrame(r, o, cb), request);
  }

  /**
   * One path parameter's profile exactly as the planner times a segment or
   * a MoveJ joint: phases (seven for JERK_LIMITED, three for TRAPEZOID),
   * peaks, and with `sample_time` the samples of s and its three rates.
   */
  async computeProfile(request: ComputeProfileRequest): Promise<ComputeProfileResponse__Output> {
    return this.unary("ComputeProfile", (r: ComputeProfileRequest, o, cb: grpc.requestCallback<ComputeProfileResponse__Output>) =>
      this.geometry.ComputeProfile(r, o, cb), request);
  }

  // ---- Info ----

  /** What the server is and enforces: versions, `capabilities` (stable words), every bound in `limits` with its flag, workers. */
  async serverInfo(): Promise<GetServerInfoResponse__Output> {
    return this.unary("GetServerInfo", (r: GetServerInfoRequest, o, cb: grpc.requestCallback<GetServerInfoResponse__Output>) => this.info.GetServerInfo(r, o, cb), {});
  }

  // ---- Health ----

  /** grpc.health.v1 status of `service` ("" = the server): "SERVING", "NOT_SERVING", ... */
  async checkHealth(service = ""): Promise<string> {
    const response = await this.unary("Check", (r: HealthCheckRequest, o, cb: grpc.requestCallback<HealthCheckResponse__Output>) => this.health.Check(r, o, cb), { service });
    return String(response.status);
  }

  // ---- the rules ----

  private deadline(): number {
    return Date.now() + this.timeoutMs;
  }

  /** A unary call without robot refs, retried on UNAVAILABLE. */
  private unary<Req, Res>(method: string, start: UnaryMethod<Req, Res>, request: Req): Promise<Res> {
    const deadline = this.deadline();
    return retryUnavailable(this.retry, deadline, () => callUnary(method, start, request, deadline), () => {
      this.stats.unavailableRetries += 1;
    });
  }

  private callWithRobot<Req extends RobotRequest, Res>(
    method: string,
    start: UnaryMethod<Req, Res>,
    request: Req,
    options: { attachJointLimits?: boolean } = {},
  ): Promise<Res> {
    const sent = this.withOwnRefs(request);
    if (options.attachJointLimits) this.attachJointLimits(sent.robot!);
    return this.sendWithRefs(method, sent, (deadline) => callUnary(method, start, sent, deadline));
  }

  /** A shallow copy whose robot and scene refs this client may fill in without touching the caller's. */
  private withOwnRefs<Req extends RobotRequest>(request: Req): Req {
    const copy: Req = { ...request, robot: { ...(request.robot ?? {}) } };
    if (request.scene) copy.scene = { ...request.scene };
    return copy;
  }

  /**
   * Sends `request` (whose refs are its own) as given, and again with the
   * URDF or the scene inline when the server lacks it and this client
   * knows it: at most three sends, each retried on UNAVAILABLE, all within
   * one deadline.
   */
  private async sendWithRefs<Req extends RobotRequest, Res>(
    method: string,
    request: Req,
    send: (deadline: number) => Promise<Res>,
    canResend: () => boolean = () => true,
  ): Promise<Res> {
    const robot = request.robot!;
    const scene = request.scene ?? null;
    // Inline from the start while a recent refusal says replicas may lack it.
    let robotAttached = this.inline.active(robot.robot_id ?? "") && this.known.attachRobot(robot);
    let sceneAttached = scene !== null && this.inline.active(scene.scene_id ?? "") && this.known.attachScene(scene);
    const deadline = this.deadline();
    for (;;) {
      try {
        return await retryUnavailable(this.retry, deadline, () => send(deadline), () => {
          this.stats.unavailableRetries += 1;
        }, canResend);
      } catch (error) {
        if (!(error instanceof MotionError) || !canResend()) throw error;
        if (!robotAttached && isRobotNotRegistered(error) && this.known.attachRobot(robot)) {
          robotAttached = true;
          this.refused("robot", robot.robot_id ?? "", method, error.peer);
          continue;
        }
        if (!sceneAttached && scene && isSceneNotRegistered(error) && this.known.attachScene(scene)) {
          sceneAttached = true;
          this.refused("scene", scene.scene_id ?? "", method, error.peer);
          continue;
        }
        throw error;
      }
    }
  }

  private refused(kind: "robot" | "scene", id: string, method: string, peer: string): void {
    this.inline.refusedNow(id);
    this.stats.recordRefusal({ kind, id, method, peer });
  }

  private attachJointLimits(robot: RobotRef): void {
    if (robot.joint_limits && robot.joint_limits.length > 0) return;
    const limits = this.limitsByRobot.get(robot.robot_id ?? "");
    if (limits) robot.joint_limits = limits;
  }
}
