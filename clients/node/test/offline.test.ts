// The parts that need no server: decoding google.rpc.Status bytes written
// out by hand here (tag by tag, from proto/google/rpc/*.proto), reading
// program files (names, camelCase, typos), target lists, and joint rows.

import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, test } from "node:test";

import { decodeStatusDetails, findProgramUrdf, flattenRows, MotionError, readProgramFile, resolveTarget, splitRows } from "../src";
import { EXAMPLES_DIR, ROBOTS_DIR } from "./support/environment";

/** A length-delimited field: tag byte, one-byte length, bytes (all short here). */
function field(tag: number, body: Buffer | string): Buffer {
  const bytes = typeof body === "string" ? Buffer.from(body) : body;
  assert.ok(bytes.length < 128);
  return Buffer.concat([Buffer.from([tag, bytes.length]), bytes]);
}

describe("google.rpc.Status from grpc-status-details-bin", () => {
  test("code, message, ErrorInfo with metadata, BadRequest, and an unknown detail", () => {
    const errorInfo = Buffer.concat([
      field(0x0a, "ROBOT_NOT_REGISTERED"), // reason = 1
      field(0x12, "motion.v1"), // domain = 2
      field(0x1a, Buffer.concat([field(0x0a, "robot_id"), field(0x12, "sha256:ab")])), // metadata = 3
    ]);
    const badRequest = field(0x0a, Buffer.concat([field(0x0a, "joints"), field(0x12, "expected 6")]));
    const any = (type: string, value: Buffer): Buffer => field(0x1a, Buffer.concat([field(0x0a, type), field(0x12, value)]));
    const status = Buffer.concat([
      Buffer.from([0x08, 0x05]), // code = 5 (NOT_FOUND)
      field(0x12, "not here"),
      any("type.googleapis.com/google.rpc.ErrorInfo", errorInfo),
      any("type.googleapis.com/google.rpc.BadRequest", badRequest),
      any("type.googleapis.com/example.Unknown", Buffer.from([0x08, 0x01])),
    ]);
    const decoded = decodeStatusDetails(status);
    assert.equal(decoded.code, 5);
    assert.equal(decoded.message, "not here");
    assert.deepEqual(decoded.errorInfo, [
      { reason: "ROBOT_NOT_REGISTERED", domain: "motion.v1", metadata: { robot_id: "sha256:ab" } },
    ]);
    assert.deepEqual(decoded.fieldViolations, [{ field: "joints", description: "expected 6" }]);
    assert.equal(decoded.detailTypes.length, 3);
  });

  test("RetryInfo's delay, and truncated bytes are an error", () => {
    const duration = Buffer.from([0x08, 0x01, 0x10, 0x80, 0xe1, 0xeb, 0x17]); // 1 s + 50_000_000 ns
    const retryInfo = field(0x0a, duration);
    const status = field(0x1a, Buffer.concat([field(0x0a, "type.googleapis.com/google.rpc.RetryInfo"), field(0x12, retryInfo)]));
    assert.equal(decodeStatusDetails(status).retryDelayMs, 1050);
    assert.throws(() => decodeStatusDetails(status.subarray(0, status.length - 3)), /truncated/);
  });
});

describe("program files", () => {
  test("the examples read as PlanPathRequests naming their robot", () => {
    const program = readProgramFile(path.join(EXAMPLES_DIR, "ur5_glue_path.json"));
    assert.equal(program.robot, "ur5");
    assert.equal(program.request.segments?.length, 6);
    assert.equal(program.request.sample_time, 0.004);
    assert.ok(findProgramUrdf("ur5", [ROBOTS_DIR])?.includes('<robot name="ur5"'));
    // By <robot name>, not file name: iiwa14.urdf is "iiwa14", kuka_iiwa14_r820.urdf is not.
    assert.ok(findProgramUrdf("kuka_lbr_iiwa_14_r820", [ROBOTS_DIR])?.includes("kuka_lbr_iiwa_14_r820"));
  });

  const write = (content: unknown): string => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "motiond-program-")), "program.json");
    writeFileSync(file, JSON.stringify(content));
    return file;
  };

  test("lowerCamelCase names are accepted as protobuf JSON allows", () => {
    const program = readProgramFile(
      write({ robot: "ur5", startJoints: [0, 0, 0, 0, 0, 0], sampleTime: 0.01, segments: [{ id: "a", movej: { joints: { values: [1, 0, 0, 0, 0, 0] } }, zone: { kind: "CNT", percent: 50 } }] }),
    );
    assert.deepEqual(program.request.start_joints, [0, 0, 0, 0, 0, 0]);
    assert.equal(program.request.sample_time, 0.01);
  });

  test("a misspelt field or enum name is refused with its path, not silently dropped", () => {
    const target = { position: { x: 0.4, y: 0, z: 0.2 }, orientation: { w: 1 } };
    assert.throws(
      () => readProgramFile(write({ robot: "ur5", segments: [{ id: "a", movel: { target } }, { id: "b", movel: { tagret: target } }] })),
      /segments\[1\]\.movel\.tagret: no such field/,
    );
    assert.throws(
      () => readProgramFile(write({ robot: "ur5", segments: [{ id: "a", movel: { target }, zone: { kind: "DISTNCE" } }] })),
      /segments\[0\]\.zone\.kind: 'DISTNCE' is not a value/,
    );
  });
});

describe("targets", () => {
  test("an address list becomes grpc's static multi-address target; URIs pass through", () => {
    assert.equal(resolveTarget("10.0.0.1:50051,10.0.0.2:50051"), "ipv4:10.0.0.1:50051,10.0.0.2:50051");
    assert.equal(resolveTarget("[::1]:1,[::1]:2"), "ipv6:[::1]:1,[::1]:2");
    assert.equal(resolveTarget("127.0.0.1:50051"), "127.0.0.1:50051");
    assert.equal(resolveTarget("dns:///motiond-headless:50051"), "dns:///motiond-headless:50051");
  });
});

describe("joint rows", () => {
  test("rows and flat row-major arrays go out alike; answers come back as rows", () => {
    assert.deepEqual(flattenRows([[1, 2, 3], [4, 5, 6]], "CheckTrajectory"), [1, 2, 3, 4, 5, 6]);
    assert.deepEqual(flattenRows([1, 2, 3, 4, 5, 6], "CheckTrajectory"), [1, 2, 3, 4, 5, 6]);
    assert.deepEqual(flattenRows([], "CheckTrajectory"), []);
    assert.deepEqual(splitRows([1, 2, 3, 4, 5, 6], 3), [[1, 2, 3], [4, 5, 6]]);
  });

  test("ragged or mixed rows are INVALID_ARGUMENT naming the row, not shifted joints", () => {
    const refused = (field: string) => (error: unknown) =>
      error instanceof MotionError && error.codeName === "INVALID_ARGUMENT" && error.fields[0] === field && error.details.startsWith(`${field}: `);
    // 2 + 4 values would pass the server's n x dof count for 3 samples of 2 joints.
    assert.throws(() => flattenRows([[1, 2], [3, 4, 5, 6]], "CheckTrajectory"), refused("positions[1]"));
    assert.throws(() => flattenRows([[1, 2], 3, 4] as unknown as number[], "ResampleTrajectory"), refused("positions[1]"));
  });
});
