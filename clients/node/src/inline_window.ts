// After a refusal, send that robot (scene) inline for a while. Behind a
// round-robin balancer the re-send itself may land on another replica and
// the calls that follow reach the rest, so every replica that lacks it
// learns it from one call instead of refusing every call that lands on it.

export class InlineWindow {
  private readonly until = new Map<string, number>();

  constructor(
    private readonly durationMs: number,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** Starts (or extends) the window for `id`. */
  refusedNow(id: string): void {
    this.until.set(id, this.now() + this.durationMs);
  }

  /** True while a recent refusal says some replica may lack `id`. */
  active(id: string): boolean {
    const until = this.until.get(id);
    if (until === undefined) return false;
    if (this.now() < until) return true;
    this.until.delete(id);
    return false;
  }
}
