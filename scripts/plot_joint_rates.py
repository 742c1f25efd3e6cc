#!/usr/bin/env python3
"""Plots a planned program's joint velocity, acceleration and jerk against
the robot's limits, from what motiond returned (README "Motion defaults and
timing").

    /usr/bin/python3 scripts/plot_joint_rates.py --target=127.0.0.1:50051 \
        clients/examples/ur5_glue_path.json clients/examples/ur5_glue_path_rates.png

Runs `motionctl plan PROGRAM --csv=...` and `motionctl --json robot ROBOT`
against a running motiond (make run), then draws, per joint, |rate| / limit
over time: velocity as returned, and velocity, acceleration and jerk as
divided differences of the returned positions (what a controller sees).
Needs Debian's python3-matplotlib (apt-get install python3-matplotlib).
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("program", help="a motionctl program file (JSON)")
    parser.add_argument("png", help="where to write the plot")
    parser.add_argument("--target", default="127.0.0.1:50051")
    parser.add_argument("--motionctl", default="build/clients/motionctl")
    args = parser.parse_args()

    with open(args.program) as f:
        robot = json.load(f)["robot"]
    with tempfile.TemporaryDirectory() as tmp:
        csv_path = os.path.join(tmp, "samples.csv")
        subprocess.run([args.motionctl, f"--target={args.target}", "plan", args.program,
                        f"--csv={csv_path}"], check=True, stdout=subprocess.DEVNULL)
        info = json.loads(subprocess.run([args.motionctl, f"--target={args.target}", "--json",
                                          "robot", robot], check=True, capture_output=True,
                                         text=True).stdout)
        with open(csv_path) as f:
            rows = list(csv.DictReader(f))
    joints = info["joints"]
    t = [float(r["time"]) for r in rows]
    dt = t[1] - t[0]
    fig, axes = plt.subplots(3, 1, figsize=(10, 8), sharex=True)
    for joint in joints:
        name = joint["name"]
        q = [float(r["q_" + name]) for r in rows]
        n = len(q)
        at = lambda k: q[min(max(k, 0), n - 1)]  # at rest before and after
        v = [abs(at(k) - at(k - 1)) / dt / joint["max_velocity"] for k in range(n)]
        a = [abs(at(k + 1) - 2 * at(k) + at(k - 1)) / dt**2 / joint["max_acceleration"]
             for k in range(n)]
        j = [abs(at(k + 1) - 3 * at(k) + 3 * at(k - 1) - at(k - 2)) / dt**3 / joint["max_jerk"]
             for k in range(n)]
        axes[0].plot(t, v, label=name, linewidth=1)
        axes[1].plot(t, a, label=name, linewidth=1)
        axes[2].plot(t, j, label=name, linewidth=1)
    for ax, what in zip(axes, ["velocity", "acceleration", "jerk"]):
        ax.axhline(1.0, color="black", linestyle="--", linewidth=1)
        ax.set_ylabel(f"|{what}| / limit")
        ax.set_ylim(0, 1.15)
        ax.grid(alpha=0.3)
    axes[0].legend(loc="upper right", fontsize=7, ncol=3)
    axes[2].set_xlabel("time (s), samples every %.3f s" % dt)
    fig.suptitle(f"{os.path.basename(args.program)} on {info['name']}: joint rates from the "
                 "returned positions (divided differences)")
    fig.tight_layout()
    fig.savefig(args.png, dpi=90)
    print(f"wrote {args.png}")


if __name__ == "__main__":
    sys.exit(main())
