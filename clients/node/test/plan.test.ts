// A planned program against what must hold whatever the planner does: the
// samples sit on the uniform grid k x sample_time, the returned velocities
// are the derivative of the returned positions (central divided
// differences, within the Taylor bound for the documented jerk limit),
// every joint stays within the velocity limit written in the URDF (read
// here with a regex, not by the server), and the TCP of a MoveL lies on
// its straight line.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { after, before, describe, test } from "node:test";

import { MotionClient, programRequest, readProgramFile, type PlannedPath } from "../src";
import { EXAMPLES_DIR, ROBOTS_DIR } from "./support/environment";
import { MotiondProcess } from "./support/motiond_process";
import { positionDistance } from "./support/pose_math";
import { urdfVelocityLimits } from "./support/urdf_limits";

// README "Joint limits": max acceleration is what the effort allows, at most
// 10 x max velocity per second (2 x without the URDF's dynamics); max jerk =
// 10 x max acceleration per second. So jerk <= 100 x max velocity.
const JERK_PER_VELOCITY = 100;

describe("PlanPath collected into arrays (clients/examples/ur5_glue_path.json)", () => {
  let server: MotiondProcess;
  let client: MotionClient;
  let plan: PlannedPath;
  const velocityLimit = urdfVelocityLimits(readFileSync(path.join(ROBOTS_DIR, "ur5.urdf"), "utf8"));
  const program = readProgramFile(path.join(EXAMPLES_DIR, "ur5_glue_path.json"));

  before(async () => {
    server = await MotiondProcess.start();
    client = new MotionClient({ target: server.address });
    const request = programRequest(program, client, [ROBOTS_DIR], EXAMPLES_DIR);
    plan = await client.plan({ ...request, include_tcp: true, max_chunk_points: 100 });
  });
  after(async () => {
    client.close();
    await server.stop();
  });

  test("the plan succeeded and every array has one entry per sample", () => {
    assert.equal(plan.ok, true, JSON.stringify(plan.diagnostics));
    const n = plan.time.length;
    assert.ok(n > 1000, `${n} samples`);
    assert.equal(plan.dof, 6);
    for (const rows of [plan.q, plan.qd, plan.qdd]) {
      assert.equal(rows.length, n);
      assert.ok(rows.every((row) => row.length === 6));
    }
    assert.equal(plan.tcp.length, n);
    assert.deepEqual(
      plan.segments.map((s) => s.segment_id),
      program.request.segments!.map((s) => s.id),
    );
  });

  test("the time grid is uniform at sample_time", () => {
    const dt = Number(program.request.sample_time);
    assert.equal(plan.sampleTime, dt);
    plan.time.forEach((t, k) => assert.ok(Math.abs(t - k * dt) <= 1e-9, `sample ${k} at ${t}, grid ${k * dt}`));
    assert.ok(Math.abs(plan.duration - (plan.time.length - 1) * dt) <= 1e-9, "cycle time = last sample time");
  });

  test("velocities agree with divided differences of positions", () => {
    const dt = plan.sampleTime;
    let fastest = 0;
    for (let j = 0; j < plan.dof; ++j) {
      const vmax = velocityLimit.get(plan.jointNames[j]!)!;
      // |(q(t+h) - q(t-h)) / 2h - q'(t)| <= h^2/6 max|q'''|, here at most the jerk limit.
      const bound = ((dt * dt) / 6) * JERK_PER_VELOCITY * vmax * 1.1 + 1e-9;
      for (let k = 1; k + 1 < plan.time.length; ++k) {
        const difference = (plan.q[k + 1]![j]! - plan.q[k - 1]![j]!) / (2 * dt);
        const error = Math.abs(difference - plan.qd[k]![j]!);
        fastest = Math.max(fastest, Math.abs(plan.qd[k]![j]!));
        assert.ok(error <= bound, `${plan.jointNames[j]} sample ${k}: qd ${plan.qd[k]![j]}, divided difference ${difference}`);
      }
    }
    assert.ok(fastest > 0.5, `the check is not vacuous: joints move (fastest ${fastest} rad/s)`);
    const last = plan.time.length - 1;
    assert.ok(plan.qd[0]!.every((v) => v === 0) && plan.qd[last]!.every((v) => v === 0), "starts and ends at rest");
  });

  test("every joint stays within the velocity limit of the URDF", () => {
    assert.equal(velocityLimit.size >= 6, true);
    for (let j = 0; j < plan.dof; ++j) {
      const name = plan.jointNames[j]!;
      const vmax = velocityLimit.get(name);
      assert.ok(vmax !== undefined && vmax > 0, `${name} has a <limit velocity> in ur5.urdf`);
      for (let k = 0; k < plan.time.length; ++k) {
        assert.ok(Math.abs(plan.qd[k]![j]!) <= vmax * (1 + 1e-9), `${name} at sample ${k}: ${plan.qd[k]![j]} rad/s`);
        if (k > 0) {
          const rate = Math.abs(plan.q[k]![j]! - plan.q[k - 1]![j]!) / plan.sampleTime;
          assert.ok(rate <= vmax * (1 + 1e-6), `${name} between samples ${k - 1} and ${k}: ${rate} rad/s`);
        }
      }
    }
  });

  test("the MoveL 'edge' keeps the TCP on its straight line and ends on its target", () => {
    const index = program.request.segments!.findIndex((s) => s.id === "edge");
    const report = plan.segments[index]!;
    const start = program.request.segments![index - 1]!.movel!.target!.position!;
    const end = program.request.segments![index]!.movel!.target!.position!;
    const a = [Number(start.x), Number(start.y), Number(start.z)];
    const b = [Number(end.x), Number(end.y), Number(end.z)];
    const direction = b.map((c, i) => c - a[i]!);
    const length = Math.hypot(...direction);
    for (let k = report.first_index; k < report.first_index + report.point_count; ++k) {
      const p = plan.tcp[k]!.position!;
      const relative = [p.x - a[0]!, p.y - a[1]!, p.z - a[2]!];
      const along = relative.reduce((sum, c, i) => sum + (c * direction[i]!) / length, 0);
      const off = Math.hypot(...relative.map((c, i) => c - (along * direction[i]!) / length));
      assert.ok(off <= 1e-5, `sample ${k} is ${off} m off the line (path tolerance 1e-5 m)`);
    }
    const lastOfEdge = plan.tcp[report.first_index + report.point_count - 1]!;
    assert.ok(positionDistance(lastOfEdge, { position: end }) <= 1e-6, "the segment ends on its target");
  });

  test("the TCP poses are FK of the positions", async () => {
    for (const k of [0, 777, plan.time.length - 1]) {
      const fk = await client.computeFk({ robot: { robot_id: plan.robotId }, joints: plan.q[k]! });
      assert.ok(positionDistance(fk.tcp!, plan.tcp[k]!) <= 1e-9, `sample ${k}`);
    }
  });
});
