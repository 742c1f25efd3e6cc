// Ids computed by the client must be the server's: robot_id against the id
// README.md prints for ur5 (motionctl robots) and RegisterRobot's answer,
// with and without meshes; scene_id against RegisterScene's.

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { after, before, describe, test } from "node:test";

import { MotionClient, robotIdFor, sceneIdFor, type Scene } from "../src";
import { EXAMPLES_DIR, ROBOTS_DIR } from "./support/environment";
import { MotiondProcess } from "./support/motiond_process";

// README.md, "The two commands": `motionctl robots` lists ur5 with this id.
const UR5_ID_IN_README = "sha256:21a125fe2f6a18d2d94caba5026df3c58b4248084a3d33d33763da6fb6b232ca";

describe("content ids", () => {
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

  test("robot_id of ur5.urdf is the one README.md shows, and the one the server gives", async () => {
    const urdf = readFileSync(path.join(ROBOTS_DIR, "ur5.urdf"), "utf8");
    assert.equal(robotIdFor(urdf), UR5_ID_IN_README);
    const registered = await client.registerRobot(urdf);
    assert.equal(registered.robot_id, UR5_ID_IN_README);
    assert.equal(registered.info?.dof, 6);
  });

  test("robot_id with meshes follows the documented text and matches the server", async () => {
    // planar_2r has no <collision> meshes, so add one that names a mesh file.
    const urdf = readFileSync(path.join(ROBOTS_DIR, "planar_2r.urdf"), "utf8").replace(
      '<link name="link1"/>',
      '<link name="link1"><collision><geometry><mesh filename="package://demo/link1.stl"/></geometry></collision></link>',
    );
    assert.ok(urdf.includes("link1.stl"));
    // A binary STL of one triangle: 80-byte header, count, normal + 3 vertices, attribute.
    const triangle = Buffer.alloc(50);
    [0, 0, 1, 0, 0, 0, 0.05, 0, 0, 0, 0.05, 0].forEach((v, i) => triangle.writeFloatLE(v, 4 * i));
    const count = Buffer.alloc(4);
    count.writeUInt32LE(1);
    const stl = Buffer.concat([Buffer.alloc(80), count, triangle]);
    const meshes = [{ filename: "package://demo/link1.stl", data: stl }];
    const hex = (data: Buffer | string): string => createHash("sha256").update(data).digest("hex");
    const documented = `sha256:${hex(`${hex(urdf)}\npackage://demo/link1.stl\n${hex(stl)}\n`)}`;
    assert.equal(robotIdFor(urdf, meshes), documented);
    const registered = await client.registerRobot(urdf, meshes);
    assert.equal(registered.robot_id, documented);
  });

  test("scene_id of the example cell equals RegisterScene's", async () => {
    const scene = JSON.parse(readFileSync(path.join(EXAMPLES_DIR, "ur5_cell_scene.json"), "utf8")) as Scene;
    const registered = await client.registerScene(scene);
    assert.equal(sceneIdFor(scene), registered.scene_id);
    assert.equal(registered.object_count, 2);
  });

  test("scene_id follows proto3's implicit presence: explicit zeros change nothing, -0 does", async () => {
    const base: Scene = { objects: [{ id: "ball", pose: { position: { x: 0.5 }, orientation: { w: 1 } }, shape: { sphere: { radius: 0.1 } } }] };
    const zeros: Scene = {
      objects: [{ id: "ball", pose: { position: { x: 0.5, y: 0, z: 0 }, orientation: { x: 0, y: 0, z: 0, w: 1 } }, shape: { sphere: { radius: 0.1 } } }],
    };
    assert.equal(sceneIdFor(zeros), sceneIdFor(base));
    assert.equal(sceneIdFor(zeros), (await client.registerScene(zeros)).scene_id);
    const negativeZero: Scene = {
      objects: [{ id: "ball", pose: { position: { x: 0.5, y: -0 }, orientation: { w: 1 } }, shape: { sphere: { radius: 0.1 } } }],
    };
    assert.equal(sceneIdFor(negativeZero), (await client.registerScene(negativeZero)).scene_id);
  });
});
