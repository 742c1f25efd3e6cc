#!/usr/bin/env python3
"""Plots the near-singular UR5 MoveL of docs/cartesian_motion.md: its TCP
speed against the programmed 0.25 m/s, and every joint's |velocity| and
|torque| over its limit, from what core planned.

    /usr/bin/python3 scripts/plot_near_singular_movel.py docs/near_singular_movel.png

Runs build/core/examples/near_singular_movel robots/ur5.urdf (built with the
tests) for the samples. Needs Debian's python3-matplotlib.
"""
import argparse
import csv
import io
import subprocess

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("png")
    parser.add_argument("--example", default="build/core/examples/near_singular_movel")
    parser.add_argument("--urdf", default="robots/ur5.urdf")
    args = parser.parse_args()
    out = subprocess.run([args.example, args.urdf], check=True, capture_output=True, text=True)
    rows = list(csv.DictReader(io.StringIO(out.stdout)))
    t = [float(r["time"]) for r in rows]
    joints = [k[: -len("_velocity")] for k in rows[0] if k.endswith("_velocity")]
    fig, axes = plt.subplots(3, 1, figsize=(9, 9), sharex=True)
    axes[0].plot(t, [float(r["tcp_speed"]) for r in rows], label="TCP speed")
    axes[0].axhline(0.25, color="k", linestyle="--", label="programmed 0.25 m/s")
    axes[0].set_ylabel("m/s")
    axes[0].legend(loc="lower right")
    for kind, ax in (("velocity", axes[1]), ("torque", axes[2])):
        for j in joints:
            ax.plot(t, [float(r[f"{j}_{kind}"]) for r in rows], label=j)
        ax.axhline(1.0, color="k", linestyle="--", label="limit")
        ax.set_ylabel(f"|{kind}| / limit")
        ax.set_ylim(0, 1.1)
    axes[1].legend(loc="upper right", fontsize=7, ncol=2)
    axes[2].set_xlabel("t (s)")
    fig.suptitle("UR5 MoveL 4 cm from the wrist singularity: slowed where the wrist joints bind")
    fig.tight_layout()
    fig.savefig(args.png, dpi=90)
    print(f"plot written to {args.png}")


if __name__ == "__main__":
    main()
