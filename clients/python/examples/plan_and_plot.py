#!/usr/bin/python3
"""Plan a UR5 glue path with motiond and plot it against the joint limits.

A notebook-style walk through the Python client: each ``# %%`` cell runs on
its own in Jupyter or VS Code, and the whole file runs as a script against a
running motiond (``make run``):

    PYTHONPATH=build/clients/python /usr/bin/python3 \\
        clients/python/examples/plan_and_plot.py --target=127.0.0.1:50051 \\
        --out=clients/python/examples/plan_and_plot.png
"""
# %% Connect, and name the robot by its URDF (nothing is registered: the
# client sends the robot's content id, and the URDF only to a replica that
# lacks it).
import argparse
import copy
import json
import sys
from pathlib import Path

import numpy as np

import motiond
from motiond.plot import plot_plan

REPO = Path(__file__).resolve().parents[3]

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--target", default="127.0.0.1:50051", help="motiond HOST:PORT (or several)")
parser.add_argument("--out", default=str(Path(__file__).with_suffix(".png")),
                    help="where to write the plot")
args, _ = parser.parse_known_args()  # parse_known_args: Jupyter passes its own

client = motiond.Client(args.target)
ur5 = client.robot(REPO / "robots" / "ur5.urdf")
print(f"{ur5.info.name}: {ur5.dof} joints {ur5.joint_names}")
print("velocity limits (rad/s):", ur5.limits.max_velocity)

# %% Forward and inverse kinematics.
home = np.array([0.0, -1.5708, 1.5708, -1.5708, -1.5708, 0.0])
home_tcp = ur5.fk(home)
print("home TCP:", home_tcp)

above_part = motiond.Pose.from_rpy((0.40, 0.0, 0.25), (np.pi, 0.0, 0.0))  # tool pointing down
solution = ur5.ik(above_part, seed=home)
print(f"IK ({solution.method}): {np.round(solution.joints, 4)}, "
      f"error {solution.position_error:.1e} m")

# %% A glue path: the example program, with the arc asked at 1.5 m/s. The
# joints cannot follow that speed round the arc, so motiond slows the arc
# down where it must and says so (a SPEED_REDUCED warning): data, not an error.
program = json.loads((REPO / "clients" / "examples" / "ur5_glue_path.json").read_text())
for segment in program["segments"]:
    if segment["id"] == "corner_arc":
        segment["speed"] = {"linear_velocity": 1.5, "linear_acceleration": 30.0,
                            "linear_jerk": 300.0}

plan = ur5.plan(program)
print(f"ok={plan.ok}: cycle time {plan.cycle_time:.3f} s, {len(plan)} samples of "
      f"{plan.sample_time * 1e3:g} ms; q {plan.q.shape}, tcp {plan.tcp.shape}")
for segment in plan.segments:
    print(f"  {segment.id:12s} {segment.motion:5s} {segment.duration:6.3f} s  "
          f"v/vmax {segment.max_velocity_ratio:.2f}  a/amax {segment.max_acceleration_ratio:.2f}"
          f"  j/jmax {segment.max_jerk_ratio:.2f}")
for diagnostic in plan.diagnostics:
    print(f"  t={plan.time_of(diagnostic):.3f} s  {diagnostic}")

# %% The arrays are plain numpy: the fastest joint, from the positions alone.
speeds = np.abs(np.diff(plan.q, axis=0)) / plan.sample_time
fastest = int(np.argmax(speeds.max(axis=0) / ur5.limits.max_velocity))
print(f"fastest joint: {plan.joint_names[fastest]} at "
      f"{speeds[:, fastest].max():.3f} of {ur5.limits.max_velocity[fastest]:.2f} rad/s")

# %% Validate a fleet of variants over one stream: the arc speed from 0.1 to
# 2 m/s. Answers arrive as they finish, each once, with a progress bar.
variants = []
for speed in np.linspace(0.1, 2.0, 12):
    variant = copy.deepcopy(program)
    for segment in variant["segments"]:
        if segment["id"] == "corner_arc":
            segment["speed"] = {"linear_velocity": float(speed), "linear_acceleration": 30.0,
                                "linear_jerk": 300.0}
    variants.append((f"arc at {speed:.2f} m/s", variant))
results = sorted(ur5.validate(variants, progress=True), key=lambda r: r.request_id)
for result in results:
    warnings = sorted({d.code for d in result.diagnostics})
    print(f"  {result.request_id}: ok={result.ok} cycle {result.cycle_time:.3f} s {warnings}")

# %% The plot: position, velocity, acceleration and jerk of every joint as a
# fraction of its limit, the TCP path, the warning where it happened.
figure = plot_plan(plan, args.out, title="UR5 glue path, arc at 1.5 m/s: joints against "
                   "their limits")
print(f"wrote {args.out}")
client.close()
sys.exit(0)
