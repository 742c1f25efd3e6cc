// UNAVAILABLE (a replica going away, a connection not up yet) is retried
// with exponential backoff: every motiond call is idempotent (robots are
// content-addressed, computations pure), so repeating one is always safe.

import { status as GrpcStatus } from "@grpc/grpc-js";

import { MotionError } from "./errors";

export interface RetrySettings {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  initialBackoffMs: number;
  maxBackoffMs: number;
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `attempt` until it succeeds, fails with anything but UNAVAILABLE,
 * `canRetry` says no (a stream already delivered messages), the attempts
 * are used up, or the next try would start past `deadline` (ms since epoch).
 */
export async function retryUnavailable<T>(
  settings: RetrySettings,
  deadline: number,
  attempt: () => Promise<T>,
  onRetry: () => void,
  canRetry: () => boolean = () => true,
): Promise<T> {
  let backoff = settings.initialBackoffMs;
  for (let attemptNumber = 1; ; ++attemptNumber) {
    try {
      return await attempt();
    } catch (error) {
      const retryable =
        error instanceof MotionError &&
        error.code === GrpcStatus.UNAVAILABLE &&
        attemptNumber < settings.maxAttempts &&
        Date.now() + backoff < deadline &&
        canRetry();
      if (!retryable) throw error;
      onRetry();
      await sleep(backoff);
      backoff = Math.min(backoff * 2, settings.maxBackoffMs);
    }
  }
}
