// Pose comparisons for the tests: positions by Euclidean distance,
// orientations by the rotation angle between two unit quaternions (q and -q
// are the same rotation).

export interface PoseLike {
  position?: { x?: number | string; y?: number | string; z?: number | string } | null;
  orientation?: { x?: number | string; y?: number | string; z?: number | string; w?: number | string } | null;
}

const n = (v: number | string | undefined): number => Number(v ?? 0);

export function positionDistance(a: PoseLike, b: PoseLike): number {
  const pa = a.position ?? {};
  const pb = b.position ?? {};
  return Math.hypot(n(pa.x) - n(pb.x), n(pa.y) - n(pb.y), n(pa.z) - n(pb.z));
}

function unit(q: PoseLike["orientation"]): number[] {
  const v = [n(q?.x), n(q?.y), n(q?.z), n(q?.w)];
  const length = Math.hypot(...v);
  return v.map((c) => c / length);
}

/** Angle of the rotation between two orientations, rad (2 atan2(|a-b|, |a+b|): exact near 0, unlike acos). */
export function rotationAngle(a: PoseLike, b: PoseLike): number {
  const qa = unit(a.orientation);
  let qb = unit(b.orientation);
  if (qa.reduce((sum, c, i) => sum + c * qb[i]!, 0) < 0) qb = qb.map((c) => -c);
  const difference = Math.hypot(...qa.map((c, i) => c - qb[i]!));
  const sum = Math.hypot(...qa.map((c, i) => c + qb[i]!));
  return 2 * Math.atan2(difference, sum);
}
