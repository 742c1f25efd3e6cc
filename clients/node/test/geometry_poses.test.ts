// Geometry's pose operations against a real motiond, held to 4 x 4
// matrices computed here (test/support/matrix4.ts: the textbook quaternion
// matrix, elementary rotations for URDF's rpy R = Rz(yaw) Ry(pitch)
// Rx(roll), products), and a 90 degree roll written out by hand.

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";

import { status } from "@grpc/grpc-js";

import { MotionClient, MotionError, type Pose } from "../src";
import { IDENTITY, maxDifference, multiply, poseMatrix, quaternionMatrix, rotX, rotY, rotZ, translation } from "./support/matrix4";
import { MotiondProcess } from "./support/motiond_process";

const EXACT = 1e-12;
const DEG = Math.PI / 180;

/** A unit quaternion from an axis (normalised here) and an angle. */
function axisAngle(axis: [number, number, number], angle: number): { x: number; y: number; z: number; w: number } {
  const length = Math.hypot(...axis);
  const s = Math.sin(angle / 2) / length;
  return { x: axis[0] * s, y: axis[1] * s, z: axis[2] * s, w: Math.cos(angle / 2) };
}

/** Asserts a MotionError INVALID_ARGUMENT whose message starts with, and BadRequest names, `field`. */
function invalidArgument(field: string, method: string): (error: unknown) => boolean {
  return (error: unknown) => {
    assert.ok(error instanceof MotionError, String(error));
    assert.equal(error.code, status.INVALID_ARGUMENT, error.message);
    assert.equal(error.method, method);
    assert.ok(error.details.startsWith(`${field}: `), `"${error.details}" starts with "${field}: "`);
    assert.deepEqual(error.fields, [field]);
    return true;
  };
}

// Three poses, in three forms: a quaternion, rpy in radians, rpy in degrees.
const A: Pose = { position: { x: 0.4, y: -0.2, z: 0.9 }, orientation: axisAngle([1, 2, -0.5], 0.7) };
const B: Pose = { position: { x: -0.1, y: 0.3, z: 0.05 }, rpy: { roll: 0.3, pitch: -1.1, yaw: 2.4, unit: "RADIANS" } };
const C: Pose = { position: { x: 0.02, y: 0, z: 0.15 }, rpy: { roll: -170, pitch: 35, yaw: 80, unit: "DEGREES" } };
const MA = quaternionMatrix(A.orientation as { x: number; y: number; z: number; w: number }, { x: 0.4, y: -0.2, z: 0.9 });
const MB = multiply(translation({ x: -0.1, y: 0.3, z: 0.05 }), rotZ(2.4), rotY(-1.1), rotX(0.3));
const MC = multiply(translation({ x: 0.02, y: 0, z: 0.15 }), rotZ(80 * DEG), rotY(35 * DEG), rotX(-170 * DEG));

describe("Geometry poses", () => {
  let server: MotiondProcess;
  let client: MotionClient;

  before(async () => {
    server = await MotiondProcess.start();
    client = new MotionClient({ target: server.address });
  });
  after(async () => {
    client.close();
    assert.equal(await server.stop(), 0, "motiond exits 0 on SIGTERM");
  });

  test("convertPose of a 90 degree roll in degrees: quaternion (sin 45, 0, 0, cos 45) and the hand-written matrix", async () => {
    const p = { x: 0.1, y: -0.2, z: 0.3 };
    const roll90 = await client.convertPose({ pose: { position: p, rpy: { roll: 90, pitch: 0, yaw: 0, unit: "DEGREES" } }, rpy_unit: "DEGREES" });
    const q = roll90.pose!.orientation!;
    const s45 = Math.SQRT1_2;
    assert.ok(maxDifference([q.x, q.y, q.z, q.w], [s45, 0, 0, s45]) <= EXACT, JSON.stringify(q));
    // x stays, y turns into z, z into -y.
    // prettier-ignore
    const handWritten = [
      1, 0, 0, 0.1,
      0, 0, -1, -0.2,
      0, 1, 0, 0.3,
      0, 0, 0, 1,
    ];
    assert.ok(maxDifference(roll90.matrix!.values, handWritten) <= EXACT, `${roll90.matrix!.values}`);
    assert.deepEqual(roll90.pose!.position, p);
    const rpy = roll90.rpy!;
    assert.equal(rpy.unit, "DEGREES");
    assert.ok(maxDifference([rpy.roll, rpy.pitch, rpy.yaw], [90, 0, 0]) <= 1e-9, JSON.stringify(rpy));

    // And back: the matrix gives the same quaternion, the rpy in radians.
    const back = await client.convertPose({ matrix: { values: handWritten }, rpy_unit: "RADIANS" });
    const qb = back.pose!.orientation!;
    assert.ok(maxDifference([qb.x, qb.y, qb.z, qb.w], [s45, 0, 0, s45]) <= EXACT);
    assert.ok(maxDifference([back.rpy!.roll, back.rpy!.pitch, back.rpy!.yaw], [Math.PI / 2, 0, 0]) <= 1e-12);
  });

  test("convertPose of rpy in radians and degrees equals Rz(yaw) Ry(pitch) Rx(roll), quaternion with w >= 0", async () => {
    for (const [pose, truth] of [[B, MB], [C, MC]] as const) {
      const converted = await client.convertPose({ pose, rpy_unit: "RADIANS" });
      assert.ok(maxDifference(converted.matrix!.values, truth) <= EXACT, `${converted.matrix!.values}`);
      assert.ok(maxDifference(poseMatrix(converted.pose), truth) <= EXACT);
      assert.ok(converted.pose!.orientation!.w >= 0);
    }
  });

  test("composePoses equals the 4 x 4 matrix product", async () => {
    const composed = await client.composePoses([A, B, C]);
    assert.ok(maxDifference(poseMatrix(composed), multiply(MA, MB, MC)) <= EXACT);
    const one = await client.composePoses([B]);
    assert.ok(maxDifference(poseMatrix(one), MB) <= EXACT);
    const reversed = await client.composePoses([C, B, A]);
    assert.ok(maxDifference(poseMatrix(reversed), multiply(MC, MB, MA)) <= EXACT);
    assert.ok(maxDifference(multiply(MA, MB, MC), multiply(MC, MB, MA)) > 0.1, "the order matters here");
  });

  test("invertPose: T * T^-1 = T^-1 * T = I as matrix products", async () => {
    for (const [pose, m] of [[A, MA], [B, MB], [C, MC]] as const) {
      const inverse = poseMatrix(await client.invertPose(pose));
      assert.ok(maxDifference(multiply(m, inverse), IDENTITY) <= EXACT);
      assert.ok(maxDifference(multiply(inverse, m), IDENTITY) <= EXACT);
    }
    const composed = await client.composePoses([A, await client.invertPose(A)]);
    assert.ok(maxDifference(poseMatrix(composed), IDENTITY) <= EXACT);
  });

  test("applyToolAndFrame: tcp = frame * target, flange = frame * target * tool^-1", async () => {
    const answer = await client.applyToolAndFrame({ target: B, frame: A, tool: C });
    assert.ok(maxDifference(poseMatrix(answer.tcp), multiply(MA, MB)) <= EXACT);
    // flange * tool = tcp, so no inverse is computed here.
    assert.ok(maxDifference(multiply(poseMatrix(answer.flange), MC), multiply(MA, MB)) <= EXACT);
    const bare = await client.applyToolAndFrame({ target: B });
    assert.ok(maxDifference(poseMatrix(bare.tcp), MB) <= EXACT && maxDifference(poseMatrix(bare.flange), MB) <= EXACT);
  });

  test("applyOffset: TOOL axes is target * offset; WORLD axes turn about the target's origin (MotionSegment.OffsetFrame)", async () => {
    const tool = await client.applyOffset({ target: B, frame: A, offset: C, offset_frame: "TOOL" });
    assert.ok(maxDifference(poseMatrix(tool), multiply(MA, MB, MC)) <= EXACT);
    // WORLD, no frame: position + offset position, rotation R_offset * R_target.
    const world = await client.applyOffset({ target: B, offset: C, offset_frame: "WORLD" });
    const rotationOnly = (m: number[]) => m.map((v, i) => (i % 4 === 3 && i < 12 ? 0 : v));
    const expected = multiply(translation({ x: -0.1 + 0.02, y: 0.3, z: 0.05 + 0.15 }), rotationOnly(MC), rotationOnly(MB));
    assert.ok(maxDifference(poseMatrix(world), expected) <= EXACT);
  });

  test("bad input is INVALID_ARGUMENT naming the field: NaN, zero quaternion, missing angle unit", async () => {
    const identity = { w: 1 };
    await assert.rejects(
      client.convertPose({ pose: { position: { x: NaN, y: 0, z: 0 }, orientation: identity }, rpy_unit: "RADIANS" }),
      invalidArgument("pose.position", "ConvertPose"),
    );
    await assert.rejects(
      client.invertPose({ position: { x: 0, y: 0, z: 0 }, orientation: { x: 0, y: NaN, z: 0, w: 1 } }),
      invalidArgument("pose.orientation", "InvertPose"),
    );
    await assert.rejects(
      client.composePoses([A, { position: { x: 1, y: 0, z: 0 }, rpy: { roll: 0, pitch: NaN, yaw: 0, unit: "RADIANS" } }]),
      invalidArgument("poses[1].rpy.pitch", "ComposePoses"),
    );
    await assert.rejects(
      client.composePoses([A, { position: { x: 1, y: 0, z: 0 }, orientation: { x: 0, y: 0, z: 0, w: 0 } }]),
      invalidArgument("poses[1].orientation", "ComposePoses"),
    );
    await assert.rejects(
      client.applyToolAndFrame({ target: A, tool: { position: { x: 0, y: 0, z: 0.1 }, orientation: { x: 0, y: 0, z: 0, w: 0 } } }),
      invalidArgument("tool.orientation", "ApplyToolAndFrame"),
    );
    // Angles never guessed: an rpy without its unit, and an answer's rpy without one.
    await assert.rejects(
      client.convertPose({ pose: { position: { x: 0, y: 0, z: 0 }, rpy: { roll: 90, pitch: 0, yaw: 0 } }, rpy_unit: "DEGREES" }),
      invalidArgument("pose.rpy.unit", "ConvertPose"),
    );
    // (The type requires rpy_unit; an untyped caller is refused by the server.)
    const untyped = { pose: A } as Parameters<MotionClient["convertPose"]>[0];
    await assert.rejects(client.convertPose(untyped), invalidArgument("rpy_unit", "ConvertPose"));
    await assert.rejects(
      client.applyOffset({ target: A, offset: { position: { x: 0, y: 0, z: 0 }, rpy: { roll: 0, pitch: 0, yaw: 45 } } }),
      invalidArgument("offset.rpy.unit", "ApplyOffset"),
    );
    // Degrees sent as radians are caught (more than a turn).
    await assert.rejects(
      client.invertPose({ position: { x: 0, y: 0, z: 0 }, rpy: { roll: 90, pitch: 0, yaw: 0, unit: "RADIANS" } }),
      invalidArgument("pose.rpy.roll", "InvertPose"),
    );
  });
});
