// One real motiond and a client with the UR5 for a describe block: call
// inside describe(); the server starts before its tests and must exit 0 on
// SIGTERM after them.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { after, before } from "node:test";

import { MotionClient, type Robot } from "../../src";
import { ROBOTS_DIR } from "./environment";
import { MotiondProcess } from "./motiond_process";

export interface Ur5Server {
  readonly client: MotionClient;
  readonly ur5: Robot;
}

export function useUr5Server(): Ur5Server {
  let server: MotiondProcess;
  const session = {} as { client: MotionClient; ur5: Robot };
  before(async () => {
    server = await MotiondProcess.start();
    session.client = new MotionClient({ target: server.address });
    session.ur5 = session.client.robot(readFileSync(path.join(ROBOTS_DIR, "ur5.urdf"), "utf8"));
  });
  after(async () => {
    session.client.close();
    assert.equal(await server.stop(), 0, "motiond exits 0 on SIGTERM");
  });
  return session;
}
