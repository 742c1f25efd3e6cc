// 4 x 4 homogeneous transforms done here, by the textbook formulas, as the
// truth the Geometry answers are held to: a unit quaternion's rotation
// matrix, elementary rotations about X, Y, Z, products and comparisons.
// Row-major number[16], as motion.v1.Matrix4.

export type Matrix4 = number[];

interface Xyz {
  x: number;
  y: number;
  z: number;
}
interface Xyzw extends Xyz {
  w: number;
}

export const IDENTITY: Matrix4 = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

/** [R p; 0 1] from a 3 x 3 row-major R and a translation. */
export function fromRotation(r: readonly number[], p: Xyz = { x: 0, y: 0, z: 0 }): Matrix4 {
  return [r[0]!, r[1]!, r[2]!, p.x, r[3]!, r[4]!, r[5]!, p.y, r[6]!, r[7]!, r[8]!, p.z, 0, 0, 0, 1];
}

/** The rotation of the unit quaternion q (normalised here first). */
export function quaternionMatrix(q: Xyzw, p?: Xyz): Matrix4 {
  const s = Math.hypot(q.x, q.y, q.z, q.w);
  const [x, y, z, w] = [q.x / s, q.y / s, q.z / s, q.w / s];
  return fromRotation(
    [
      1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w),
      2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
      2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y),
    ],
    p,
  );
}

export function rotX(a: number): Matrix4 {
  const [c, s] = [Math.cos(a), Math.sin(a)];
  return fromRotation([1, 0, 0, 0, c, -s, 0, s, c]);
}
export function rotY(a: number): Matrix4 {
  const [c, s] = [Math.cos(a), Math.sin(a)];
  return fromRotation([c, 0, s, 0, 1, 0, -s, 0, c]);
}
export function rotZ(a: number): Matrix4 {
  const [c, s] = [Math.cos(a), Math.sin(a)];
  return fromRotation([c, -s, 0, s, c, 0, 0, 0, 1]);
}
export function translation(p: Xyz): Matrix4 {
  return fromRotation([1, 0, 0, 0, 1, 0, 0, 0, 1], p);
}

/** a * b * ... */
export function multiply(...matrices: Matrix4[]): Matrix4 {
  return matrices.reduce((a, b) => {
    const out = new Array<number>(16).fill(0);
    for (let i = 0; i < 4; ++i) {
      for (let j = 0; j < 4; ++j) {
        for (let k = 0; k < 4; ++k) out[4 * i + j]! += a[4 * i + k]! * b[4 * k + j]!;
      }
    }
    return out;
  }, IDENTITY);
}

/** A pose answer (quaternion orientation) as a matrix. */
export function poseMatrix(pose: { position: Xyz | null; orientation: Xyzw | null } | null | undefined): Matrix4 {
  if (!pose?.position || !pose.orientation) throw new Error("pose without position or orientation");
  return quaternionMatrix(pose.orientation, pose.position);
}

/** Largest entry-wise difference. */
export function maxDifference(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) return Infinity;
  return a.reduce((worst, v, i) => Math.max(worst, Math.abs(v - b[i]!)), 0);
}
