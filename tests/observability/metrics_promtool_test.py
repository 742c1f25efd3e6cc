#!/usr/bin/python3
"""motiond's /metrics after a mixed workload: promtool accepts it, the numbers
are the requests sent, and the JSON log has exactly one line per RPC.

Usage: metrics_promtool_test.py MOTIOND MOTIONCTL ROBOTS_DIR EXAMPLES_DIR

motiond runs with --log_level=debug --log_format=json; the real motionctl
sends every method with OK and failing outcomes (bad joint count, unknown
robot, unreachable IK target), by robot_id so each command is exactly one RPC.
Then:
- `promtool check metrics` (Debian's prometheus package) accepts the page
  with no lint finding;
- every family has HELP and TYPE, the families and labels the dashboard and
  alerts use exist, histograms are cumulative with +Inf = _count;
- grpc_server_handled_total per (method, code) equals what was sent;
  started = handled; IK solves, IK successes and solve counts per operation
  equal what the client saw (counted here, independently of the server);
- the log: every line is a JSON object (time, level, msg); `rpc` lines per
  (method, code) equal the requests sent (one line per RPC), with the
  robot_id prefix and the counts; each rejected request has a warning with
  its reason, the unknown robot an info line;
- SIGTERM: exit 0.
"""
import json
import re
import subprocess
import sys

import obs_support as obs

EXPECTED_FAMILIES = {
    # family: (type, label names)
    "grpc_server_started_total": ("counter", {"grpc_service", "grpc_method", "grpc_type"}),
    "grpc_server_handled_total": ("counter", {"grpc_service", "grpc_method", "grpc_type", "grpc_code"}),
    "grpc_server_handling_seconds": ("histogram", {"grpc_service", "grpc_method", "grpc_type", "le"}),
    "grpc_server_msg_received_total": ("counter", {"grpc_service", "grpc_method", "grpc_type"}),
    "grpc_server_msg_sent_total": ("counter", {"grpc_service", "grpc_method", "grpc_type"}),
    "motiond_solve_seconds": ("histogram", {"operation", "solver", "le"}),
    "motiond_ik_iterations": ("histogram", {"solver", "le"}),
    "motiond_ik_solves_total": ("counter", {"solver", "result"}),
    "motiond_diagnostics_total": ("counter", {"code", "severity"}),
    "motiond_trajectory_points_total": ("counter", set()),
    "motiond_streams_in_flight": ("gauge", {"grpc_method"}),
    "motiond_registry_robots": ("gauge", set()),
    "motiond_registry_bytes": ("gauge", set()),
    "motiond_registry_hits_total": ("counter", set()),
    "motiond_registry_misses_total": ("counter", set()),
    "motiond_registry_evictions_total": ("counter", set()),
    "motiond_solver_workers": ("gauge", set()),
    "motiond_solver_busy_workers": ("gauge", set()),
    "motiond_solver_queue_depth": ("gauge", set()),
    "motiond_solver_queue_capacity": ("gauge", set()),
    "motiond_build_info": ("gauge", {"version", "compiler", "arch"}),
}

RFC3339 = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$")


def check_promtool(text):
    result = subprocess.run(["promtool", "check", "metrics"], input=text, capture_output=True,
                            text=True, timeout=60)
    findings = (result.stdout + result.stderr).strip()
    if result.returncode != 0 or findings:
        obs.fail(f"promtool check metrics: exit {result.returncode}\n{findings}")
    print("ok: promtool check metrics accepts /metrics (no lint findings)")


def check_families(samples, types, helps):
    families = {}
    for name, labels, _ in samples:
        families.setdefault(obs.family_of(name, types), set()).update(labels)
    for family in families:
        if family not in types:
            obs.fail(f"{family}: no # TYPE line")
        if not helps.get(family):
            obs.fail(f"{family}: no # HELP text")
    for family, (kind, labels) in EXPECTED_FAMILIES.items():
        if types.get(family) != kind:
            obs.fail(f"{family}: type {types.get(family)!r}, expected {kind}")
        if families.get(family) != labels:
            obs.fail(f"{family}: labels {sorted(families.get(family, []))}, expected {sorted(labels)}")
    # Histograms: cumulative buckets, +Inf bucket = _count.
    series = {}
    for name, labels, value in samples:
        family = obs.family_of(name, types)
        if types.get(family) != "histogram":
            continue
        key = (family, tuple(sorted((k, v) for k, v in labels.items() if k != "le")))
        entry = series.setdefault(key, {"buckets": [], "count": None, "sum": None})
        if name.endswith("_bucket"):
            entry["buckets"].append((float(labels["le"]), value))
        elif name.endswith("_count"):
            entry["count"] = value
        else:
            entry["sum"] = value
    for (family, labels), entry in series.items():
        buckets = sorted(entry["buckets"])
        counts = [c for _, c in buckets]
        if counts != sorted(counts) or buckets[-1][0] != float("inf"):
            obs.fail(f"{family}{dict(labels)}: buckets not cumulative or no +Inf: {buckets}")
        if counts[-1] != entry["count"] or entry["sum"] is None or entry["sum"] < 0:
            obs.fail(f"{family}{dict(labels)}: +Inf {counts[-1]} != _count {entry['count']} or bad _sum")
    print(f"ok: {len(families)} families with HELP and TYPE; {len(series)} histogram series consistent")


def value(samples, name, **match):
    return sum(v for n, labels, v in samples
               if n == name and all(labels.get(k) == m for k, m in match.items()))


def check_counts(samples, workload):
    handled = obs.handled_counts(samples)
    if handled != workload.sent:
        obs.fail(f"grpc_server_handled_total {sorted(handled.items())}\n"
                 f"   requests sent         {sorted(workload.sent.items())}")
    for method in {m for m, _ in workload.sent}:
        started = value(samples, "grpc_server_started_total", grpc_method=method)
        done = value(samples, "grpc_server_handled_total", grpc_method=method)
        if started != done:
            obs.fail(f"{method}: started {started} != handled {done}")
    ik_sent = workload.sent.get(("ComputeIk", "OK"), 0)
    checks = [
        ("motiond_ik_solves_total", value(samples, "motiond_ik_solves_total"), ik_sent),
        ("motiond_ik_solves_total{result=ok}", value(samples, "motiond_ik_solves_total", result="ok"),
         workload.ik_solved),
        ("motiond_solve_seconds_count{operation=ik}",
         value(samples, "motiond_solve_seconds_count", operation="ik"), ik_sent),
        ("motiond_solve_seconds_count{operation=fk}",
         value(samples, "motiond_solve_seconds_count", operation="fk"),
         workload.sent.get(("ComputeFk", "OK"), 0)),
        ("motiond_solve_seconds_count{operation=jacobian}",
         value(samples, "motiond_solve_seconds_count", operation="jacobian"),
         workload.sent.get(("ComputeJacobian", "OK"), 0)),
        ("motiond_solve_seconds_count{operation=path}",
         value(samples, "motiond_solve_seconds_count", operation="path"), workload.paths),
        ("motiond_streams_in_flight (all closed)", value(samples, "motiond_streams_in_flight"), 0),
        ("motiond_solver_workers", value(samples, "motiond_solver_workers"), 2),
    ]
    for what, got, expected in checks:
        if got != expected:
            obs.fail(f"{what} = {got}, expected {expected}")
    # Both example programs have MoveJ and MoveL segments, the glue path a MoveC.
    for operation, least in (("movej", workload.paths), ("movel", workload.paths), ("movec", 1)):
        if value(samples, "motiond_solve_seconds_count", operation=operation) < least:
            obs.fail(f"motiond_solve_seconds{{operation={operation}}}: fewer than {least}")
    print(f"ok: handled = sent for {workload.total()} RPCs {sorted(workload.sent.items())}; "
          f"IK {workload.ik_solved}/{ik_sent} solved, {workload.paths} paths")


def check_log(log_path, workload, ur5_prefix):
    lines = open(log_path, encoding="utf-8").read().splitlines()
    records = []
    for number, line in enumerate(lines, 1):
        try:
            record = json.loads(line)
        except ValueError as e:
            obs.fail(f"log line {number} is not JSON ({e}): {line!r}")
        if not isinstance(record, dict) or not RFC3339.match(str(record.get("time"))) \
                or record.get("level") not in ("trace", "debug", "info", "warning", "error", "critical") \
                or not isinstance(record.get("msg"), str):
            obs.fail(f"log line {number} lacks time/level/msg: {line!r}")
        records.append(record)
    rpc = [r for r in records if r["msg"] == "rpc" and r["level"] == "debug"]
    per_call = {}
    for r in rpc:
        if not isinstance(r.get("duration_ms"), (int, float)) or r["duration_ms"] < 0:
            obs.fail(f"rpc line without duration_ms: {r}")
        key = (r["method"], r["code"])
        per_call[key] = per_call.get(key, 0) + 1
    if per_call != workload.sent:
        obs.fail(f"rpc log lines {sorted(per_call.items())}\n   requests sent  {sorted(workload.sent.items())}")
    for r in rpc:
        m = r["method"]
        if m in ("ComputeFk", "ComputeIk", "ComputeJacobian", "PlanPath", "ValidatePath", "GetRobot",
                 "RegisterRobot") and not re.match(r"^sha256:[0-9a-f]{12}$", r.get("robot", "")):
            obs.fail(f"{m} line without a robot_id prefix: {r}")
        if m == "ComputeIk" and (r.get("targets") != 1 or r.get("solved") not in (0, 1)):
            obs.fail(f"ComputeIk line without targets/solved: {r}")
        if m == "ComputeFk" and r["code"] == "OK" and (r.get("joints") != 6 or r["robot"] != ur5_prefix):
            obs.fail(f"ComputeFk line: {r}")
        if m == "PlanPath" and not (r.get("points", 0) > 0 and r.get("segments", 0) > 0 and r.get("ok") is True):
            obs.fail(f"PlanPath line without points/segments/ok: {r}")
        if m == "ValidatePath" and (r.get("paths") != 2 or r.get("paths_ok") != 2):
            obs.fail(f"ValidatePath line: {r}")
        if m == "ListRobots" and r.get("robots", 0) < 12:
            obs.fail(f"ListRobots line: {r}")
        if r["code"] != "OK" and not r.get("error"):
            obs.fail(f"failed call logged without its error: {r}")
    solved = sum(r.get("solved", 0) for r in rpc if r["method"] == "ComputeIk")
    if solved != workload.ik_solved:
        obs.fail(f"ComputeIk lines say {solved} solved, the client saw {workload.ik_solved}")
    rejected = [r for r in records if r["msg"] == "rejected"]
    if len(rejected) != workload.sent.get(("ComputeFk", "InvalidArgument"), 0) or any(
            r["level"] != "warning" or r["code"] != "InvalidArgument" or "joints" not in r["reason"]
            for r in rejected):
        obs.fail(f"rejected-input warnings: {rejected}")
    unknown = [r for r in records if r["msg"] == "robot not registered"]
    if len(unknown) != workload.sent.get(("ComputeFk", "NotFound"), 0) or any(
            r["level"] != "info" or "not registered" not in r["reason"] for r in unknown):
        obs.fail(f"unknown-robot lines: {unknown}")
    print(f"ok: {len(records)} log lines, all JSON; {len(rpc)} rpc lines = requests sent; "
          f"{len(rejected)} rejection warnings with reasons")


def main():
    if len(sys.argv) != 5:
        obs.fail(__doc__)
    motiond_bin, motionctl, robots, examples = sys.argv[1:]
    work = obs.workdir("motiond-metrics-")
    motiond = obs.Motiond(motiond_bin, robots, work, ["--log_level=debug", "--log_format=json"])
    workload = obs.Workload(motionctl, motiond, robots, examples, work)
    workload.every_method_once()
    workload.bulk(16)

    text = motiond.metrics_text()
    check_promtool(text)
    samples, types, helps = obs.parse_metrics(text)
    check_families(samples, types, helps)
    check_counts(samples, workload)
    motiond.stop()
    check_log(motiond.log, workload, workload.ur5[:19])
    print("metrics_promtool: all checks passed")


if __name__ == "__main__":
    obs.run_main(main)
