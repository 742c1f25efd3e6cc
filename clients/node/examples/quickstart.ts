// Quick start (README.md shows this file): FK, IK, a plan and a fleet
// validation against a motiond at MOTIOND_TARGET (default 127.0.0.1:50051).
//   npm run build && node dist/examples/quickstart.js
import { readFileSync } from "node:fs";
import * as path from "node:path";

import { MotionClient, MotionError, programRequest, readProgramFile } from "../src";

const repository = path.resolve(__dirname, "..", "..", "..", "..");

async function main(): Promise<void> {
  // One address, or several ("10.0.0.1:50051,10.0.0.2:50051") balanced round robin.
  const client = new MotionClient({ target: process.env["MOTIOND_TARGET"] ?? "127.0.0.1:50051" });
  try {
    // The robot is named by robot_id; a server that lacks it gets the URDF re-sent.
    const ur5 = client.robot(readFileSync(path.join(repository, "robots", "ur5.urdf"), "utf8"));
    console.log("robot_id", ur5.id);

    const fk = await ur5.fk([0, -1.2, 1.4, -0.8, 1.1, 0.4]);
    console.log("tcp", fk.tcp?.position);

    const ik = await ur5.ik(fk.tcp!, { seed: [0, -1.5, 1.5, -1.5, -1.5, 0] });
    console.log("ik", ik.ok, ik.outcome, ik.joints.map((q) => q.toFixed(4)).join(" "));

    // A motionctl program file: time, q, qd, qdd per sample, a report per segment.
    const program = readProgramFile(path.join(repository, "clients", "examples", "ur5_glue_path.json"));
    const request = programRequest(program, client, [path.join(repository, "robots")]);
    const plan = await client.plan({ ...request, include_tcp: true });
    console.log(`plan ok=${plan.ok} cycle ${plan.duration.toFixed(3)} s, ${plan.time.length} samples`);
    for (const segment of plan.segments) {
      console.log(`  ${segment.segment_id.padEnd(12)} ${segment.motion} ${segment.duration.toFixed(3)} s  v/vmax ${segment.max_joint_velocity_ratio.toFixed(3)}`);
    }

    // Many programs over one ValidatePath stream; answers in input order.
    const answers = await client.validatePaths(
      [1, 0.5, 0.25].map((override) => ({ request_id: `glue@${override}`, path: { ...request, speed_override: override } })),
      { maxInFlight: 8 },
    );
    for (const answer of answers) console.log(`  ${answer.request_id}: ok=${answer.ok} cycle ${answer.cycle_time.toFixed(3)} s`);

    // Refused input is a MotionError: gRPC code, the server's message, the field.
    await ur5.fk([0, 0, 0]).catch((error: MotionError) => console.log(error.codeName, error.fields, error.details));
  } finally {
    client.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
