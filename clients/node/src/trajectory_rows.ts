// Joint trajectories between the shapes a caller holds and the wire's:
// rows of DOF values per sample (as PlannedPath.q) or one flat row-major
// array (as TrajectoryChunk.positions) go out flat; answers come back as
// rows. Ragged rows are refused here, before anything is sent: once
// flattened they could add up to the right count and shift every joint.

import { status as GrpcStatus } from "@grpc/grpc-js";

import { MotionError } from "./errors";

/** Joint vectors: one row of DOF values per sample, or all of them flat, row-major. */
export type JointRows = ReadonlyArray<ReadonlyArray<number>> | ReadonlyArray<number>;

function refused(method: string, field: string, description: string): MotionError {
  return new MotionError({
    code: GrpcStatus.INVALID_ARGUMENT,
    details: `${field}: ${description}`,
    method,
    fieldViolations: [{ field, description }],
  });
}

/**
 * `positions` flat and row-major. Rows must all be as long as the first;
 * otherwise INVALID_ARGUMENT naming `field[k]` (a MotionError like the
 * server's, with no peer: nothing was sent).
 */
export function flattenRows(positions: JointRows, method: string, field = "positions"): number[] {
  if (positions.length === 0) return [];
  const rowsGiven = Array.isArray(positions[0]);
  const flat: number[] = [];
  let width = -1;
  (positions as ReadonlyArray<number | ReadonlyArray<number>>).forEach((entry, k) => {
    if (Array.isArray(entry) !== rowsGiven) {
      throw refused(method, `${field}[${k}]`, "mixes joint rows and single values; give rows, or one flat row-major array");
    }
    if (!rowsGiven) {
      flat.push(entry as number);
      return;
    }
    const row = entry as ReadonlyArray<number>;
    if (width < 0) width = row.length;
    if (row.length !== width) {
      throw refused(method, `${field}[${k}]`, `${row.length} values, but ${field}[0] has ${width}`);
    }
    for (const value of row) flat.push(value);
  });
  return flat;
}

/** A flat row-major array as rows of `dof` values. */
export function splitRows(flat: readonly number[], dof: number): number[][] {
  const rows: number[][] = [];
  if (dof <= 0) return rows;
  for (let i = 0; i < flat.length; i += dof) rows.push(flat.slice(i, i + dof));
  return rows;
}

/** ResampleTrajectory's answer as rows, like PlannedPath. */
export interface ResampledTrajectory {
  /** The new uniform grid, s: time[0] of the request, then every sampleTime. */
  time: number[];
  /** Positions, velocities, accelerations of the spline: one row of `dof` values per grid time. */
  q: number[][];
  qd: number[][];
  qdd: number[][];
  dof: number;
  sampleTime: number;
}
