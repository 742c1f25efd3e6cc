// Work-object frames on FK, IK and CheckReachability, per-target ids and
// seeds, the nearest pose of an unreachable target, and ComputeProfile,
// against a real motiond. Independent truth: 4 x 4 products computed here
// (test/support/matrix4.ts) and the published double-S example 3.9 of
// Biagiotti & Melchiorri, "Trajectory Planning for Automatic Machines and
// Robots" (2008).

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { type Pose } from "../src";
import { maxDifference, multiply, poseMatrix, rotZ, translation } from "./support/matrix4";
import { useUr5Server } from "./support/ur5_server";

const Q = [0.4, -1.1, 1.3, -0.6, 1.2, 0.3];
const FRAME_MATRIX = multiply(translation({ x: 0.3, y: -0.2, z: 0.1 }), rotZ(0.7));
const FRAME: Pose = {
  position: { x: 0.3, y: -0.2, z: 0.1 },
  orientation: { x: 0, y: 0, z: Math.sin(0.35), w: Math.cos(0.35) },
};

describe("frames, reachability targets and profiles", () => {
  const session = useUr5Server();

  test("FK in a frame: frame * tcp_in_frame is the base-frame TCP", async () => {
    const fk = await session.ur5.fk(Q, { frame: FRAME });
    assert.ok(fk.tcp_in_frame, "tcp_in_frame answered");
    const back = multiply(FRAME_MATRIX, poseMatrix(fk.tcp_in_frame));
    assert.ok(maxDifference(back, poseMatrix(fk.tcp)) < 1e-9);
  });

  test("IK of a target in a frame reaches it", async () => {
    const inFrame = (await session.ur5.fk(Q, { frame: FRAME })).tcp_in_frame!;
    const solution = await session.ur5.ik(inFrame, { seed: Q, frame: FRAME });
    assert.ok(solution.ok, solution.outcome);
    const reached = await session.ur5.fk(solution.joints, { frame: FRAME });
    assert.ok(maxDifference(poseMatrix(reached.tcp_in_frame), poseMatrix(inFrame)) < 1e-5);
  });

  test("targets carry ids and seeds; an unreachable one has its nearest pose in the frame", async () => {
    const pose = (await session.ur5.fk(Q)).tcp!;
    const all = await session.ur5.ik(pose, { seed: Q, ik: { mode: "ALL" } });
    assert.ok(all.solutions.length >= 4);
    const other = all.solutions[2]!.joints;
    const far: Pose = { position: { x: 3, y: 0.5, z: 0.4 }, orientation: { x: 0, y: 0, z: 0, w: 1 } };
    const results = await session.ur5.reachability(
      [
        { id: "by_seed", pose, seed: other },
        { id: "far", pose: far },
      ],
      { seed: Q },
    );
    assert.deepEqual(
      results.map((r) => r.id),
      ["by_seed", "far"],
    );
    assert.ok(results[0]!.ok);
    assert.ok(maxDifference(results[0]!.joints, other) < 1e-6, "the target's own seed wins");
    assert.equal(results[0]!.nearest_pose, null);

    const [unreachable] = await session.ur5.reachability([far], { frame: FRAME });
    assert.equal(unreachable!.ok, false);
    const tcp = (await session.ur5.fk(unreachable!.joints)).tcp;
    const back = multiply(FRAME_MATRIX, poseMatrix(unreachable!.nearest_pose));
    assert.ok(maxDifference(back, poseMatrix(tcp)) < 1e-9);
  });

  test("ComputeProfile matches Biagiotti's example 3.9", async () => {
    // q1 - q0 = 10, v0 = 1, vmax = 5, amax = 10, jmax = 30: Ta = 0.7333,
    // Tv = 1.1433, Td = 0.8333, T = 2.7100.
    const p = await session.client.computeProfile({
      profile: "JERK_LIMITED",
      length: 10,
      max_velocity: 5,
      max_acceleration: 10,
      max_jerk: 30,
      start_velocity: 1,
      sample_time: 0.01,
    });
    assert.ok(Math.abs(p.duration - 2.71) < 1e-4, String(p.duration));
    const cruise = p.phases.find((ph) => ph.name === "cruise")!;
    assert.ok(Math.abs(cruise.duration - 1.1433) < 1e-4);
    assert.ok(Math.abs(cruise.start_time - 0.7333) < 1e-4);
    assert.equal(p.position.at(-1), 10);
    assert.equal(p.time.length, p.velocity.length);
  });
});
