// Collects a PlanPath stream (a header, trajectory chunks, a report per
// segment, a summary) into arrays a caller can plot or replay: time, q, qd,
// qdd (one row of DOF values per sample), TCP poses, segment reports and the
// path's diagnostics. The stream's own bookkeeping (chunk first_index,
// point counts) is checked, so a lost or reordered chunk is an error, not a
// silently shifted trajectory.

import type { Diagnostic__Output } from "./generated/motion/v1/Diagnostic";
import type { PlanPathHeader__Output } from "./generated/motion/v1/PlanPathHeader";
import type { PlanPathResponse__Output } from "./generated/motion/v1/PlanPathResponse";
import type { PlanPathSummary__Output } from "./generated/motion/v1/PlanPathSummary";
import type { Pose__Output } from "./generated/motion/v1/Pose";
import type { SegmentReport__Output } from "./generated/motion/v1/SegmentReport";
import type { TrajectoryChunk__Output } from "./generated/motion/v1/TrajectoryChunk";

export interface PlannedPath {
  /** False when a segment has an error diagnostic (the path may still be partly planned). */
  ok: boolean;
  /** Cycle time, s. */
  duration: number;
  robotId: string;
  jointNames: string[];
  dof: number;
  sampleTime: number;
  /** Seconds from the path start, one per sample. */
  time: number[];
  /** Joint positions, velocities and accelerations: one row of `dof` values per sample. */
  q: number[][];
  qd: number[][];
  qdd: number[][];
  /** TCP pose per sample when the request asked for include_tcp, else empty. */
  tcp: Pose__Output[];
  /** One report per segment, in segment order. */
  segments: SegmentReport__Output[];
  /** The summary's diagnostics (each segment's own are in its report). */
  diagnostics: Diagnostic__Output[];
  header: PlanPathHeader__Output;
  summary: PlanPathSummary__Output;
}

/** Every diagnostic of a planned path: the summary's, then each segment's. */
export function allDiagnostics(path: PlannedPath): Diagnostic__Output[] {
  return [...path.diagnostics, ...path.segments.flatMap((segment) => segment.diagnostics)];
}

function rows(flat: readonly number[], dof: number): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < flat.length; i += dof) out.push(flat.slice(i, i + dof));
  return out;
}

export class PlanCollector {
  private header: PlanPathHeader__Output | null = null;
  private summary: PlanPathSummary__Output | null = null;
  private readonly time: number[] = [];
  private readonly q: number[][] = [];
  private readonly qd: number[][] = [];
  private readonly qdd: number[][] = [];
  private readonly tcp: Pose__Output[] = [];
  private readonly segments: SegmentReport__Output[] = [];

  /** Takes the stream's messages in order; throws on a stream that breaks the protocol. */
  add(message: PlanPathResponse__Output): void {
    switch (message.payload) {
      case "header":
        if (this.header) throw new Error("PlanPath stream: a second header");
        this.header = message.header!;
        break;
      case "chunk":
        this.addChunk(message.chunk!);
        break;
      case "segment_report":
        this.segments.push(message.segment_report!);
        break;
      case "summary":
        this.summary = message.summary!;
        break;
      default:
        throw new Error(`PlanPath stream: a message with no payload`);
    }
  }

  private addChunk(chunk: TrajectoryChunk__Output): void {
    const header = this.header;
    if (!header) throw new Error("PlanPath stream: a trajectory chunk before the header");
    if (this.summary) throw new Error("PlanPath stream: a trajectory chunk after the summary");
    const dof = header.dof;
    const n = chunk.time.length;
    if (chunk.first_index !== this.time.length) {
      throw new Error(`PlanPath stream: chunk starts at sample ${chunk.first_index}, expected ${this.time.length}`);
    }
    for (const [name, values] of [
      ["positions", chunk.positions],
      ["velocities", chunk.velocities],
      ["accelerations", chunk.accelerations],
    ] as const) {
      if (values.length !== n * dof) {
        throw new Error(`PlanPath stream: chunk ${name} has ${values.length} values for ${n} samples x ${dof} DOF`);
      }
    }
    if (chunk.tcp.length !== 0 && chunk.tcp.length !== n) {
      throw new Error(`PlanPath stream: chunk has ${chunk.tcp.length} TCP poses for ${n} samples`);
    }
    this.time.push(...chunk.time);
    this.q.push(...rows(chunk.positions, dof));
    this.qd.push(...rows(chunk.velocities, dof));
    this.qdd.push(...rows(chunk.accelerations, dof));
    this.tcp.push(...chunk.tcp);
  }

  /** The collected path; throws when the stream ended without its header or summary. */
  result(): PlannedPath {
    const { header, summary } = this;
    if (!header) throw new Error("PlanPath stream ended without a header");
    if (!summary) throw new Error("PlanPath stream ended without a summary");
    if (summary.point_count !== this.time.length) {
      throw new Error(`PlanPath stream: the summary counts ${summary.point_count} samples, ${this.time.length} arrived`);
    }
    return {
      ok: summary.ok,
      duration: summary.duration,
      robotId: header.robot_id,
      jointNames: header.joint_names,
      dof: header.dof,
      sampleTime: header.sample_time,
      time: this.time,
      q: this.q,
      qd: this.qd,
      qdd: this.qdd,
      tcp: this.tcp,
      segments: this.segments,
      diagnostics: summary.diagnostics,
      header,
      summary,
    };
  }
}
