"""Plots of a planned path against the robot's limits (matplotlib).

One figure: joint position, velocity, acceleration and jerk over time, each
as a fraction of its limit (or in rad/m with the limits drawn), the TCP path
in 3D, and the plan's diagnostics marked where they happened. Jerk is not
sent by the server; it is the finite difference of the returned
accelerations (:meth:`motiond.Plan.jerk`).

Writing a file uses matplotlib's Agg canvas directly, so it works without a
display and never changes the process's pyplot backend; only ``show=True``
goes through pyplot (and whatever interactive backend it picks).

    from motiond.plot import plot_plan
    plot_plan(plan, "plan.png")        # writes a PNG (robot limits from plan.robot)
    plot_plan(plan, show=True)         # opens a window
"""
from __future__ import annotations

import os
import textwrap
from typing import List, Optional, Sequence, Tuple, Union

import numpy as np
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from motiond.robot import Robot
from motiond.robot_info import JointLimits, RobotInfo
from motiond.trajectory import Plan

#: Where the limits come from: a Robot (GetRobot), its RobotInfo, or the arrays.
LimitsLike = Union[Robot, RobotInfo, JointLimits]

_SEVERITY_COLOURS = {"ERROR": "#d62728", "WARNING": "#ff7f0e", "INFO": "#7f7f7f"}
#: Diagnostics listed in the figure's text panel (all are marked on the axes).
_LISTED_DIAGNOSTICS = 6


def _limits_of(plan: Plan, limits: Optional[LimitsLike]) -> JointLimits:
    source = limits if limits is not None else plan.robot
    if source is None:
        raise ValueError("plot_plan: the plan has no robot; pass limits= (a Robot, RobotInfo "
                         "or JointLimits)")
    if isinstance(source, Robot):
        source = source.limits
    elif isinstance(source, RobotInfo):
        source = source.limits
    if tuple(source.names) != tuple(plan.joint_names):
        raise ValueError(f"plot_plan: limits are for joints {list(source.names)}, the plan has "
                         f"{plan.joint_names}")
    return source


def _ratio(values: np.ndarray, limit: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(limit > 0, values / limit, np.nan)


def _joint_rows(plan: Plan, limits: JointLimits, normalized: bool
                ) -> List[Tuple[str, np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
    """(label, t, values, lower, upper) per quantity; lower/upper per joint."""
    t_jerk, jerk = plan.jerk()
    bounded = np.isfinite(limits.lower) & np.isfinite(limits.upper)
    if normalized:
        # Position as the place in the range: -1 at the lower limit, +1 at
        # the upper one, so every joint shares the same two limit lines.
        mid = np.where(bounded, 0.5 * (limits.lower + limits.upper), 0.0)
        half = np.where(bounded, 0.5 * (limits.upper - limits.lower), np.nan)
        ones = np.ones(plan.dof)
        return [
            ("position\n(-1 lower, +1 upper limit)", plan.time, _ratio(plan.q - mid, half),
             -ones, ones),
            ("velocity / limit", plan.time, _ratio(plan.qd, limits.max_velocity), -ones, ones),
            ("acceleration / limit", plan.time, _ratio(plan.qdd, limits.max_acceleration),
             -ones, ones),
            ("jerk / limit\n(differences of qdd)", t_jerk, _ratio(jerk, limits.max_jerk),
             -ones, ones),
        ]
    return [
        ("position (rad, m)", plan.time, plan.q, limits.lower, limits.upper),
        ("velocity (/s)", plan.time, plan.qd, -limits.max_velocity, limits.max_velocity),
        ("acceleration (/s²)", plan.time, plan.qdd, -limits.max_acceleration,
         limits.max_acceleration),
        ("jerk (/s³)\n(differences of qdd)", t_jerk, jerk, -limits.max_jerk, limits.max_jerk),
    ]


def _draw_joint_axes(axes: Sequence[Axes], plan: Plan, limits: JointLimits,
                     normalized: bool) -> None:
    colours = [f"C{i % 10}" for i in range(plan.dof)]
    for ax, (label, t, values, lower, upper) in zip(axes, _joint_rows(plan, limits, normalized)):
        for j, name in enumerate(plan.joint_names):
            ax.plot(t, values[:, j], color=colours[j], linewidth=1.0, label=name)
        if normalized:
            for bound in (-1.0, 1.0):
                ax.axhline(bound, color="black", linestyle="--", linewidth=0.8)
            # Room for what goes beyond a limit (up to 3x), so a violation
            # shows how far it goes instead of being clipped at the line.
            finite = np.abs(values[np.isfinite(values)])
            worst = float(finite.max()) if finite.size else 0.0
            top = min(max(1.15, 1.05 * worst), 3.0)
            ax.set_ylim(-top, top)
        else:
            for j in range(plan.dof):
                for bound in (lower[j], upper[j]):
                    if np.isfinite(bound):
                        ax.axhline(bound, color=colours[j], linestyle="--", linewidth=0.7)
        ax.set_ylabel(label, fontsize=8)
        ax.grid(alpha=0.3)
        ax.tick_params(labelsize=8)
    axes[0].legend(loc="upper right", fontsize=7, ncol=min(plan.dof, 4))
    axes[-1].set_xlabel(f"time (s), a sample every {plan.sample_time * 1e3:g} ms", fontsize=8)
    for segment in plan.segments:
        for ax in axes:
            ax.axvline(segment.start_time, color="0.6", linestyle=":", linewidth=0.8)
        axes[0].annotate(segment.id, (segment.start_time, 1.0), xycoords=("data", "axes fraction"),
                         xytext=(2, 2), textcoords="offset points", fontsize=7, color="0.35",
                         rotation=20, va="bottom")


def _draw_diagnostics(axes: Sequence[Axes], path_ax: Optional[Axes], plan: Plan) -> None:
    for index, diagnostic in enumerate(plan.diagnostics):
        when = plan.time_of(diagnostic)
        if when is None:
            continue
        colour = _SEVERITY_COLOURS.get(diagnostic.severity, "black")
        for ax in axes:
            line = ax.axvline(when, color=colour, linewidth=1.2, alpha=0.8)
            # The gid lets a caller (and the tests) find which marker is which.
            line.set_gid(f"diagnostic:{index}:{diagnostic.code}")
        axes[0].annotate(diagnostic.code, (when, 0.02), xycoords=("data", "axes fraction"),
                         xytext=(3, 0), textcoords="offset points", fontsize=7, color=colour,
                         rotation=90, va="bottom")
        if path_ax is not None and plan.tcp is not None and len(plan) > 0:
            k = int(np.clip(np.searchsorted(plan.time, when), 0, len(plan) - 1))
            x, y, z = plan.tcp[k, :3]
            path_ax.scatter([x], [y], [z], color=colour, s=30, depthshade=False,
                            gid=f"diagnostic:{index}:{diagnostic.code}")
            path_ax.text(x, y, z, " " + diagnostic.code, fontsize=7, color=colour)


def _draw_tcp_path(ax: Axes, plan: Plan) -> None:
    if plan.tcp is None or len(plan) == 0:
        ax.text2D(0.5, 0.5, "no TCP poses\n(plan with include_tcp=True)", ha="center",
                  va="center", transform=ax.transAxes, fontsize=9)
        return
    xyz = plan.tcp[:, :3]
    for i, segment in enumerate(plan.segments):
        rows = slice(segment.first_index, segment.first_index + segment.point_count + 1)
        if segment.point_count > 0:
            ax.plot(*xyz[rows].T, color=f"C{i % 10}", linewidth=1.5, label=segment.id)
    ax.scatter(*xyz[0], color="green", s=25, depthshade=False, label="start")
    ax.scatter(*xyz[-1], color="black", marker="x", s=25, depthshade=False, label="end")
    # Equal scale on the three axes, or a straight MoveL would look bent.
    centre = 0.5 * (xyz.max(axis=0) + xyz.min(axis=0))
    half = max(0.5 * float(np.max(xyz.max(axis=0) - xyz.min(axis=0))), 1e-3)
    ax.set_xlim(centre[0] - half, centre[0] + half)
    ax.set_ylim(centre[1] - half, centre[1] + half)
    ax.set_zlim(centre[2] - half, centre[2] + half)
    ax.set_box_aspect((1, 1, 1))
    ax.set_xlabel("x (m)", fontsize=8)
    ax.set_ylabel("y (m)", fontsize=8)
    ax.set_zlabel("z (m)", fontsize=8)
    ax.tick_params(labelsize=7)
    ax.legend(loc="upper left", fontsize=6, framealpha=0.6)
    ax.set_title("TCP path (base frame)", fontsize=9)


def _diagnostics_text(plan: Plan) -> str:
    lines = [f"{'ok' if plan.ok else 'NOT OK'}: cycle time {plan.cycle_time:.3f} s, "
             f"{len(plan)} samples, {len(plan.diagnostics)} diagnostics"]
    for diagnostic in plan.diagnostics[:_LISTED_DIAGNOSTICS]:
        when = plan.time_of(diagnostic)
        at = f"t={when:.3f}s " if when is not None else ""
        message = textwrap.shorten(diagnostic.message, width=150, placeholder=" ...")
        wrapped = textwrap.fill(message, width=58, initial_indent="    ",
                                subsequent_indent="    ")
        lines.append(f"{diagnostic.severity[0]} {at}{diagnostic.code} "
                     f"[{diagnostic.segment_id or 'path'}]\n{wrapped}")
    if len(plan.diagnostics) > _LISTED_DIAGNOSTICS:
        lines.append(f"... and {len(plan.diagnostics) - _LISTED_DIAGNOSTICS} more")
    return "\n".join(lines)


def draw_plan(figure: Figure, plan: Plan, limits: Optional[LimitsLike] = None, *,
              normalized: bool = True, title: Optional[str] = None) -> Figure:
    """Draws the plan into an existing (empty) figure; see :func:`plot_plan`."""
    joint_limits = _limits_of(plan, limits)
    grid = figure.add_gridspec(4, 3, width_ratios=(1.0, 1.0, 0.9), hspace=0.12, wspace=0.22,
                               left=0.07, right=0.98, top=0.9, bottom=0.07)
    first = figure.add_subplot(grid[0, 0:2])
    joint_axes = [first] + [figure.add_subplot(grid[r, 0:2], sharex=first) for r in (1, 2, 3)]
    for ax in joint_axes[:-1]:
        ax.tick_params(labelbottom=False)
    path_ax = figure.add_subplot(grid[0:3, 2], projection="3d")
    text_ax = figure.add_subplot(grid[3, 2])
    text_ax.axis("off")

    _draw_joint_axes(joint_axes, plan, joint_limits, normalized)
    _draw_tcp_path(path_ax, plan)
    _draw_diagnostics(joint_axes, path_ax if plan.tcp is not None else None, plan)
    text_ax.text(0.0, 1.0, _diagnostics_text(plan), va="top", ha="left", fontsize=7,
                 family="monospace", transform=text_ax.transAxes)
    if title is None:
        name = plan.robot.info.name if plan.robot is not None else plan.robot_id[:19] + "..."
        title = f"{name}: joint motion against its limits"
    figure.suptitle(title, fontsize=11)
    return figure


def plot_plan(plan: Plan, path: Union[None, str, "os.PathLike[str]"] = None, *,
              limits: Optional[LimitsLike] = None, show: Optional[bool] = None,
              normalized: bool = True, title: Optional[str] = None,
              figsize: Tuple[float, float] = (14.0, 9.0), dpi: int = 100) -> Figure:
    """Plots a plan against the robot's joint limits.

    Args:
        plan: from :meth:`motiond.Robot.plan` (with ``include_tcp`` for the
            3D path).
        path: write the figure there (PNG unless the suffix says otherwise),
            ``figsize`` x ``dpi`` pixels.
        limits: a Robot, RobotInfo or JointLimits; default ``plan.robot``'s
            (GetRobot: URDF position and velocity limits, acceleration and
            jerk from the documented defaults or overrides).
        show: open a window (pyplot); default: only when no ``path`` is given.
        normalized: plot value / limit (limits at +-1; positions -1 at the
            lower and +1 at the upper limit); False plots rad or m per s^k
            with each joint's limits dashed in its colour.
        title: the figure's title.

    Returns:
        The matplotlib Figure.
    """
    show = path is None if show is None else show
    if show:
        import matplotlib.pyplot as plt  # only here: it selects a GUI backend

        figure = plt.figure(figsize=figsize, dpi=dpi)
    else:
        figure = Figure(figsize=figsize, dpi=dpi)
        FigureCanvasAgg(figure)
    draw_plan(figure, plan, limits, normalized=normalized, title=title)
    if path is not None:
        figure.savefig(os.fspath(path), dpi=dpi)
    if show:
        plt.show()
    return figure


def diagnostic_marks(figure: Figure) -> List[Tuple[int, str, float]]:
    """(diagnostic index, code, time) of every diagnostic marker on the
    figure's first joint axis: what :func:`plot_plan` marked, and where."""
    marks = []
    first = figure.axes[0]
    for line in first.get_lines():
        gid = line.get_gid() or ""
        if gid.startswith("diagnostic:"):
            _, index, code = gid.split(":", 2)
            marks.append((int(index), code, float(line.get_xdata()[0])))
    return marks


__all__ = ["LimitsLike", "diagnostic_marks", "draw_plan", "plot_plan"]
