"""The README's side-by-side task in Python: plan the UR5 glue program and
print its summary (clients/examples/plan_glue.cc and
clients/node/examples/plan_glue.ts do the same in C++ and TypeScript and
print the same lines).

    PYTHONPATH=build/clients/python /usr/bin/python3 clients/python/examples/plan_glue.py \\
        [TARGET] [--csv=FILE]

--csv writes every sample's time, q, qd, qdd at full precision (repr
round-trips a double exactly), for the test that the three clients get
bit-identical samples.
"""
import pathlib
import sys

import motiond

REPOSITORY = pathlib.Path(__file__).resolve().parents[3]


def main(argv):
    csv = next((a.split("=", 1)[1] for a in argv if a.startswith("--csv=")), None)
    targets = [a for a in argv if not a.startswith("--")]
    with motiond.Client(targets[0] if targets else "127.0.0.1:50051") as client:
        ur5 = client.robot(REPOSITORY / "robots" / "ur5.urdf")
        plan = ur5.plan(REPOSITORY / "clients" / "examples" / "ur5_glue_path.json")
        print(f"glue: ok={str(plan.ok).lower()} cycle {plan.cycle_time:.3f} s, "
              f"{len(plan.time)} samples at {plan.sample_time:.3f} s")
        for s in plan.segments:
            print(f"  {s.id:<12} {s.motion}  {s.duration:.3f} s  v/vmax {s.max_velocity_ratio:.3f}")
        print("last q: " + " ".join(f"{q:.6f}" for q in plan.q[-1]))
        if csv:
            with open(csv, "w", encoding="ascii") as out:
                for k, t in enumerate(plan.time):
                    values = [t, *plan.q[k], *plan.qd[k], *plan.qdd[k]]
                    out.write(",".join(repr(float(v)) for v in values) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
