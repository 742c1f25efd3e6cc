#!/usr/bin/env python3
"""Draws a robot's collision geometry as motiond checks it, in a scene, at one
joint vector: links approximated by capsules (their meshes not sent) between
consecutive link origins, scene boxes as wireframes, links in contact in red
(README "Collision checking").

    /usr/bin/python3 scripts/plot_collision_geometry.py --target=127.0.0.1:50051 \
        ur5 clients/examples/ur5_cell_scene.json OUT.png [q1 ... qn]

Without joints, the arm is put with its TCP inside the scene's first object
(motionctl ik). Runs `motionctl --json fk --all_links` and `motionctl --json
check` against a running motiond (make run). Needs Debian's python3-matplotlib.
"""
import argparse
import itertools
import json
import math
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

RADIUS = 0.05  # RobotCollisionModel::kApproximationRadius


def ctl(args, *words):
    out = subprocess.run([args.motionctl, f"--target={args.target}", "--json", *words],
                         capture_output=True, text=True)
    return json.loads(out.stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("robot")
    parser.add_argument("scene")
    parser.add_argument("png")
    parser.add_argument("joints", nargs="*", type=float)
    parser.add_argument("--target", default="127.0.0.1:50051")
    parser.add_argument("--motionctl", default="build/clients/motionctl")
    args = parser.parse_args()
    with open(args.scene) as f:
        scene = json.load(f)
    q = args.joints
    if not q:
        p = scene["objects"][0]["pose"]["position"]
        ik = ctl(args, "ik", args.robot, str(p["x"]), str(p["y"]), str(p["z"]), "0", "1", "0", "0")
        q = ik["joints"]
    words = [str(v) for v in q]
    fk = ctl(args, "fk", args.robot, *words, "--all_links")
    check = ctl(args, "check", args.robot, *words, f"--scene={args.scene}")
    touching = {c["link"] for c in check["results"][0]["contacts"]}
    touched = {c["other"] for c in check["results"][0]["contacts"]}
    sources = {l["link"]: l["source"] for l in check["links"]}

    fig = plt.figure(figsize=(8, 7))
    ax = fig.add_subplot(projection="3d")
    links = fk["links"]
    for a, b in zip(links, links[1:]):
        pa = [a["pose"]["position"].get(k, 0.0) for k in "xyz"]
        pb = [b["pose"]["position"].get(k, 0.0) for k in "xyz"]
        if sources.get(a["link"]) == "none":
            continue
        colour = "tab:red" if a["link"] in touching else "tab:blue"
        # A capsule of radius 5 cm seen from afar: a thick tube.
        ax.plot(*zip(pa, pb), color=colour, linewidth=14, alpha=0.45, solid_capstyle="round")
        ax.plot(*zip(pa, pb), color="black", linewidth=1)
        ax.text(*pa, a["link"], fontsize=7)
    for o in scene["objects"]:
        c = [o["pose"]["position"].get(k, 0.0) for k in "xyz"]
        size = o["shape"].get("box", {}).get("size")
        if not size:
            continue
        h = [size.get(k, 0.0) / 2 for k in "xyz"]
        corners = [[c[i] + s[i] * h[i] for i in range(3)]
                   for s in itertools.product((-1, 1), repeat=3)]
        colour = "tab:red" if o["id"] in touched else "tab:gray"
        for i, j in itertools.combinations(range(8), 2):
            if sum(a != b for a, b in zip(corners[i], corners[j])) == 1:
                ax.plot(*zip(corners[i], corners[j]), color=colour, linewidth=1.2)
        ax.text(*c, o["id"], fontsize=8, color=colour)
    ax.set_xlabel("x (m)")
    ax.set_ylabel("y (m)")
    ax.set_zlabel("z (m)")
    ax.set_box_aspect((1, 1, 1))
    lim = 0.7
    ax.set_xlim(-0.2, lim)
    ax.set_ylim(-0.45, 0.45)
    ax.set_zlim(-0.15, 0.75)
    verdict = "IN COLLISION: " + ", ".join(sorted(touching)) if touching else "collision-free"
    ax.set_title(f"{args.robot}: links as capsules r = {RADIUS * 100:.0f} cm (meshes not sent)\n"
                 f"q = ({', '.join(f'{v:.2f}' for v in q)}) - {verdict}", fontsize=9)
    fig.tight_layout()
    fig.savefig(args.png, dpi=90)
    print(f"wrote {args.png}")


if __name__ == "__main__":
    sys.exit(main())
