// Fleet validation over ValidatePath: many programs on one bidirectional
// stream, each answered once. The rules, as the C++ client's ValidatePaths:
//  - at most `maxInFlight` requests are outstanding on a stream (the
//    server reads a bounded number too; the rest would wait in flow control);
//  - a request answered ROBOT_NOT_REGISTERED / SCENE_NOT_REGISTERED is
//    re-sent on the same stream with its URDF (scene) inline, and every
//    later request for that robot on that stream carries it too: one
//    stream talks to one replica, and that replica lacks it;
//  - when a stream breaks (a replica killed, a connection lost) the
//    requests not yet answered go out again on a new stream, which round
//    robin may put on another replica; an answer that arrives twice is
//    delivered once.

import * as grpc from "@grpc/grpc-js";

import { CallStats } from "./call_stats";
import { MotionError, ROBOT_NOT_REGISTERED, SCENE_NOT_REGISTERED, toMotionError } from "./errors";
import type { MotionPlannerClient } from "./generated/motion/v1/MotionPlanner";
import type { PlanPathRequest } from "./generated/motion/v1/PlanPathRequest";
import type { ValidatePathRequest } from "./generated/motion/v1/ValidatePathRequest";
import type { ValidatePathResponse__Output } from "./generated/motion/v1/ValidatePathResponse";
import { KnownContent } from "./known_content";
import { sleep } from "./retry";

export interface ValidateOptions {
  /** Requests outstanding per stream [32]. */
  maxInFlight?: number;
  /** Streams opened in all before giving up on what is still unanswered [8]. */
  maxStreams?: number;
  /** Deadline of each stream in ms; none by default (a fleet run may be long). */
  streamTimeoutMs?: number;
  /** Called once per request_id as its answer arrives (answers come in any order). */
  onResponse?: (response: ValidatePathResponse__Output) => void;
}

export interface ValidationContext {
  planner: MotionPlannerClient;
  known: KnownContent;
  stats: CallStats;
}

// Stream failures worth another stream; the others would fail again.
const FINAL_STREAM_CODES = new Set<number>([
  grpc.status.INVALID_ARGUMENT,
  grpc.status.UNIMPLEMENTED,
  grpc.status.PERMISSION_DENIED,
  grpc.status.UNAUTHENTICATED,
  grpc.status.FAILED_PRECONDITION,
  grpc.status.DEADLINE_EXCEEDED,
]);

/** A request with its own copies of the refs this client may fill in. */
function copyRequest(request: ValidatePathRequest): ValidatePathRequest {
  const path: PlanPathRequest = { ...(request.path ?? {}) };
  path.robot = { ...(path.robot ?? {}) };
  if (path.scene) path.scene = { ...path.scene };
  return { ...request, path };
}

interface StreamOutcome {
  progress: boolean;
  error: MotionError | null;
}

/**
 * Validates every request and returns the answers in the order of
 * `requests`. Request ids must be unique. Rejects with the last stream error
 * when `maxStreams` streams did not get every answer.
 */
export async function validatePaths(
  context: ValidationContext,
  requests: readonly ValidatePathRequest[],
  options: ValidateOptions = {},
): Promise<ValidatePathResponse__Output[]> {
  const maxInFlight = Math.max(1, options.maxInFlight ?? 32);
  const maxStreams = Math.max(1, options.maxStreams ?? 8);
  const byId = new Map<string, ValidatePathRequest>();
  for (const request of requests) {
    const id = request.request_id ?? "";
    if (byId.has(id)) {
      throw new MotionError({
        code: grpc.status.INVALID_ARGUMENT,
        details: `request_id '${id}' is used twice`,
        method: "ValidatePath",
      });
    }
    byId.set(id, request);
  }
  const answers = new Map<string, ValidatePathResponse__Output>();
  let lastError: MotionError | null = null;
  let backoffMs = 50;

  for (let stream = 0; stream < maxStreams && answers.size < byId.size; ++stream) {
    if (stream > 0) context.stats.validateStreamsReopened += 1;
    const round = requests.filter((r) => !answers.has(r.request_id ?? ""));
    const outcome = await runStream(context, round, answers, maxInFlight, options);
    lastError = outcome.error;
    if (answers.size === byId.size) break;
    if (lastError && FINAL_STREAM_CODES.has(lastError.code)) break;
    if (!outcome.progress) {
      await sleep(backoffMs);
      backoffMs = Math.min(backoffMs * 2, 2000);
    }
  }
  if (answers.size < byId.size) {
    throw (
      lastError ??
      new MotionError({
        code: grpc.status.UNAVAILABLE,
        details: `${byId.size - answers.size} requests unanswered`,
        method: "ValidatePath",
      })
    );
  }
  return requests.map((r) => answers.get(r.request_id ?? "")!);
}

/** One stream: sends `round`, records each first answer in `answers`. */
function runStream(
  context: ValidationContext,
  round: readonly ValidatePathRequest[],
  answers: Map<string, ValidatePathResponse__Output>,
  maxInFlight: number,
  options: ValidateOptions,
): Promise<StreamOutcome> {
  const metadata = new grpc.Metadata({ waitForReady: true }); // a replica may be (re)starting
  const callOptions: grpc.CallOptions = {};
  if (options.streamTimeoutMs !== undefined) callOptions.deadline = Date.now() + options.streamTimeoutMs;
  const call = context.planner.ValidatePath(metadata, callOptions);
  const inRound = new Map(round.map((r) => [r.request_id ?? "", r]));
  const missingHere = new Set<string>(); // robot and scene ids this replica lacks
  const resend: ValidatePathRequest[] = [];
  const resent = new Set<string>();
  let next = 0;
  let outstanding = 0;
  let writesDone = false;
  let progress = false;

  // Puts inline whatever of `path` this replica was found to lack.
  const attachMissingHere = (path: PlanPathRequest): void => {
    if (path.robot && missingHere.has(path.robot.robot_id ?? "")) context.known.attachRobot(path.robot);
    if (path.scene && missingHere.has(path.scene.scene_id ?? "")) context.known.attachScene(path.scene);
  };

  const pump = (): void => {
    while (outstanding < maxInFlight && (resend.length > 0 || next < round.length)) {
      let request: ValidatePathRequest;
      if (resend.length > 0) {
        request = resend.shift()!;
      } else {
        request = copyRequest(round[next++]!);
        attachMissingHere(request.path!);
      }
      outstanding += 1;
      context.stats.validatePeakInFlight = Math.max(context.stats.validatePeakInFlight, outstanding);
      call.write(request);
    }
    if (!writesDone && outstanding === 0 && resend.length === 0 && next >= round.length) {
      writesDone = true;
      call.end();
    }
  };

  // A refused request, again with what this replica lacks (null: nothing to add).
  const resendFor = (response: ValidatePathResponse__Output): ValidatePathRequest | null => {
    const reason = response.error_reason;
    if (reason !== ROBOT_NOT_REGISTERED && reason !== SCENE_NOT_REGISTERED) return null;
    if (resent.has(response.request_id)) return null; // refused with the URDF too: a real answer
    const again = copyRequest(inRound.get(response.request_id)!);
    const path = again.path!;
    const isRobot = reason === ROBOT_NOT_REGISTERED;
    const attached = isRobot ? context.known.attachRobot(path.robot!) : !!path.scene && context.known.attachScene(path.scene);
    if (!attached) return null;
    const id = isRobot ? path.robot!.robot_id ?? "" : path.scene!.scene_id ?? "";
    missingHere.add(id);
    attachMissingHere(path);
    context.stats.recordRefusal({ kind: isRobot ? "robot" : "scene", id, method: "ValidatePath", peer: call.getPeer() });
    resent.add(response.request_id);
    return again;
  };

  return new Promise<StreamOutcome>((resolve, reject) => {
    let settled = false;
    const settle = (error: MotionError | null): void => {
      if (settled) return;
      settled = true;
      resolve({ progress, error });
    };
    call.on("data", (response: ValidatePathResponse__Output) => {
      if (settled) return;
      outstanding -= 1;
      const id = response.request_id;
      // Not of this round: a late duplicate of an answer already delivered.
      if (inRound.has(id) && !answers.has(id)) {
        const again = resendFor(response);
        if (again) {
          resend.push(again); // its real answer comes with the re-send
        } else {
          answers.set(id, response);
          progress = true;
          try {
            options.onResponse?.(response);
          } catch (error) {
            // The caller's callback failed: stop, and let it see its own error.
            settled = true;
            call.cancel();
            reject(error);
            return;
          }
        }
      }
      pump();
    });
    call.on("error", (error) => settle(toMotionError(error, "ValidatePath", call.getPeer())));
    call.on("end", () => settle(null));
    pump();
  });
}
