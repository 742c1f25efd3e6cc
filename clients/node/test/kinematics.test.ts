// FK, IK and refused input against a real motiond, checked against numbers
// that do not come from motiond: the UR5's published zero pose
// (robots/README.md, "Reference forward kinematics": KDL and a separate
// Python FK agree, and it is the UR DH zero pose), a quaternion rotation
// done here, and FK of the IK answer reproducing the asked pose.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, test } from "node:test";

import { status } from "@grpc/grpc-js";

import { MotionError, type Pose } from "../src";
import { ROBOTS_DIR } from "./support/environment";
import { useUr5Server } from "./support/ur5_server";
import { positionDistance, rotationAngle } from "./support/pose_math";

// robots/README.md: ur5.urdf base_link -> tool0 at q = 0, rounded to 1e-6.
const UR5_ZERO_POSE: Pose = {
  position: { x: 0.81725, y: 0.19145, z: -0.005491 },
  orientation: { x: 0, y: 0.707107, z: 0.707107, w: 0 },
};
const README_ROUNDING = 1e-6; // the table's last digit, plus its own rounding

/** v rotated by the unit quaternion q (x, y, z, w): v + 2w(u x v) + 2u x (u x v). */
function rotate(q: { x: number; y: number; z: number; w: number }, v: [number, number, number]): [number, number, number] {
  const u: [number, number, number] = [q.x, q.y, q.z];
  const cross = (a: number[], b: number[]): [number, number, number] => [
    a[1]! * b[2]! - a[2]! * b[1]!,
    a[2]! * b[0]! - a[0]! * b[2]!,
    a[0]! * b[1]! - a[1]! * b[0]!,
  ];
  const t = cross(u, v).map((c) => 2 * c);
  const ut = cross(u, t);
  return [v[0] + q.w * t[0]! + ut[0], v[1] + q.w * t[1]! + ut[1], v[2] + q.w * t[2]! + ut[2]];
}

describe("kinematics", () => {
  const session = useUr5Server();

  test("UR5 FK at q = 0 is the published zero pose", async () => {
    const fk = await session.ur5.fk([0, 0, 0, 0, 0, 0]);
    const flange = fk.flange!;
    for (const axis of ["x", "y", "z"] as const) {
      assert.ok(
        Math.abs(flange.position![axis] - Number(UR5_ZERO_POSE.position![axis])) <= README_ROUNDING,
        `flange ${axis} = ${flange.position![axis]}, published ${UR5_ZERO_POSE.position![axis]}`,
      );
    }
    assert.ok(rotationAngle(flange, UR5_ZERO_POSE) <= 2 * README_ROUNDING, "flange orientation");
    assert.ok(positionDistance(fk.tcp!, flange) === 0 && rotationAngle(fk.tcp!, flange) === 0, "no tool: TCP = flange");
  });

  test("a tool moves the TCP along the flange's own z axis", async () => {
    const q = [0.2, -1.1, 1.3, -0.7, 1.2, 0.3];
    const tool: Pose = { position: { x: 0, y: 0, z: 0.15 }, orientation: { w: 1 } };
    const fk = await session.ur5.fk(q, { tool });
    const flange = fk.flange!;
    const offset = rotate(flange.orientation!, [0, 0, 0.15]);
    const expected = {
      position: { x: flange.position!.x + offset[0], y: flange.position!.y + offset[1], z: flange.position!.z + offset[2] },
    };
    assert.ok(positionDistance(fk.tcp!, expected) < 1e-12, "tcp = flange * tool");
    assert.ok(rotationAngle(fk.tcp!, flange) < 1e-12, "a pure translation keeps the orientation");
  });

  test("FK of ik(pose) reproduces the pose within 1e-6", async () => {
    const configurations = [
      [0.3, -1.2, 1.4, -0.8, 1.1, 0.4],
      [-1.0, -0.6, -1.9, 0.5, -0.7, 2.0],
      [2.2, -2.0, 0.9, -2.5, 1.6, -1.3],
    ];
    for (const q of configurations) {
      const target = (await session.ur5.fk(q)).tcp!;
      const ik = await session.ur5.ik(target);
      assert.equal(ik.ok, true, `IK of FK(${q}) solved (outcome ${ik.outcome})`);
      const reached = (await session.ur5.fk(ik.joints)).tcp!;
      assert.ok(positionDistance(reached, target) <= 1e-6, `position off by ${positionDistance(reached, target)} m`);
      assert.ok(rotationAngle(reached, target) <= 1e-6, `orientation off by ${rotationAngle(reached, target)} rad`);
    }
  });

  test("the same for a 7-DOF arm (Panda) from the mid-range seed", async () => {
    const panda = session.client.robot(readFileSync(path.join(ROBOTS_DIR, "panda.urdf"), "utf8"));
    const target = (await panda.fk([0.1, 0.3, -0.2, -1.8, 0.1, 1.9, 0.5])).tcp!;
    const ik = await panda.ik(target);
    assert.equal(ik.ok, true, `outcome ${ik.outcome}`);
    assert.equal(ik.joints.length, 7);
    const reached = (await panda.fk(ik.joints)).tcp!;
    assert.ok(positionDistance(reached, target) <= 1e-6);
    assert.ok(rotationAngle(reached, target) <= 1e-6);
  });

  test("an unreachable target is an answer (ok = false), not an error", async () => {
    const ik = await session.ur5.ik({ position: { x: 3, y: 0, z: 0.5 }, orientation: { w: 1 } });
    assert.equal(ik.ok, false);
    assert.equal(ik.outcome, "unreachable");
  });

  test("a wrong joint count is INVALID_ARGUMENT naming the field", async () => {
    await assert.rejects(session.ur5.fk([0, 0, 0]), (error: unknown) => {
      assert.ok(error instanceof MotionError);
      assert.equal(error.code, status.INVALID_ARGUMENT);
      assert.equal(error.codeName, "INVALID_ARGUMENT");
      assert.match(error.details, /^joints: expected 6 values/);
      assert.deepEqual(error.fields, ["joints"], "google.rpc.BadRequest names the field");
      assert.equal(error.method, "ComputeFk");
      return true;
    });
  });

  test("an unknown robot_id the client cannot re-send is NOT_FOUND with reason ROBOT_NOT_REGISTERED", async () => {
    const unknown = `sha256:${"0".repeat(64)}`;
    await assert.rejects(session.client.computeFk({ robot: { robot_id: unknown }, joints: [0, 0, 0, 0, 0, 0] }), (error: unknown) => {
      assert.ok(error instanceof MotionError);
      assert.equal(error.code, status.NOT_FOUND);
      assert.equal(error.reason, "ROBOT_NOT_REGISTERED");
      assert.equal(error.errorInfo[0]?.domain, "motion.v1");
      return true;
    });
  });
});
