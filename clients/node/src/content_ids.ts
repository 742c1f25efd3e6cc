// Content addresses, computed here exactly as motiond computes them, so a
// client names robots and scenes by id without asking the server first
// (proto/motion/v1/robot_registry.proto and collision.proto give the rules).

import { createHash } from "node:crypto";

import type { MeshFile } from "./generated/motion/v1/MeshFile";
import type { Scene } from "./generated/motion/v1/Scene";
import type { Pose } from "./generated/motion/v1/Pose";
import type { Shape } from "./generated/motion/v1/Shape";
import type { Vector3 } from "./generated/motion/v1/Vector3";
import type { Quaternion } from "./generated/motion/v1/Quaternion";
import { WireWriter } from "./proto_wire";

function sha256Hex(data: Buffer | string): string {
  return createHash("sha256").update(data).digest("hex");
}

/** "sha256:" + lowercase hex SHA-256 of `bytes`. */
export function contentId(bytes: Buffer | string): string {
  return `sha256:${sha256Hex(bytes)}`;
}

/** Raw bytes of a protobuf `bytes` value as the JS side may hold it. */
export function bytesOf(value: Buffer | Uint8Array | string | undefined | null): Buffer {
  if (value === undefined || value === null) return Buffer.alloc(0);
  if (typeof value === "string") return Buffer.from(value, "base64"); // protobuf JSON form
  return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}

/**
 * robot_id of a URDF (the UTF-8 bytes exactly as sent) with optional mesh
 * files: without meshes "sha256:" + hex SHA-256 of the URDF; with meshes the
 * hash of hex(SHA-256(urdf)) "\n" then, per mesh in byte order of filename,
 * filename "\n" hex(SHA-256(data)) "\n".
 */
export function robotIdFor(urdf: string | Buffer, meshes: readonly MeshFile[] = []): string {
  if (meshes.length === 0) return contentId(urdf);
  const sorted = meshes
    .map((mesh) => ({ name: Buffer.from(mesh.filename ?? "", "utf8"), data: bytesOf(mesh.data) }))
    .sort((a, b) => Buffer.compare(a.name, b.name));
  let text = `${sha256Hex(urdf)}\n`;
  for (const mesh of sorted) text += `${mesh.name.toString("utf8")}\n${sha256Hex(mesh.data)}\n`;
  return contentId(text);
}

// Deterministic proto3 serialization of a Scene: fields in number order,
// scalars equal to +0 / "" omitted (implicit presence, compared by bit
// pattern as C++ protobuf does, so -0.0 is written), message fields and
// oneof members written whenever present. This is what the server hashes.

function double(value: number | string | undefined | null): number {
  return value === undefined || value === null ? 0 : Number(value);
}

function writeDouble(out: WireWriter, number: number, value: number | string | undefined | null): void {
  const v = double(value);
  if (!Object.is(v, 0)) out.double(number, v);
}

function present<T>(value: T | undefined | null): value is T {
  return value !== undefined && value !== null;
}

function vector3Bytes(v: Vector3): Buffer {
  const out = new WireWriter();
  writeDouble(out, 1, v.x);
  writeDouble(out, 2, v.y);
  writeDouble(out, 3, v.z);
  return out.finish();
}

function quaternionBytes(q: Quaternion): Buffer {
  const out = new WireWriter();
  writeDouble(out, 1, q.x);
  writeDouble(out, 2, q.y);
  writeDouble(out, 3, q.z);
  writeDouble(out, 4, q.w);
  return out.finish();
}

function poseBytes(pose: Pose): Buffer {
  const out = new WireWriter();
  if (present(pose.position)) out.bytes(1, vector3Bytes(pose.position));
  if (present(pose.orientation)) out.bytes(2, quaternionBytes(pose.orientation));
  return out.finish();
}

function shapeBytes(shape: Shape, where: string): Buffer {
  const members = (["box", "cylinder", "sphere", "capsule", "mesh"] as const).filter((name) =>
    present(shape[name]),
  );
  if (members.length > 1) {
    throw new Error(`${where}: a Shape holds one of box, cylinder, sphere, capsule, mesh; got ${members.join(", ")}`);
  }
  const out = new WireWriter();
  if (present(shape.box)) {
    const box = new WireWriter();
    if (present(shape.box.size)) box.bytes(1, vector3Bytes(shape.box.size));
    out.bytes(1, box.finish());
  } else if (present(shape.cylinder)) {
    const cylinder = new WireWriter();
    writeDouble(cylinder, 1, shape.cylinder.radius);
    writeDouble(cylinder, 2, shape.cylinder.length);
    out.bytes(2, cylinder.finish());
  } else if (present(shape.sphere)) {
    const sphere = new WireWriter();
    writeDouble(sphere, 1, shape.sphere.radius);
    out.bytes(3, sphere.finish());
  } else if (present(shape.capsule)) {
    const capsule = new WireWriter();
    writeDouble(capsule, 1, shape.capsule.radius);
    writeDouble(capsule, 2, shape.capsule.length);
    out.bytes(4, capsule.finish());
  } else if (present(shape.mesh)) {
    const mesh = new WireWriter();
    const stl = bytesOf(shape.mesh.stl);
    if (stl.length > 0) mesh.bytes(1, stl);
    if (present(shape.mesh.scale)) mesh.bytes(2, vector3Bytes(shape.mesh.scale));
    out.bytes(5, mesh.finish());
  }
  return out.finish();
}

/** The Scene serialized deterministically, as the server hashes it. */
export function serializeSceneDeterministically(scene: Scene): Buffer {
  const out = new WireWriter();
  (scene.objects ?? []).forEach((object, i) => {
    const item = new WireWriter();
    if (present(object.id) && object.id !== "") item.bytes(1, object.id);
    if (present(object.pose)) item.bytes(2, poseBytes(object.pose));
    if (present(object.shape)) item.bytes(3, shapeBytes(object.shape, `scene.objects[${i}].shape`));
    out.bytes(1, item.finish());
  });
  return out.finish();
}

/** scene_id: "sha256:" + hex SHA-256 of the deterministically serialized Scene. */
export function sceneIdFor(scene: Scene): string {
  return contentId(serializeSceneDeterministically(scene));
}
