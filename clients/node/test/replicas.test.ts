// The re-send rule and the retries against real, fresh motiond processes:
// what each server logged (one "rpc method=... code=..." line per call) is
// the independent count of what it refused and served.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import * as path from "node:path";
import { after, before, describe, test } from "node:test";

import { status } from "@grpc/grpc-js";

import { MotionClient, MotionError, type Scene } from "../src";
import { EXAMPLES_DIR, ROBOTS_DIR } from "./support/environment";
import { MotiondProcess } from "./support/motiond_process";

const UR5 = readFileSync(path.join(ROBOTS_DIR, "ur5.urdf"), "utf8");
const HOME = [0, -1.5708, 1.5708, -1.5708, -1.5708, 0];

/** A port nothing listens on right now (the OS picked it free). */
function unusedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/**
 * Health checks until every replica has logged one: round robin only spreads
 * over connected replicas, and a call made while one is still connecting
 * would all go to the other.
 */
async function connectToAll(client: MotionClient, replicas: MotiondProcess[]): Promise<void> {
  for (let attempt = 0; attempt < 200; ++attempt) {
    if (replicas.every((r) => r.callsByCode("grpc.health.v1.Health/Check").size > 0)) return;
    await client.checkHealth();
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error("the client did not reach every replica");
}

describe("one fresh server, robot sent by id only", () => {
  let server: MotiondProcess;
  let client: MotionClient;
  before(async () => {
    server = await MotiondProcess.start();
    client = new MotionClient({ target: server.address });
  });
  after(async () => {
    client.close();
    await server.stop();
  });

  test("FK works: the library re-sent the URDF once, and the server learned the robot", async () => {
    const robot = client.robot(UR5);
    const fk = await robot.fk(HOME);
    assert.ok(fk.flange?.position, "answered");
    assert.deepEqual(
      client.stats.refusals.map((r) => [r.kind, r.id, r.method]),
      [["robot", robot.id, "ComputeFk"]],
    );
    await server.logSettled();
    const seen = server.callsByCode("ComputeFk");
    assert.equal(seen.get("NotFound"), 1, "the server refused the bare robot_id once");
    assert.equal(seen.get("OK"), 1, "and served the re-send");
    const listed = await client.listRobots();
    assert.ok(listed.robots.some((info) => info.robot_id === robot.id), "registered by the inline URDF");
  });

  test("a PlanPath for a robot the server lacks is re-sent before anything streamed", async () => {
    const fresh = await MotiondProcess.start();
    const other = new MotionClient({ target: fresh.address });
    try {
      const plan = await other.robot(UR5).plan({
        start_joints: HOME,
        segments: [{ id: "turn", movej: { joints: { values: [0.5, -1.5708, 1.5708, -1.5708, -1.5708, 0] } } }],
      });
      assert.equal(plan.ok, true);
      assert.equal(plan.segments.length, 1);
      assert.deepEqual(other.stats.refusals.map((r) => r.method), ["PlanPath"]);
      await fresh.logSettled();
      assert.equal(fresh.callsByCode("PlanPath").get("NotFound"), 1);
    } finally {
      other.close();
      await fresh.stop();
    }
  });

  test("a scene sent by id only is re-sent too (and its local id is the server's)", async () => {
    const scene = JSON.parse(readFileSync(path.join(EXAMPLES_DIR, "ur5_cell_scene.json"), "utf8")) as Scene;
    const sceneId = client.addScene(scene);
    const robot = client.robot(UR5);
    const result = await client.checkCollision({
      robot: robot.ref,
      scene: { scene_id: sceneId },
      configurations: [{ values: HOME }],
    });
    assert.equal(result.results.length, 1);
    const sceneRefusals = client.stats.refusals.filter((r) => r.kind === "scene");
    assert.deepEqual(sceneRefusals.map((r) => [r.id, r.method]), [[sceneId, "CheckCollision"]]);
    const registered = await client.registerScene(scene);
    assert.equal(registered.scene_id, sceneId, "the server hashes the scene to the same id");
    assert.equal(registered.already_registered, true, "the inline scene was registered");
  });
});

describe("two fresh replicas behind one client (round robin)", () => {
  const CALLS = 20;
  let replicas: MotiondProcess[];
  before(async () => {
    replicas = [await MotiondProcess.start(), await MotiondProcess.start()];
  });
  after(async () => {
    for (const replica of replicas) await replica.stop();
  });

  test("each replica refuses the robot at most once, and both serve calls", async () => {
    const client = new MotionClient({ target: replicas.map((r) => r.address).join(",") });
    try {
      await connectToAll(client, replicas);
      const robot = client.robot(UR5);
      for (let i = 0; i < CALLS; ++i) await robot.fk(HOME.map((q, j) => q + 0.01 * i * j));
      const byPeer = client.stats.refusalsByPeer("robot");
      for (const [peer, count] of byPeer) assert.ok(count <= 1, `${peer} refused ${count} times`);
      let refusedByServers = 0;
      for (const replica of replicas) {
        await replica.logSettled();
        const seen = replica.callsByCode("ComputeFk");
        const refused = seen.get("NotFound") ?? 0;
        assert.ok(refused <= 1, `${replica.address} logged ${refused} refusals`);
        assert.ok((seen.get("OK") ?? 0) >= 1, `${replica.address} served calls (round robin)`);
        refusedByServers += refused;
      }
      assert.ok(refusedByServers >= 1, "fresh replicas lack the robot");
      assert.equal(client.stats.refusals.length, refusedByServers, "the client counts what the servers refused");
    } finally {
      client.close();
    }
  });

  test("without the inline window a replica that lacks the robot keeps refusing (why the window exists)", async () => {
    const fresh = [await MotiondProcess.start(), await MotiondProcess.start()];
    const client = new MotionClient({ target: fresh.map((r) => r.address).join(","), inlineAfterRefusalMs: 0 });
    try {
      await connectToAll(client, fresh);
      const robot = client.robot(UR5);
      for (let i = 0; i < 10; ++i) await robot.fk(HOME);
      for (const replica of fresh) await replica.logSettled();
      const refused = fresh.map((replica) => replica.callsByCode("ComputeFk").get("NotFound") ?? 0);
      assert.ok(Math.max(...refused) > 1, `refusals per replica: ${refused.join(", ")}`);
    } finally {
      client.close();
      for (const replica of fresh) await replica.stop();
    }
  });
});

describe("UNAVAILABLE", () => {
  test("is retried with backoff until the server is up", async () => {
    const port = await unusedPort();
    const client = new MotionClient({
      target: `127.0.0.1:${port}`,
      maxAttempts: 40,
      initialBackoffMs: 50,
      maxBackoffMs: 250,
      timeoutMs: 20_000,
      // Reconnect soon after a refused connection, so the retries find the server.
      channelOptions: { "grpc.initial_reconnect_backoff_ms": 100, "grpc.max_reconnect_backoff_ms": 250 },
    });
    let server: MotiondProcess | undefined;
    try {
      const answer = client.robot(UR5).fk(HOME);
      await new Promise((resolve) => setTimeout(resolve, 300));
      server = await MotiondProcess.start({ port });
      const fk = await answer;
      assert.ok(fk.flange?.position);
      assert.ok(client.stats.unavailableRetries >= 1, `${client.stats.unavailableRetries} retries`);
    } finally {
      client.close();
      await server?.stop();
    }
  });

  test("fails with UNAVAILABLE once the attempts are used up", async () => {
    const port = await unusedPort();
    const client = new MotionClient({ target: `127.0.0.1:${port}`, maxAttempts: 3, initialBackoffMs: 10 });
    try {
      await assert.rejects(client.robot(UR5).fk(HOME), (error: unknown) => {
        assert.ok(error instanceof MotionError);
        assert.equal(error.code, status.UNAVAILABLE);
        return true;
      });
      assert.equal(client.stats.unavailableRetries, 2, "three attempts: two retries");
    } finally {
      client.close();
    }
  });
});
