// A real motiond for the tests: started on a free port (--listen=:0, the
// port read from its "listening on ... (port N)" log line, as
// bench/motiond_port.sh does), with no robots preloaded unless asked, and
// stopped with SIGTERM. Its log is kept so a test can count what the server
// itself saw (one "rpc method=... code=..." line per call at debug level).

import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

import { MOTIOND_BIN } from "./environment";

export interface MotiondOptions {
  /** Preload every *.urdf of this folder; default: an empty folder (a fresh replica). */
  robotsDir?: string;
  /** Fixed port instead of a free one. */
  port?: number;
  /** More motiond flags, e.g. "--max_trajectory_points=5000". */
  flags?: string[];
}

const START_TIMEOUT_MS = 15_000;

export class MotiondProcess {
  private readonly exited: Promise<number | null>;

  private constructor(
    private readonly child: ChildProcess,
    private readonly scratch: string,
    readonly port: number,
    private readonly output: { text: string },
  ) {
    this.exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
  }

  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  /** Everything the server logged so far. */
  get logText(): string {
    return this.output.text;
  }

  /**
   * Waits until the log has been quiet for `quietMs`: a call's log line is
   * written around when its answer is sent, and comes through another pipe,
   * so counts are read only once nothing more is arriving.
   */
  async logSettled(quietMs = 100, maxMs = 3000): Promise<void> {
    const started = Date.now();
    let length = -1;
    while (length !== this.output.text.length && Date.now() - started < maxMs) {
      length = this.output.text.length;
      await new Promise((resolve) => setTimeout(resolve, quietMs));
    }
  }

  /** Calls of `method` the server logged, by status code name ("OK", "NotFound", ...). */
  callsByCode(method: string): Map<string, number> {
    const counts = new Map<string, number>();
    for (const match of this.output.text.matchAll(new RegExp(`rpc method=${method} code=(\\w+)`, "g"))) {
      counts.set(match[1]!, (counts.get(match[1]!) ?? 0) + 1);
    }
    return counts;
  }

  /** Requests of `method` the server refused for a robot it lacks (its "robot not registered" lines). */
  robotRefusals(method: string): number {
    return [...this.output.text.matchAll(new RegExp(`robot not registered method=${method} `, "g"))].length;
  }

  static async start(options: MotiondOptions = {}): Promise<MotiondProcess> {
    const scratch = mkdtempSync(path.join(tmpdir(), "motiond-node-test-"));
    const args = [
      `--listen=127.0.0.1:${options.port ?? 0}`,
      "--metrics_listen=",
      `--robots_dir=${options.robotsDir ?? scratch}`,
      "--workers=2",
      "--log_level=debug",
      ...(options.flags ?? []),
    ];
    const child = spawn(MOTIOND_BIN, args, { stdio: ["ignore", "pipe", "pipe"] });
    const output = { text: "" };
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`motiond did not start in ${START_TIMEOUT_MS} ms:\n${output.text}`)),
        START_TIMEOUT_MS,
      );
      const onText = (data: Buffer): void => {
        output.text += data.toString("utf8");
        const match = /listening on .* \(port (\d+)\)/.exec(output.text);
        if (match) {
          clearTimeout(timer);
          resolve(Number(match[1]));
        }
      };
      child.stdout!.on("data", onText);
      child.stderr!.on("data", onText);
      child.once("error", (error) => {
        clearTimeout(timer);
        reject(new Error(`cannot run ${MOTIOND_BIN}: ${error.message}`));
      });
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`motiond exited (${code}) before listening:\n${output.text}`));
      });
    });
    return new MotiondProcess(child, scratch, port, output);
  }

  /** SIGKILL: the replica dies with its streams open, as a crashed pod does. */
  async kill(): Promise<void> {
    this.child.kill("SIGKILL");
    await this.exited;
  }

  /** SIGTERM, and the exit code (motiond exits 0 on a graceful shutdown). */
  async stop(): Promise<number | null> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill("SIGTERM");
    const code = await this.exited;
    rmSync(this.scratch, { recursive: true, force: true });
    return code;
  }
}
