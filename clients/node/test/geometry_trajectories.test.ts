// Geometry's robot calls and Info against a real motiond started with
// --max_trajectory_points=5000, checked against truth from outside the
// server: the planner's own samples (which its audit passed), the velocity
// limit written in the URDF (read here by regex), a cubic polynomial and
// its derivatives evaluated here, the URDF's position limits, the flag the
// test itself passed, and the server's own log for the re-send rule.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { after, before, describe, test } from "node:test";

import { status } from "@grpc/grpc-js";

import { MotionClient, MotionError, programRequest, readProgramFile, type PlannedPath, type Robot } from "../src";
import { EXAMPLES_DIR, ROBOTS_DIR } from "./support/environment";
import { MotiondProcess } from "./support/motiond_process";
import { urdfPositionLimits, urdfVelocityLimits } from "./support/urdf_limits";

const MAX_TRAJECTORY_POINTS = 5000; // above the glue path's 3263 samples
const UR5 = readFileSync(path.join(ROBOTS_DIR, "ur5.urdf"), "utf8");
const HOME = [0, -1.5708, 1.5708, -1.5708, -1.5708, 0];
// How the server's log names a Geometry method (a regex for callsByCode):
// today in full, "motion.v1.Geometry/CheckTrajectory"; the short name too.
const logged = (method: string): string => `(?:motion\\.v1\\.Geometry/)?${method}`;

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

describe("Geometry trajectories and Info (motiond --max_trajectory_points=5000)", () => {
  let server: MotiondProcess;
  let client: MotionClient;
  let ur5: Robot;
  let plan: PlannedPath;
  const velocityLimit = urdfVelocityLimits(UR5);

  before(async () => {
    server = await MotiondProcess.start({ flags: [`--max_trajectory_points=${MAX_TRAJECTORY_POINTS}`] });
    client = new MotionClient({ target: server.address });
    ur5 = client.robot(UR5);
    const program = readProgramFile(path.join(EXAMPLES_DIR, "ur5_glue_path.json"));
    plan = await client.plan(programRequest(program, client, [ROBOTS_DIR], EXAMPLES_DIR));
    assert.equal(plan.ok, true, "the glue path plans");
  });
  after(async () => {
    client.close();
    assert.equal(await server.stop(), 0, "motiond exits 0 on SIGTERM");
  });

  test("serverInfo reports the --max_trajectory_points the server was started with, and enforces it", async () => {
    const info = await client.serverInfo();
    const limit = info.limits.find((l) => l.name === "max_trajectory_points");
    assert.ok(limit, `limits: ${info.limits.map((l) => l.name).join(", ")}`);
    assert.equal(limit.value, MAX_TRAJECTORY_POINTS);
    assert.equal(limit.flag, "--max_trajectory_points");
    assert.equal(limit.unit, "samples");
    assert.equal(info.workers, 2, "--workers=2, as the test started it");
    for (const word of ["trajectory_check", "trajectory_resampling"]) assert.ok(info.capabilities.includes(word), word);
    assert.match(info.version, /\d/);

    const n = MAX_TRAJECTORY_POINTS + 1;
    const time = Array.from({ length: n }, (_, k) => k * 0.004);
    await assert.rejects(ur5.checkTrajectory(time, time.map(() => HOME)), invalidArgument("time", "CheckTrajectory"));
  });

  test("the plan's own samples pass checkTrajectory", async () => {
    const check = await ur5.checkTrajectory(plan.time, plan.q);
    assert.equal(check.ok, true, JSON.stringify(check.diagnostics));
    assert.deepEqual(check.diagnostics, []);
    assert.ok(Math.abs(check.sample_time - plan.sampleTime) <= 1e-12, `sample_time ${check.sample_time}`);
    assert.ok(Math.abs(check.cycle_time - plan.duration) <= 1e-9, `cycle_time ${check.cycle_time}, plan ${plan.duration}`);
    // The plan moves (ratios not vacuous) and stays within every limit.
    assert.ok(check.max_joint_velocity_ratio > 0.3 && check.max_joint_velocity_ratio <= 1 + 1e-6, `${check.max_joint_velocity_ratio}`);
    assert.ok(check.max_joint_acceleration_ratio <= 1 + 1e-6 && check.max_joint_jerk_ratio <= 1 + 1e-6);
  });

  test("one sample moved past the URDF velocity limit is named by joint and point index", async () => {
    const dt = plan.sampleTime;
    // The fastest joint at its fastest sample (mid-motion, so the moved
    // sample's other difference is slowed, not sped up).
    let j = 0;
    let k = 1;
    for (let jj = 0; jj < plan.dof; ++jj) {
      for (let kk = 1; kk + 1 < plan.time.length; ++kk) {
        if (Math.abs(plan.qd[kk]![jj]!) > Math.abs(plan.qd[k]![j]!)) [j, k] = [jj, kk];
      }
    }
    const name = plan.jointNames[j]!;
    const vmax = velocityLimit.get(name)!;
    assert.ok(vmax > 0, `${name} has a <limit velocity> in ur5.urdf`);
    const direction = Math.sign(plan.qd[k]![j]!);
    const q = plan.q.map((row) => [...row]);
    q[k]![j] = q[k - 1]![j]! + direction * 1.5 * vmax * dt;

    // The truth, computed here: the first divided differences of joint j,
    // at rest before the first and after the last sample.
    const column = q.map((row) => row[j]!);
    const at = (i: number): number => column[Math.min(Math.max(i, 0), column.length - 1)]!;
    const over: number[] = [];
    for (let i = 0; i <= column.length; ++i) {
      if (Math.abs(at(i) - at(i - 1)) / dt > vmax * (1 + 1e-6)) over.push(i);
    }
    assert.deepEqual(over, [k], "only the difference ending at the moved sample breaks the limit");

    const check = await ur5.checkTrajectory(plan.time, q);
    assert.equal(check.ok, false);
    const velocity = check.diagnostics.filter((d) => d.code === "VELOCITY_LIMIT");
    assert.equal(velocity.length, 1, JSON.stringify(check.diagnostics));
    const [d] = velocity;
    assert.equal(d!.joint_name, name);
    assert.equal(d!.point_index, k);
    assert.equal(d!.severity, "SEVERITY_ERROR");
    assert.ok(Math.abs(d!.time - plan.time[k]!) <= 1e-12, `time ${d!.time}`);
    assert.ok(Math.abs(d!.limit - vmax) <= 1e-12, `limit ${d!.limit}, URDF ${vmax}`);
    assert.ok(Math.abs(Math.abs(d!.value) - 1.5 * vmax) <= 1e-9 * vmax, `value ${d!.value}, made ${1.5 * vmax}`);
    assert.ok(Math.abs(check.max_joint_velocity_ratio - 1.5) <= 1e-9);
    assert.ok(check.diagnostics.every((x) => x.joint_name === name), "no other joint is named");
  });

  test("resample of a cubic polynomial on an uneven grid is exact: q, qd, qdd within 1e-9", async () => {
    // q_j(t) = a + b t + c t^2 + d t^3, its derivatives written out here.
    const a = [0.1, -0.5, 1.0, 0.3, -1.2, 0.7];
    const b = [0.4, -0.3, 0.2, 1.1, 0.0, -0.6];
    const c = [-0.8, 0.5, 0.9, -0.2, 0.3, 1.5];
    const d = [0.6, -0.4, -1.1, 0.25, 0.8, -0.9];
    const q = (t: number) => a.map((_, j) => a[j]! + b[j]! * t + c[j]! * t * t + d[j]! * t * t * t);
    const qd = (t: number) => a.map((_, j) => b[j]! + 2 * c[j]! * t + 3 * d[j]! * t * t);
    const qdd = (t: number) => a.map((_, j) => 2 * c[j]! + 6 * d[j]! * t);
    const time = [0, 0.1, 0.17, 0.3, 0.41, 0.5, 0.66, 0.75, 0.9, 1.0];
    const sampleTime = 0.0625; // 1/16: the grid is exact in binary and ends on 1.0

    const out = await ur5.resample(time, time.map(q), sampleTime);
    assert.equal(out.dof, 6);
    assert.equal(out.time.length, 17, "0 to 1 s every 1/16 s");
    out.time.forEach((t, k) => assert.ok(Math.abs(t - k * sampleTime) <= 1e-12, `grid time ${k}: ${t}`));
    let worst = 0;
    out.time.forEach((t, k) => {
      for (const [name, got, truth] of [
        ["q", out.q[k]!, q(t)],
        ["qd", out.qd[k]!, qd(t)],
        ["qdd", out.qdd[k]!, qdd(t)],
      ] as const) {
        assert.equal(got.length, 6);
        got.forEach((v, j) => {
          worst = Math.max(worst, Math.abs(v - truth[j]!));
          assert.ok(Math.abs(v - truth[j]!) <= 1e-9, `${name}[${k}][${j}] = ${v}, exact ${truth[j]} (t = ${t})`);
        });
      }
    });
    assert.ok(worst < 1e-9);
  });

  test("checkJointLimits: inside, and outside by the distance the URDF's limit gives", async () => {
    const limits = urdfPositionLimits(UR5);
    const elbow = limits.get("elbow_joint")!;
    const outside = [...HOME];
    outside[2] = elbow.upper + 0.25;
    const [home, beyond] = await ur5.checkJointLimits([HOME, outside]);
    assert.equal(home!.inside, true);
    assert.equal(beyond!.inside, false);
    const state = beyond!.joints[2]!;
    assert.equal(state.joint, "elbow_joint");
    assert.equal(state.inside, false);
    assert.equal(state.nearest, "upper");
    assert.ok(Math.abs(state.upper - elbow.upper) <= 1e-12 && Math.abs(state.lower - elbow.lower) <= 1e-12);
    assert.ok(Math.abs(state.distance_to_nearest + 0.25) <= 1e-12, `${state.distance_to_nearest}`);
    assert.ok(beyond!.joints.filter((s) => !s.inside).length === 1);
  });

  test("checkSingularity: the UR5 wrist lined up (wrist_2 = 0) is near singular, HOME is not", async () => {
    const lined = [0.3, -1.2, 1.4, -0.8, 0, 0.4];
    const singular = await ur5.checkSingularity(lined);
    assert.equal(singular.near_singular, true);
    assert.ok(singular.sigma_min < 1e-9, `sigma_min ${singular.sigma_min}`);
    assert.equal(singular.threshold, 1e-3, "the planner's default threshold");
    const home = await ur5.checkSingularity(HOME, { threshold: 1e-2 });
    assert.equal(home.near_singular, false);
    assert.equal(home.threshold, 1e-2);
    assert.equal(home.singular_values.length, 6);
    assert.ok(home.sigma_min === Math.min(...home.singular_values));
  });

  test("bad input is INVALID_ARGUMENT naming the field: NaN position, time not increasing, ragged rows", async () => {
    const q = plan.q.slice(0, 10).map((row) => [...row]);
    q[4]![3] = NaN;
    await assert.rejects(ur5.checkTrajectory(plan.time.slice(0, 10), q), invalidArgument(`positions[${4 * 6 + 3}]`, "CheckTrajectory"));
    await assert.rejects(
      ur5.resample([0, 0.1, 0.1], [HOME, HOME, HOME], 0.01),
      invalidArgument("time[2]", "ResampleTrajectory"),
    );
    await assert.rejects(ur5.checkSingularity([0, NaN, 0, 0, 0, 0]), (error: unknown) => {
      assert.ok(error instanceof MotionError && error.code === status.INVALID_ARGUMENT);
      assert.match(error.fields[0] ?? "", /^joints/);
      return true;
    });
    // Rows of different lengths are refused before anything is sent.
    await server.logSettled();
    const before = server.callsByCode(logged("CheckTrajectory"));
    await assert.rejects(ur5.checkTrajectory([0, 0.004], [HOME, HOME.slice(0, 5)]), (error: unknown) => {
      invalidArgument("positions[1]", "CheckTrajectory")(error);
      assert.equal((error as MotionError).peer, "", "no server answered");
      return true;
    });
    await server.logSettled();
    assert.deepEqual(server.callsByCode(logged("CheckTrajectory")), before);
  });

  test("the re-send rule holds for every new robot call: one refusal each, then served", async () => {
    // Distinct robots this server has never seen: the UR5 with a comment
    // appended (another robot_id, the same kinematics).
    const fresh = (tag: string): Robot => client.robot(`${UR5}\n<!-- ${tag} -->\n`);
    const calls: Array<[string, (robot: Robot) => Promise<unknown>]> = [
      ["CheckTrajectory", (r) => r.checkTrajectory([0, 0.004], [HOME, HOME])],
      ["ResampleTrajectory", (r) => r.resample([0, 0.01], [HOME, HOME], 0.004)],
      ["CheckJointLimits", (r) => r.checkJointLimits([HOME])],
      ["CheckSingularity", (r) => r.checkSingularity(HOME)],
    ];
    for (const [method, call] of calls) {
      const robot = fresh(method);
      const refusalsBefore = client.stats.refusals.length;
      await call(robot);
      assert.deepEqual(
        client.stats.refusals.slice(refusalsBefore).map((r) => [r.kind, r.id, r.method]),
        [["robot", robot.id, method]],
      );
    }
    await server.logSettled();
    for (const [method] of calls) {
      const seen = server.callsByCode(logged(method));
      assert.equal(seen.get("NotFound"), 1, `${method}: the server refused the bare robot_id once (${[...seen]})`);
      assert.ok((seen.get("OK") ?? 0) >= 1, `${method}: and served the re-send`);
    }
  });
});
