#!/usr/bin/env python3
"""Plots one blended corner of a program as motiond returns it: the TCP path
in the plane of the corner with the zone circle, against the same program
with fine stops, and joint and TCP speeds through the blend (README "Zones").

    /usr/bin/python3 scripts/plot_blended_corner.py --target=127.0.0.1:50051 \
        clients/examples/ur5_glue_bead_zones.json edge_3 \
        clients/examples/ur5_glue_bead_corner.png

Runs `motionctl plan PROGRAM --csv=...` and `motionctl --json plan PROGRAM`
against a running motiond (make run), for the program as written and with
every zone made FINE. Speeds are divided differences of the returned samples
(what a controller sees), not the velocities sent. Needs Debian's
python3-matplotlib.
"""
import argparse
import csv
import json
import math
import os
import subprocess
import sys
import tempfile

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def plan(motionctl, target, program_path, tmp, tag):
    csv_path = os.path.join(tmp, tag + ".csv")
    subprocess.run([motionctl, f"--target={target}", "plan", program_path, f"--csv={csv_path}"],
                   check=True, stdout=subprocess.DEVNULL)
    report = json.loads(subprocess.run([motionctl, f"--target={target}", "--json", "plan",
                                        program_path], check=True, capture_output=True,
                                       text=True).stdout)
    with open(csv_path) as f:
        rows = list(csv.DictReader(f))
    return rows, report


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("program", help="a motionctl program file (JSON) with zones")
    parser.add_argument("segment", help="id of the segment whose zone to show")
    parser.add_argument("png", help="where to write the plot")
    parser.add_argument("--target", default="127.0.0.1:50051")
    parser.add_argument("--motionctl", default="build/clients/motionctl")
    args = parser.parse_args()

    with open(args.program) as f:
        program = json.load(f)
    index = [s.get("id") for s in program["segments"]].index(args.segment)
    corner = program["segments"][index]["movel"]["target"]["position"]
    radius = program["segments"][index]["zone"]["distance"]
    fine_program = json.loads(json.dumps(program))
    for s in fine_program["segments"]:
        s.pop("zone", None)
    with tempfile.TemporaryDirectory() as tmp:
        fine_path = os.path.join(tmp, "fine.json")
        with open(fine_path, "w") as f:
            json.dump(fine_program, f)
        blended_rows, blended_report = plan(args.motionctl, args.target, args.program, tmp,
                                            "blended")
        fine_rows, fine_report = plan(args.motionctl, args.target, fine_path, tmp, "fine")
    blend = blended_report["segment_reports"][index]["blend"]
    joints = [k[2:] for k in blended_rows[0] if k.startswith("q_")]

    fig, (path_ax, speed_ax) = plt.subplots(1, 2, figsize=(12, 5.2))
    cx, cy = corner["x"], corner["y"]
    for rows, label, style in [(fine_rows, "fine stop", "--"), (blended_rows, "blended", "-")]:
        x = [float(r["tcp_x"]) for r in rows]
        y = [float(r["tcp_y"]) for r in rows]
        path_ax.plot(x, y, style, label=label, linewidth=1.5)
    start, end = int(blend["start_index"]), int(blend["end_index"])
    path_ax.plot([float(blended_rows[k]["tcp_x"]) for k in (start, end)],
                 [float(blended_rows[k]["tcp_y"]) for k in (start, end)], "o", color="C3",
                 label="blend start / end")
    circle = [(cx + radius * math.cos(a / 100 * 2 * math.pi),
               cy + radius * math.sin(a / 100 * 2 * math.pi)) for a in range(101)]
    path_ax.plot([p[0] for p in circle], [p[1] for p in circle], ":", color="gray",
                 label=f"zone sphere, r = {radius * 1000:.0f} mm")
    path_ax.plot([cx], [cy], "x", color="black", label="programmed corner")
    path_ax.set_xlim(cx - 2.5 * radius, cx + 2.5 * radius)
    path_ax.set_ylim(cy - 2.5 * radius, cy + 2.5 * radius)
    path_ax.set_aspect("equal")
    path_ax.set_xlabel("x (m)")
    path_ax.set_ylabel("y (m)")
    path_ax.grid(alpha=0.3)
    path_ax.legend(fontsize=8, loc="best")
    path_ax.set_title(f"TCP at corner '{args.segment}': missed by "
                      f"{float(blend['corner_distance']) * 1000:.1f} mm")

    t = [float(r["time"]) for r in blended_rows]
    dt = t[1] - t[0]
    lo, hi = max(0, start - 60), min(len(t) - 1, end + 60)
    for name in joints:
        q = [float(r["q_" + name]) for r in blended_rows]
        v = [(q[k + 1] - q[k - 1]) / (2 * dt) for k in range(lo, hi)]
        speed_ax.plot(t[lo:hi], v, linewidth=1, label=name)
    tcp = [(float(r["tcp_x"]), float(r["tcp_y"]), float(r["tcp_z"])) for r in blended_rows]
    speed = [math.dist(tcp[k + 1], tcp[k - 1]) / (2 * dt) for k in range(lo, hi)]
    speed_ax.plot(t[lo:hi], speed, color="black", linewidth=2, label="TCP speed (m/s)")
    speed_ax.axvspan(float(blend["start_time"]), float(blend["end_time"]), color="C3", alpha=0.12,
                     label="blend")
    speed_ax.set_xlabel("time (s)")
    speed_ax.set_ylabel("joint velocity (rad/s), by central differences")
    speed_ax.grid(alpha=0.3)
    speed_ax.legend(fontsize=7, loc="best", ncol=2)
    speed_ax.set_title("through the blend: no stop, velocities continuous")
    fig.suptitle(f"{os.path.basename(args.program)}: cycle {blended_report['cycle_time']:.3f} s "
                 f"blended vs {fine_report['cycle_time']:.3f} s with fine stops")
    fig.tight_layout()
    fig.savefig(args.png, dpi=90)
    print(f"wrote {args.png}")


if __name__ == "__main__":
    sys.exit(main())
