// The README's side-by-side task in TypeScript: plan the UR5 glue program
// and print its summary (clients/examples/plan_glue.cc and
// clients/python/examples/plan_glue.py do the same in C++ and Python and
// print the same lines).
//   npm run build && node dist/examples/plan_glue.js [TARGET] [--csv=FILE]
// --csv writes every sample's time, q, qd, qdd at full precision
// (String(number) round-trips a double exactly, except that it writes -0 as
// "0"), for the test that the three clients get bit-identical samples.
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";

import { MotionClient, readProgramFile } from "../src";

const repository = path.resolve(__dirname, "..", "..", "..", "..");

async function main(argv: string[]): Promise<void> {
  const csv = argv.find((a) => a.startsWith("--csv="))?.slice("--csv=".length);
  const target = argv.find((a) => !a.startsWith("--")) ?? "127.0.0.1:50051";
  const client = new MotionClient({ target });
  try {
    const ur5 = client.robot(readFileSync(path.join(repository, "robots", "ur5.urdf"), "utf8"));
    const program = readProgramFile(path.join(repository, "clients", "examples", "ur5_glue_path.json"));
    // The program names its robot "ur5"; this robot object is that URDF.
    const plan = await ur5.plan(program.request);
    console.log(`glue: ok=${plan.ok} cycle ${plan.duration.toFixed(3)} s, ${plan.time.length} samples at ${plan.sampleTime.toFixed(3)} s`);
    for (const s of plan.segments) {
      const segment = program.request.segments?.[s.segment_index];
      const motion = segment?.movej ? "movej" : segment?.movel ? "movel" : "movec";
      console.log(`  ${s.segment_id.padEnd(12)} ${motion}  ${s.duration.toFixed(3)} s  v/vmax ${s.max_joint_velocity_ratio.toFixed(3)}`);
    }
    console.log(`last q: ${plan.q.at(-1)!.map((q) => q.toFixed(6)).join(" ")}`);
    if (csv) {
      const exact = (v: number): string => (Object.is(v, -0) ? "-0" : String(v));
      const rows = plan.time.map((t, k) => [t, ...plan.q[k]!, ...plan.qd[k]!, ...plan.qdd[k]!].map(exact).join(","));
      writeFileSync(csv, rows.join("\n") + "\n");
    }
  } finally {
    client.close();
  }
}

main(process.argv.slice(2)).catch((error) => {
  console.error(error);
  process.exit(1);
});
