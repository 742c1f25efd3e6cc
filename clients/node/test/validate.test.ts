// ValidatePath over one stream: 20 programs (the examples at several speed
// overrides, and two with an unreachable target), bounded in flight,
// answered out of order; each request id must come back exactly once with
// its own answer. The server is fresh, and the programs name the robot by
// robot_id only: the refused requests must be re-sent with their URDF.

import assert from "node:assert/strict";
import * as path from "node:path";
import { after, before, describe, test } from "node:test";

import {
  MotionClient,
  programRequest,
  readProgramFile,
  type PlanPathRequest,
  type ValidatePathRequest,
  type ValidatePathResponse__Output,
} from "../src";
import { EXAMPLES_DIR, ROBOTS_DIR } from "./support/environment";
import { MotiondProcess } from "./support/motiond_process";

const EXAMPLES = ["ur5_glue_path.json", "ur5_glue_bead_zones.json", "ur5_pick_and_place.json"];
const OVERRIDES = [1, 0.8, 0.6, 0.5, 0.4, 0.3];
const MAX_IN_FLIGHT = 4;

describe("validatePaths", () => {
  let server: MotiondProcess;
  let client: MotionClient;
  const programs = new Map<string, PlanPathRequest>();
  const requests: ValidatePathRequest[] = [];
  const delivered = new Map<string, number>();
  let answers: ValidatePathResponse__Output[];

  before(async () => {
    server = await MotiondProcess.start(); // knows no robot
    client = new MotionClient({ target: server.address });
    for (const file of EXAMPLES) {
      const base = programRequest(readProgramFile(path.join(EXAMPLES_DIR, file)), client, [ROBOTS_DIR]);
      programs.set(file, base);
      for (const override of OVERRIDES) {
        requests.push({ request_id: `${file}@${override}`, path: { ...base, speed_override: override } });
      }
    }
    // The glue path with its lift moved out of the UR5's reach (~0.85 m).
    const glue = programs.get("ur5_glue_path.json")!;
    for (const x of [2.5, 3.0]) {
      const segments = glue.segments!.map((segment) =>
        segment.id === "lift"
          ? { ...segment, movel: { target: { position: { x, y: 0.3, z: 0.3 }, orientation: { x: 0, y: 1, z: 0, w: 0 } } } }
          : segment,
      );
      requests.push({ request_id: `unreachable@${x}`, path: { ...glue, segments } });
    }
    answers = await client.validatePaths(requests, {
      maxInFlight: MAX_IN_FLIGHT,
      streamTimeoutMs: 30_000,
      onResponse: (response) => delivered.set(response.request_id, (delivered.get(response.request_id) ?? 0) + 1),
    });
  });
  after(async () => {
    client.close();
    await server.stop();
  });

  test("about 20 programs, each request id answered exactly once, in input order", () => {
    assert.equal(requests.length, 20);
    assert.deepEqual(
      answers.map((a) => a.request_id),
      requests.map((r) => r.request_id),
    );
    for (const request of requests) assert.equal(delivered.get(request.request_id!), 1, `${request.request_id} delivered once`);
    assert.equal(delivered.size, requests.length);
  });

  test("the refused requests were re-sent with their URDF", async () => {
    await server.logSettled();
    const refusals = client.stats.refusals.filter((r) => r.method === "ValidatePath");
    assert.ok(refusals.length >= 1, "a fresh server refuses the robot_id at least once");
    assert.ok(refusals.length <= MAX_IN_FLIGHT, `only requests sent before the first refusal came back: ${refusals.length}`);
    assert.equal(server.robotRefusals("ValidatePath"), refusals.length, "the server refused what the client counted");
    for (const answer of answers) assert.equal(answer.error_code, 0, `${answer.request_id}: ${answer.error_message}`);
  });

  test("at most maxInFlight requests were outstanding, and more than one was", () => {
    assert.ok(client.stats.validatePeakInFlight <= MAX_IN_FLIGHT);
    assert.ok(client.stats.validatePeakInFlight > 1);
  });

  test("each answer is its own program's: PlanPath of the same program gives the same cycle time", async () => {
    for (const request of requests.filter((_, i) => i % 5 === 0)) {
      const planned = await client.plan(request.path!);
      const answer = answers.find((a) => a.request_id === request.request_id)!;
      assert.ok(Math.abs(planned.duration - answer.cycle_time) <= 1e-9, `${request.request_id}`);
      assert.equal(answer.segment_reports.length, request.path!.segments!.length);
    }
  });

  test("a slower speed override never shortens the cycle", () => {
    for (const file of EXAMPLES) {
      const times = OVERRIDES.map((o) => answers.find((a) => a.request_id === `${file}@${o}`)!.cycle_time);
      for (let i = 1; i < times.length; ++i) assert.ok(times[i]! > times[i - 1]!, `${file}: ${times.join(", ")}`);
    }
  });

  test("an unreachable target is ok = false, reachable = false, and not a request error", () => {
    for (const x of [2.5, 3.0]) {
      const answer = answers.find((a) => a.request_id === `unreachable@${x}`)!;
      assert.equal(answer.error_code, 0);
      assert.equal(answer.ok, false);
      assert.equal(answer.reachable, false);
      const lift = answer.segment_reports.find((s) => s.segment_id === "lift")!;
      assert.ok(
        lift.diagnostics.some((d) => d.code === "TARGET_UNREACHABLE" || d.code === "IK_FAILED"),
        JSON.stringify(lift.diagnostics.map((d) => d.code)),
      );
    }
    for (const answer of answers.filter((a) => !a.request_id.startsWith("unreachable"))) {
      assert.equal(answer.ok, true, answer.request_id);
    }
  });

  test("request ids must be unique", async () => {
    await assert.rejects(client.validatePaths([requests[0]!, requests[0]!]), /is used twice/);
  });
});

describe("validatePaths across a replica that dies mid-stream", () => {
  test("the unanswered requests go out again on a new stream, to a fresh server, each answered once", async () => {
    const first = await MotiondProcess.start();
    const port = first.port;
    const client = new MotionClient({
      target: first.address,
      // Reconnect soon after the crash, so the next stream finds the new server.
      channelOptions: { "grpc.initial_reconnect_backoff_ms": 100, "grpc.max_reconnect_backoff_ms": 250 },
    });
    let second: MotiondProcess | undefined;
    let restarted: Promise<void> | undefined;
    try {
      const base = programRequest(readProgramFile(path.join(EXAMPLES_DIR, "ur5_glue_path.json")), client, [ROBOTS_DIR]);
      const requests: ValidatePathRequest[] = Array.from({ length: 20 }, (_, i) => ({
        request_id: `glue@${(1 - i * 0.03).toFixed(2)}`,
        path: { ...base, speed_override: 1 - i * 0.03 },
      }));
      const delivered = new Map<string, number>();
      const answers = await client.validatePaths(requests, {
        maxInFlight: 2,
        streamTimeoutMs: 30_000,
        onResponse: (response) => {
          delivered.set(response.request_id, (delivered.get(response.request_id) ?? 0) + 1);
          // After the first answer: crash the server, start a fresh one on the same port.
          restarted ??= first.kill().then(async () => {
            second = await MotiondProcess.start({ port });
          });
        },
      });
      await restarted;
      await second!.logSettled();
      assert.equal(answers.length, 20);
      for (const request of requests) assert.equal(delivered.get(request.request_id!), 1, `${request.request_id} once`);
      for (const answer of answers) assert.equal(answer.ok, true, `${answer.request_id}: ${answer.error_message}`);
      assert.ok(client.stats.validateStreamsReopened >= 1, "a new stream was opened");
      const served = /rpc method=ValidatePath code=OK .* paths_ok=(\d+)/.exec(second!.logText);
      assert.ok(served && Number(served[1]) >= 1, "the fresh server answered the rest");
      assert.ok(second!.robotRefusals("ValidatePath") >= 1, "the fresh server lacked the robot: re-sent with the URDF");
    } finally {
      client.close();
      await restarted; // the second server may still be starting when an assertion failed
      await second?.stop();
      await first.stop();
    }
  });
});
