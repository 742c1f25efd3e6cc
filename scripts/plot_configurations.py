#!/usr/bin/env python3
"""Draws the shoulder / elbow / wrist flags of motiond's robot configurations
(README "Robot configurations") on the ABB IRB 120's arm plane.

    /usr/bin/python3 scripts/plot_configurations.py scripts/robot_configurations.png

The arm plane is drawn in the arm's own frame (turned with joint 1): front
is to the right, up is along axis 1. Numbers from robots/abb_irb120.urdf:
axis 2 at 0.29 m, upper arm 0.27 m, wrist centre (0.302, 0.07) m from the
elbow. For one wrist-centre position in front and one behind, both elbow
solutions of the 2R arm are drawn, each labelled with the flags motiond's
definitions give it (computed here, by the same rules, in 2-D): shoulder =
side of axis 1 the wrist centre is on (front = where it is at q = 0),
elbow = sense of the turn shoulder -> elbow -> wrist centre (+1: that of an
elbow-up arm reaching forward), wrist = sign of joint 5 from where axes 4
and 6 line up. Needs Debian's python3-matplotlib.
"""
import math
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

SHOULDER = (0.0, 0.29)
UPPER = 0.27
FOREARM = math.hypot(0.302, 0.07)


def cross(a, b):
    return a[0] * b[1] - a[1] * b[0]


def sub(a, b):
    return (a[0] - b[0], a[1] - b[1])


def elbows(wrist):
    """Both elbow points of the 2R arm shoulder -> elbow -> wrist centre."""
    d = sub(wrist, SHOULDER)
    r = math.hypot(*d)
    along = (UPPER**2 - FOREARM**2 + r**2) / (2 * r)
    off = math.sqrt(max(UPPER**2 - along**2, 0.0))
    ux, uy = d[0] / r, d[1] / r
    base = (SHOULDER[0] + along * ux, SHOULDER[1] + along * uy)
    return [(base[0] - off * uy, base[1] + off * ux), (base[0] + off * uy, base[1] - off * ux)]


# The reference sense: an elbow-up arm reaching forward (the zero pose).
ZERO_ELBOW = (0.0, 0.56)
ZERO_WRIST = (0.302, 0.63)
ELBOW_REFERENCE = math.copysign(1, cross(sub(ZERO_ELBOW, SHOULDER), sub(ZERO_WRIST, SHOULDER)))


def flags(elbow, wrist):
    shoulder = 1 if wrist[0] > 0 else -1
    sense = cross(sub(elbow, SHOULDER), sub(wrist, SHOULDER))
    return shoulder, int(math.copysign(1, sense) * ELBOW_REFERENCE)


def draw_arm(ax, elbow, wrist):
    s, e = flags(elbow, wrist)
    ax.axvline(0.0, color="0.6", ls="--", lw=1)
    ax.text(0.01, 0.02, "axis 1", color="0.4", fontsize=8)
    ax.plot([-0.08, 0.08], [0, 0], color="k", lw=4)
    ax.plot([0, 0], [0, SHOULDER[1]], color="0.3", lw=5, solid_capstyle="butt")
    ax.plot([SHOULDER[0], wrist[0]], [SHOULDER[1], wrist[1]], color="tab:gray", ls=":", lw=1.5)
    ax.plot([SHOULDER[0], elbow[0], wrist[0]], [SHOULDER[1], elbow[1], wrist[1]],
            color="tab:blue" if e > 0 else "tab:orange", lw=4, marker="o", ms=8)
    ax.annotate("axis 2", SHOULDER, textcoords="offset points", xytext=(8 if wrist[0] < 0 else -38, -14), fontsize=8)
    ax.annotate("elbow", elbow, textcoords="offset points", xytext=(6, 4), fontsize=8)
    ax.annotate("wrist centre", wrist, textcoords="offset points", xytext=(-20, 10), fontsize=8)
    ax.set_title(f"shoulder {s:+d}, elbow {e:+d}", fontsize=10)
    ax.set_xlim(-0.55, 0.55)
    ax.set_ylim(-0.05, 0.85)
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    ax.text(0.5, -0.04, "behind  <-  axis 1  ->  front", transform=ax.transAxes, ha="center",
            va="top", fontsize=8, color="0.4")


def draw_wrist(ax, q5):
    # Seen along axis 5: axis 4 along the forearm (to the right), joint 5
    # turns the flange about the wrist centre.
    ax.plot([-0.5, 0], [0, 0], color="0.3", lw=6)
    ax.plot(0, 0, "ko", ms=8)
    tip = (0.45 * math.cos(q5), 0.45 * math.sin(q5))
    ax.annotate("", tip, (0, 0), arrowprops=dict(arrowstyle="-|>", lw=3,
                                                 color="tab:green" if q5 > 0 else "tab:red"))
    ax.plot([0, 0.5], [0, 0], color="0.6", ls="--", lw=1)
    ax.text(0.3, 0.03 if q5 < 0 else -0.09, "axes 4, 6 aligned", fontsize=8, color="0.4")
    ax.set_title(f"wrist {int(math.copysign(1, q5)):+d} (joint 5 {'>' if q5 > 0 else '<'} 0"
                 f"{', flip' if q5 < 0 else ''})", fontsize=10)
    ax.set_xlim(-0.55, 0.6)
    ax.set_ylim(-0.5, 0.5)
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "scripts/robot_configurations.png"
    fig, axes = plt.subplots(2, 3, figsize=(12, 7.5))
    for row, wrist in enumerate([(0.36, 0.52), (-0.36, 0.52)]):
        for col, elbow in enumerate(sorted(elbows(wrist), key=lambda e: -flags(e, wrist)[1])):
            draw_arm(axes[row][col], elbow, wrist)
        draw_wrist(axes[row][2], 0.8 if row == 0 else -0.8)
    fig.suptitle("Robot configurations on the ABB IRB 120 (arm plane, the arm's own frame)")
    fig.tight_layout()
    fig.savefig(out, dpi=90)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
