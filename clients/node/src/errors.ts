// One error type for every failed motiond call: the gRPC code, the server's
// message (which for INVALID_ARGUMENT starts with the field path), and the
// google.rpc details decoded from the trailer. A motion that cannot be done
// is not an error (the answer says ok = false); this is for refused calls.

import { Metadata, status as GrpcStatus } from "@grpc/grpc-js";
import type { ServiceError } from "@grpc/grpc-js";

import {
  decodeStatusDetails,
  STATUS_DETAILS_TRAILER,
  type ErrorInfo,
  type FieldViolation,
} from "./status_details";

/** google.rpc.ErrorInfo.domain of every motiond error. */
export const ERROR_DOMAIN = "motion.v1";
export const ROBOT_NOT_REGISTERED = "ROBOT_NOT_REGISTERED";
export const SCENE_NOT_REGISTERED = "SCENE_NOT_REGISTERED";

/** "INVALID_ARGUMENT" for 3, and so on (grpc-js's own enum names). */
export function grpcCodeName(code: number): string {
  return (GrpcStatus as unknown as Record<number, string>)[code] ?? `CODE_${code}`;
}

export class MotionError extends Error {
  /** gRPC status code (grpc.status.INVALID_ARGUMENT, ...). */
  readonly code: number;
  /** The code's name, e.g. "INVALID_ARGUMENT". */
  readonly codeName: string;
  /** The server's message as sent (without the "3 INVALID_ARGUMENT:" prefix grpc-js adds). */
  readonly details: string;
  /** google.rpc.ErrorInfo.reason of the first motion.v1 ErrorInfo, or "". */
  readonly reason: string;
  readonly errorInfo: ErrorInfo[];
  /** google.rpc.BadRequest field violations: which fields were wrong. */
  readonly fieldViolations: FieldViolation[];
  /** google.rpc.RetryInfo, when the server said when to come back. */
  readonly retryDelayMs?: number;
  /** The RPC that failed, e.g. "ComputeFk". */
  readonly method: string;
  /** The server that answered ("127.0.0.1:50051"), when grpc-js knows it. */
  readonly peer: string;

  constructor(init: {
    code: number;
    details: string;
    method: string;
    peer?: string;
    errorInfo?: ErrorInfo[];
    fieldViolations?: FieldViolation[];
    retryDelayMs?: number;
  }) {
    const codeName = grpcCodeName(init.code);
    super(`${init.method} failed: ${codeName}: ${init.details}`);
    this.name = "MotionError";
    this.code = init.code;
    this.codeName = codeName;
    this.details = init.details;
    this.method = init.method;
    this.peer = init.peer ?? "";
    this.errorInfo = init.errorInfo ?? [];
    this.fieldViolations = init.fieldViolations ?? [];
    if (init.retryDelayMs !== undefined) this.retryDelayMs = init.retryDelayMs;
    this.reason = this.errorInfo.find((info) => info.domain === ERROR_DOMAIN)?.reason ?? "";
  }

  /** The fields the server named (BadRequest), e.g. ["joints"]. */
  get fields(): string[] {
    return this.fieldViolations.map((violation) => violation.field);
  }
}

function isServiceError(error: unknown): error is ServiceError {
  return (
    error instanceof Error &&
    typeof (error as Partial<ServiceError>).code === "number" &&
    (error as Partial<ServiceError>).metadata instanceof Metadata
  );
}

/**
 * Turns whatever a grpc-js call rejected with into a MotionError. Details
 * that do not decode are dropped rather than hiding the real error.
 */
export function toMotionError(error: unknown, method: string, peer = ""): MotionError {
  if (error instanceof MotionError) return error;
  if (!isServiceError(error)) {
    return new MotionError({
      code: GrpcStatus.UNKNOWN,
      details: error instanceof Error ? error.message : String(error),
      method,
      peer,
    });
  }
  const init: ConstructorParameters<typeof MotionError>[0] = {
    code: error.code,
    details: error.details,
    method,
    peer,
  };
  const [raw] = error.metadata.get(STATUS_DETAILS_TRAILER);
  if (raw instanceof Buffer) {
    try {
      const decoded = decodeStatusDetails(raw);
      init.errorInfo = decoded.errorInfo;
      init.fieldViolations = decoded.fieldViolations;
      if (decoded.retryDelayMs !== undefined) init.retryDelayMs = decoded.retryDelayMs;
    } catch {
      // A trailer we cannot read still leaves the code and message.
    }
  }
  return new MotionError(init);
}

/** NOT_FOUND with ErrorInfo{reason: ROBOT_NOT_REGISTERED, domain: motion.v1}. */
export function isRobotNotRegistered(error: MotionError): boolean {
  return error.code === GrpcStatus.NOT_FOUND && error.reason === ROBOT_NOT_REGISTERED;
}

/** NOT_FOUND with ErrorInfo{reason: SCENE_NOT_REGISTERED, domain: motion.v1}. */
export function isSceneNotRegistered(error: MotionError): boolean {
  return error.code === GrpcStatus.NOT_FOUND && error.reason === SCENE_NOT_REGISTERED;
}
