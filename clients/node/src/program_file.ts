// motionctl's JSON program files (clients/examples/*.json): the protobuf
// JSON form of PlanPathRequest, except that "robot" may be a string — a
// robot_id, a .urdf file, or a robot's name — instead of a RobotRef.
// Field names may be snake_case or lowerCamelCase, enums are names, as in
// protobuf's JSON mapping (clients/motionctl/program_file.cc).
//
// grpc-js's serialiser silently drops keys that are not fields, and enum
// names it does not know; a program with a typo would then plan something
// else than what was written. So every key and enum name is checked against
// a round trip through the real PlanPathRequest (de)serialiser, and refused
// with its path ("segments[2].movel.tagret").

import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";

import type { PlanPathRequest } from "./generated/motion/v1/PlanPathRequest";
import { loadMotionProtos } from "./proto_loading";

export interface ProgramFile {
  /** The "robot" string as written (robot_id, .urdf path or name), when it was a string. */
  robot?: string;
  /** Everything else, as a PlanPathRequest (with `robot` when it was a RobotRef object). */
  request: PlanPathRequest;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** lowerCamelCase JSON names back to the protos' snake_case field names. */
function snakeKeys(value: Json): Json {
  if (Array.isArray(value)) return value.map(snakeKeys);
  if (value === null || typeof value !== "object") return value;
  const out: { [key: string]: Json } = {};
  for (const [key, item] of Object.entries(value)) {
    out[key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)] = snakeKeys(item);
  }
  return out;
}

/** Throws at the first key the round trip lost, or enum name it changed. */
function checkRoundTrip(written: Json, parsed: unknown, where: string): void {
  if (Array.isArray(written)) {
    if (!Array.isArray(parsed) || parsed.length !== written.length) throw new Error(`${where}: not a list of this field's type`);
    written.forEach((item, i) => checkRoundTrip(item, parsed[i], `${where}[${i}]`));
    return;
  }
  if (written !== null && typeof written === "object") {
    if (parsed === null || typeof parsed !== "object") throw new Error(`${where}: not a message field`);
    const fields = parsed as Record<string, unknown>;
    for (const [key, item] of Object.entries(written)) {
      const at = where ? `${where}.${key}` : key;
      if (!(key in fields)) throw new Error(`${at}: no such field`);
      checkRoundTrip(item, fields[key], at);
    }
    return;
  }
  // A string that came back different was an enum name the proto lacks.
  if (typeof written === "string" && typeof parsed === "string" && written !== parsed) {
    throw new Error(`${where}: '${written}' is not a value of this enum`);
  }
}

/** A PlanPathRequest from its protobuf-JSON object, every key and enum name checked. */
export function planPathRequestFromJson(json: { [key: string]: Json }, protoDir?: string): PlanPathRequest {
  const method = loadMotionProtos(protoDir).protos.motion.v1.MotionPlanner.service.PlanPath;
  const request = snakeKeys(json) as { [key: string]: Json };
  const parsed = method.requestDeserialize(method.requestSerialize(request as PlanPathRequest));
  checkRoundTrip(request, parsed, "");
  return request as PlanPathRequest;
}

/** Reads a program file; errors name the file and the field. */
export function readProgramFile(file: string, protoDir?: string): ProgramFile {
  let document: Json;
  try {
    document = JSON.parse(readFileSync(file, "utf8")) as Json;
  } catch (error) {
    throw new Error(`${file}: not JSON: ${(error as Error).message}`);
  }
  if (document === null || typeof document !== "object" || Array.isArray(document)) {
    throw new Error(`${file}: not a motion program (a JSON object)`);
  }
  const { robot, ...rest } = document;
  const fields: { [key: string]: Json } = typeof robot === "string" || robot === undefined ? rest : { ...rest, robot };
  try {
    const program: ProgramFile = { request: planPathRequestFromJson(fields, protoDir) };
    if (typeof robot === "string") program.robot = robot;
    return program;
  } catch (error) {
    throw new Error(`${file}: not a motion program: ${(error as Error).message}`);
  }
}

/**
 * The URDF a program's "robot" string stands for: a .urdf file (relative to
 * `baseDir`), else `<name>.urdf` in one of `robotDirs`, else the file there
 * whose <robot name="..."> is `name`. Undefined for a robot_id or a name
 * found nowhere (the server may still know it).
 */
export function findProgramUrdf(robot: string, robotDirs: readonly string[], baseDir = "."): string | undefined {
  if (robot.startsWith("sha256:")) return undefined;
  if (robot.endsWith(".urdf")) return readFileSync(path.resolve(baseDir, robot), "utf8");
  for (const dir of robotDirs) {
    const byFileName = path.join(dir, `${robot}.urdf`);
    if (existsSync(byFileName)) return readFileSync(byFileName, "utf8");
  }
  const nameAttribute = /<robot\b[^>]*\bname\s*=\s*["']([^"']*)["']/;
  for (const dir of robotDirs) {
    if (!existsSync(dir)) continue;
    for (const entry of readdirSync(dir).filter((name) => name.endsWith(".urdf")).sort()) {
      const urdf = readFileSync(path.join(dir, entry), "utf8");
      if (nameAttribute.exec(urdf)?.[1] === robot) return urdf;
    }
  }
  return undefined;
}

/**
 * The program's PlanPathRequest naming its robot by robot_id: a URDF found
 * for the "robot" string is handed to `client.addRobot`, so the client can
 * re-send it to a server that lacks it; a robot_id is used as written.
 */
export function programRequest(
  program: ProgramFile,
  client: { addRobot(urdf: string): string },
  robotDirs: readonly string[],
  baseDir = ".",
): PlanPathRequest {
  if (program.robot === undefined) return program.request;
  const urdf = findProgramUrdf(program.robot, robotDirs, baseDir);
  let robotId: string;
  if (urdf !== undefined) robotId = client.addRobot(urdf);
  else if (program.robot.startsWith("sha256:")) robotId = program.robot;
  else throw new Error(`robot '${program.robot}': no such URDF in ${robotDirs.join(", ") || "(no robot folders)"}`);
  return { ...program.request, robot: { ...(program.request.robot ?? {}), robot_id: robotId } };
}
