// Counters of what the client did on the caller's behalf, so a caller (and
// a test) can see the re-send rule and the retries at work.

export type RefusedKind = "robot" | "scene";

export interface Refusal {
  kind: RefusedKind;
  /** The robot_id or scene_id the server did not have. */
  id: string;
  method: string;
  /** The server that refused ("ipv4:127.0.0.1:50051"), when grpc-js knows it. */
  peer: string;
}

export class CallStats {
  readonly refusals: Refusal[] = [];
  /** Attempts repeated because a server was UNAVAILABLE. */
  unavailableRetries = 0;
  /** ValidatePath streams opened again because one broke. */
  validateStreamsReopened = 0;
  /** The most ValidatePath requests ever outstanding on one stream. */
  validatePeakInFlight = 0;

  recordRefusal(refusal: Refusal): void {
    this.refusals.push(refusal);
  }

  /** Refusals per server address: at most one per replica is the design. */
  refusalsByPeer(kind?: RefusedKind): Map<string, number> {
    const counts = new Map<string, number>();
    for (const refusal of this.refusals) {
      if (kind !== undefined && refusal.kind !== kind) continue;
      counts.set(refusal.peer, (counts.get(refusal.peer) ?? 0) + 1);
    }
    return counts;
  }
}
