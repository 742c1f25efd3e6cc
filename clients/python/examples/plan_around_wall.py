#!/usr/bin/python3
"""A UR5 MoveJ around a wall: the straight motion and the one motiond plans
with avoid_collisions, drawn with the wall (the README's picture).

    PYTHONPATH=build/clients/python /usr/bin/python3 \\
        clients/python/examples/plan_around_wall.py --target=127.0.0.1:50051 \\
        --out=clients/python/examples/plan_around_wall.png
"""
import argparse
import copy
import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from mpl_toolkits.mplot3d.art3d import Poly3DCollection  # noqa: E402

import motiond  # noqa: E402

REPO = Path(__file__).resolve().parents[3]
EXAMPLES = REPO / "clients" / "examples"


def box_faces(centre, size):
    """The six faces of an axis-aligned box, as corner lists."""
    c, h = np.asarray(centre, dtype=float), np.asarray(size, dtype=float) / 2
    corners = [c + h * np.array([sx, sy, sz]) for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]
    faces = [(0, 1, 3, 2), (4, 5, 7, 6), (0, 1, 5, 4), (2, 3, 7, 6), (0, 2, 6, 4), (1, 3, 7, 5)]
    return [[corners[i] for i in face] for face in faces]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", default="127.0.0.1:50051")
    parser.add_argument("--out", default=str(Path(__file__).with_suffix(".png")))
    args = parser.parse_args()

    program = json.loads((EXAMPLES / "ur5_around_wall.json").read_text())
    scene = EXAMPLES / "ur5_wall_scene.json"
    straight_program = copy.deepcopy(program)
    straight_program["segments"][0]["movej"]["avoid_collisions"] = False

    with motiond.Client(args.target) as client:
        ur5 = client.robot(REPO / "robots" / "ur5.urdf")
        straight = ur5.plan(straight_program, scene=scene)
        around = ur5.plan(program, scene=scene)
        report = around.segments[0].raw.joint_path
        corners = [ur5.fk(w.values).position for w in report.waypoints]
    print(f"straight: ok={straight.ok} ({len(straight.diagnostics)} diagnostics); "
          f"around: ok={around.ok}, {len(report.waypoints) - 2} corners "
          f"({report.rounded_corners} rounded, {report.rounding_time_saved:.3f} s saved), "
          f"{report.length:.3f} rad (straight {report.straight_length:.3f}), "
          f"planned in {1e3 * report.planning_time:.1f} ms, cycle {around.cycle_time:.3f} s")

    wall = json.loads(scene.read_text())["objects"][0]
    p, s = wall["pose"]["position"], wall["shape"]["box"]["size"]
    figure = plt.figure(figsize=(8, 6.5), dpi=110)
    ax = figure.add_subplot(projection="3d")
    ax.add_collection3d(Poly3DCollection(box_faces((p["x"], p["y"], p["z"]),
                                                   (s["x"], s["y"], s["z"])),
                                         facecolor=(0.6, 0.6, 0.65, 0.35),
                                         edgecolor=(0.3, 0.3, 0.35, 0.8)))
    ax.plot(*straight.tcp[:, :3].T, "--", color="tab:red", lw=1.5,
            label="straight MoveJ (collides)")
    ax.plot(*around.tcp[:, :3].T, color="tab:blue", lw=2.2,
            label="avoid_collisions (RRT-Connect, shortcut)")
    rounded = report.rounded_corners
    ax.scatter(*np.array(corners[1:-1]).T, color="tab:blue", s=25, depthshade=False,
               label=f"corners ({len(corners) - 2}): {rounded} rounded, "
                     f"{len(corners) - 2 - rounded} at rest")
    for pose, text in ((around.tcp[0], "start"), (around.tcp[-1], "target")):
        ax.text(pose[0], pose[1], pose[2] + 0.03, text)
    ax.scatter([0], [0], [0], color="black", marker="^", s=40, label="UR5 base")
    ax.set_xlabel("x (m)")
    ax.set_ylabel("y (m)")
    ax.set_zlabel("z (m)")
    ax.set_box_aspect((1, 1, 0.8))
    ax.view_init(elev=28, azim=-125)
    ax.set_title("UR5 TCP around a wall: the straight MoveJ and avoid_collisions")
    ax.legend(loc="upper left", fontsize=8)
    figure.tight_layout()
    figure.savefig(args.out)
    print(f"written to {args.out}")


if __name__ == "__main__":
    main()
