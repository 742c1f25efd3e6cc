// @motiond/client: the TypeScript client of motiond (motion.v1 over gRPC).

export { MotionClient, type ClientOptions } from "./motion_client";
export { Robot, type ChainSelection, type RobotPath } from "./robot";
export { PlanCollector, allDiagnostics, type PlannedPath } from "./plan_collector";
export { flattenRows, splitRows, type JointRows, type ResampledTrajectory } from "./trajectory_rows";
export type { ValidateOptions } from "./path_validation";
export { CallStats, type Refusal, type RefusedKind } from "./call_stats";
export {
  MotionError,
  toMotionError,
  grpcCodeName,
  isRobotNotRegistered,
  isSceneNotRegistered,
  ERROR_DOMAIN,
  ROBOT_NOT_REGISTERED,
  SCENE_NOT_REGISTERED,
} from "./errors";
export { decodeStatusDetails, type ErrorInfo, type FieldViolation, type StatusDetails } from "./status_details";
export { robotIdFor, sceneIdFor, contentId } from "./content_ids";
export { resolveTarget } from "./channel";
export { readProgramFile, planPathRequestFromJson, findProgramUrdf, programRequest, type ProgramFile } from "./program_file";
export { defaultProtoDir } from "./proto_loading";

// The message types, generated from proto/ by proto-loader-gen-types:
// `Foo` is what a request may hold, `Foo__Output` what an answer holds.
export type * from "./generated/motion/v1/Pose";
export type * from "./generated/motion/v1/Vector3";
export type * from "./generated/motion/v1/Quaternion";
export type * from "./generated/motion/v1/RobotRef";
export type * from "./generated/motion/v1/SceneRef";
export type * from "./generated/motion/v1/Scene";
export type * from "./generated/motion/v1/Diagnostic";
export type * from "./generated/motion/v1/IkOptions";
export type * from "./generated/motion/v1/IkResult";
export type * from "./generated/motion/v1/ComputeFkResponse";
export type * from "./generated/motion/v1/ComputeJacobianResponse";
export type * from "./generated/motion/v1/PlanPathRequest";
export type * from "./generated/motion/v1/PlanPathResponse";
export type * from "./generated/motion/v1/MotionSegment";
export type * from "./generated/motion/v1/SegmentReport";
export type * from "./generated/motion/v1/ValidatePathRequest";
export type * from "./generated/motion/v1/ValidatePathResponse";
export type * from "./generated/motion/v1/RobotInfo";
export type * from "./generated/motion/v1/JointLimitOverride";
export type * from "./generated/motion/v1/Rpy";
export type * from "./generated/motion/v1/AngleUnit";
export type * from "./generated/motion/v1/Matrix4";
export type * from "./generated/motion/v1/CheckTrajectoryRequest";
export type * from "./generated/motion/v1/CheckTrajectoryResponse";
export type * from "./generated/motion/v1/ResampleTrajectoryRequest";
export type * from "./generated/motion/v1/ResampleTrajectoryResponse";
export type * from "./generated/motion/v1/CheckJointLimitsRequest";
export type * from "./generated/motion/v1/CheckJointLimitsResponse";
export type * from "./generated/motion/v1/JointLimitsResult";
export type * from "./generated/motion/v1/JointLimitState";
export type * from "./generated/motion/v1/CheckSingularityRequest";
export type * from "./generated/motion/v1/CheckSingularityResponse";
export type * from "./generated/motion/v1/ConvertPoseRequest";
export type * from "./generated/motion/v1/ConvertPoseResponse";
export type * from "./generated/motion/v1/ApplyOffsetRequest";
export type * from "./generated/motion/v1/ApplyToolAndFrameRequest";
export type * from "./generated/motion/v1/ApplyToolAndFrameResponse";
export type * from "./generated/motion/v1/GetServerInfoResponse";
export type * from "./generated/motion/v1/ServerLimit";
export type * from "./generated/motion/v1/ComputeProfileRequest";
export type * from "./generated/motion/v1/ComputeProfileResponse";
export type * from "./generated/motion/v1/ProfilePhase";
export type * from "./generated/motion/v1/ReachabilityTarget";
export type * from "./generated/motion/v1/RobotConfiguration";
