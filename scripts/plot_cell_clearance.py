#!/usr/bin/env python3
"""Draws a cell's clearance over time as motiond's ValidateCell measures it:
the smallest robot-robot or robot-scene distance at every instant, the
contact intervals it reports shaded, first with the start times of the cell
file, then with the start times it suggests (README "Cell validation").

    /usr/bin/python3 scripts/plot_cell_clearance.py --target=127.0.0.1:50051 \
        clients/examples/ur5_pair_cell.json OUT.png

Runs `motionctl --json cell FILE --clearance --find_start_times` against a
running motiond (make run), then again with the suggested start times.
Needs Debian's python3-matplotlib.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def cell(args, path, *flags):
    out = subprocess.run([args.motionctl, f"--target={args.target}", "--json", "cell", path,
                          "--clearance", *flags], capture_output=True, text=True)
    if out.returncode not in (0, 3):  # 3: not collision-free, still an answer
        sys.exit(f"motionctl cell failed ({out.returncode}): {out.stderr.strip()}")
    return json.loads(out.stdout)


def with_start_times(path, start_times):
    """The cell file with other start times, program paths made absolute."""
    with open(path) as f:
        document = json.load(f)
    here = os.path.dirname(os.path.abspath(path))
    for robot, start in zip(document["robots"], start_times):
        robot["start_time"] = start
        if isinstance(robot.get("program"), str):
            robot["program"] = os.path.join(here, robot["program"])
    if isinstance(document.get("scene"), str):
        document["scene"] = os.path.join(here, document["scene"])
    out = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
    json.dump(document, out)
    out.close()
    return out.name


def number(value):
    return float(value) if not isinstance(value, str) else float(value.replace("Infinity", "inf"))


def draw(ax, answer, title):
    times = [number(t) for t in answer.get("clearance_time", [])]
    clearance = [number(d) for d in answer.get("clearance", [])]
    ax.plot(times, clearance, color="tab:blue", lw=1.5, label="clearance (min over every pair)")
    ax.axhline(0.0, color="black", lw=0.8)
    lines = []
    for k, c in enumerate(answer.get("contacts", [])):
        start, end = number(c.get("start_time", 0)), number(c.get("end_time", 0))
        ax.axvspan(start, end, color="tab:red", alpha=0.12,
                   label="contact interval" if k == 0 else None)
        other = f'{c["robot_b"]}/{c["other"]}' if c.get("robot_b") else f'scene/{c["other"]}'
        lines.append(f'{c["robot_a"]}/{c["link_a"]} - {other}: {start:.3f}-{end:.3f} s')
    if lines:
        ax.text(0.01, 0.97, "\n".join(lines), transform=ax.transAxes, ha="left", va="top",
                fontsize=7, color="darkred", family="monospace",
                bbox={"facecolor": "white", "alpha": 0.8, "edgecolor": "none"})
    ax.set_title(title, fontsize=10)
    ax.set_ylabel("clearance (m)")
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right", fontsize=8)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("cell")
    parser.add_argument("png")
    parser.add_argument("--target", default="127.0.0.1:50051")
    parser.add_argument("--motionctl", default="build/clients/motionctl")
    args = parser.parse_args()
    first = cell(args, args.cell, "--find_start_times")
    suggested = [number(t) for t in first.get("suggested_start_times", [])]
    fig, axes = plt.subplots(2, 1, figsize=(9, 6.5), sharex=True)
    names = [r["name"] for r in first["robots"]]
    draw(axes[0], first, f"{', '.join(names)} started together: "
         f"min clearance {number(first['min_clearance']):.3f} m")
    if suggested:
        path = with_start_times(args.cell, suggested)
        try:
            second = cell(args, path)
        finally:
            os.unlink(path)
        starts = ", ".join(f"{n} {t:.2f} s" for n, t in zip(names, suggested))
        draw(axes[1], second, f"suggested start times ({starts}): "
             f"min clearance {number(second['min_clearance']):.3f} m")
    else:
        axes[1].set_title(first.get("start_times_note", "no start times found"), fontsize=10)
    axes[1].set_xlabel("cell time (s)")
    fig.tight_layout()
    fig.savefig(args.png, dpi=110)


if __name__ == "__main__":
    main()
