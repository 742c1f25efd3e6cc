// Loads the motion.v1 protos at run time with @grpc/proto-loader. The
// options must match the `generate` script's flags for proto-loader-gen-types
// (package.json), so the generated TypeScript types describe exactly the
// objects grpc-js hands over: snake_case keys, enums as strings, int64 as
// number, every field present (defaults), and the name of the set oneof
// member in a virtual field.

import { existsSync } from "node:fs";
import * as path from "node:path";

import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";

import type { ProtoGrpcType as GeometryProto } from "./generated/geometry";
import type { ProtoGrpcType as HealthProto } from "./generated/health";
import type { ProtoGrpcType as InfoProto } from "./generated/info";
import type { ProtoGrpcType as KinematicsProto } from "./generated/kinematics";
import type { ProtoGrpcType as PlannerProto } from "./generated/motion_planner";
import type { ProtoGrpcType as RegistryProto } from "./generated/robot_registry";

export const LOADER_OPTIONS: protoLoader.Options = {
  keepCase: true,
  longs: Number,
  enums: String,
  defaults: true,
  oneofs: true,
};

const PROTO_FILES = [
  "motion/v1/robot_registry.proto",
  "motion/v1/kinematics.proto",
  "motion/v1/motion_planner.proto",
  "motion/v1/geometry.proto",
  "motion/v1/info.proto",
  "grpc/health/v1/health.proto",
];

export type MotionProtos = RegistryProto & KinematicsProto & PlannerProto & GeometryProto & InfoProto & HealthProto;

/**
 * The folder holding motion/v1/*.proto: `MOTIOND_PROTO_DIR`, else the
 * repository's proto/ (this package lives in clients/node/, compiled to
 * dist/src/).
 */
export function defaultProtoDir(): string {
  return process.env["MOTIOND_PROTO_DIR"] ?? path.resolve(__dirname, "..", "..", "..", "..", "proto");
}

const loaded = new Map<string, { protos: MotionProtos; definition: protoLoader.PackageDefinition }>();

/** The service constructors and message definitions, loaded once per folder. */
export function loadMotionProtos(protoDir: string = defaultProtoDir()): {
  protos: MotionProtos;
  definition: protoLoader.PackageDefinition;
} {
  const cached = loaded.get(protoDir);
  if (cached) return cached;
  // Every file named, so protos of an older server (no geometry.proto) say which one is missing.
  const missing = PROTO_FILES.filter((file) => !existsSync(path.join(protoDir, file)));
  if (missing.length > 0) {
    throw new Error(
      `motion.v1 protos not found in ${protoDir}: ${missing.join(", ")} (set MOTIOND_PROTO_DIR, or ClientOptions.protoDir)`,
    );
  }
  const definition = protoLoader.loadSync(PROTO_FILES, { ...LOADER_OPTIONS, includeDirs: [protoDir] });
  const protos = grpc.loadPackageDefinition(definition) as unknown as MotionProtos;
  const entry = { protos, definition };
  loaded.set(protoDir, entry);
  return entry;
}
