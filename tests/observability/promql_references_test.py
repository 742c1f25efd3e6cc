#!/usr/bin/python3
"""Every PromQL expression of the Grafana dashboard and the alert rules parses
and names only metrics, labels and label values that motiond's /metrics has.

Usage: promql_references_test.py DASHBOARD_JSON ALERTS_YML MOTIOND MOTIONCTL ROBOTS_DIR EXAMPLES_DIR

- Parsing: every expression (Grafana variables replaced as a live dashboard
  would: $__rate_interval -> 1m, $job -> motiond, $instance -> .*) goes into
  a temporary rule file as a recording rule, and `promtool check rules` must
  accept it: Prometheus's own parser. (prometheus_e2e_test.py also runs each
  one on a real Prometheus.)
- References: a real motiond, after a mixed workload, serves /metrics; every
  metric an expression selects must be there (histograms by their
  _bucket/_sum/_count series; `up` comes from Prometheus), every label it
  matches or groups by must exist on the metrics it uses (job and instance
  are Prometheus's), and every `label="value"` matcher must match a value
  the server actually exports (a typo such as operation="IK" fails).
- Coverage: the dashboard shows what an operator needs (RPC rate by method and
  code, error ratio, handling and solve latency, IK success, queue depth,
  busy workers, registry size, in-flight streams).
"""
import os
import subprocess
import sys

import obs_support as obs
import promql_check

PROMETHEUS_LABELS = {"job", "instance"}
# Labels whose values are a fixed set that a short workload does not all
# produce: matchers are checked against the set (each alternative of a
# regex too), not against what was exported.
GRPC_CODES = {"OK", "Canceled", "Unknown", "InvalidArgument", "DeadlineExceeded", "NotFound",
              "AlreadyExists", "PermissionDenied", "ResourceExhausted", "FailedPrecondition",
              "Aborted", "OutOfRange", "Unimplemented", "Internal", "Unavailable", "DataLoss",
              "Unauthenticated"}
VALUE_DOMAINS = {"grpc_code": GRPC_CODES}
PROMETHEUS_METRICS = {"up": set()}  # added to every scrape by Prometheus

DASHBOARD_MUST_USE = [
    "grpc_server_handled_total", "grpc_server_handling_seconds_bucket",
    "motiond_solve_seconds_bucket", "motiond_ik_solves_total", "motiond_solver_queue_depth",
    "motiond_solver_busy_workers", "motiond_registry_robots", "motiond_streams_in_flight",
]


def check_parse(expressions, work):
    rules = os.path.join(work, "expressions.rules.yml")
    with open(rules, "w") as f:
        promql_check.yaml.safe_dump(
            {"groups": [{"name": "dashboard_and_alerts",
                         "rules": [{"record": f"check:expression_{n}", "expr": expr}
                                   for n, (_, expr) in enumerate(expressions)]}]}, f)
    result = subprocess.run(["promtool", "check", "rules", rules], capture_output=True, text=True,
                            timeout=60)
    if result.returncode != 0:
        obs.fail(f"promtool check rules rejects an expression:\n{result.stdout}{result.stderr}\n"
                 + "\n".join(f"  expression_{n}: {w}: {e}" for n, (w, e) in enumerate(expressions)))
    print(f"ok: promtool parses all {len(expressions)} expressions")


def exposed_metrics(samples):
    """{metric: {label: {values}}} from /metrics (histogram series by their own names)."""
    exposed = {name: {} for name in PROMETHEUS_METRICS}
    for name, labels, _ in samples:
        metric = exposed.setdefault(name, {})
        for label, value in labels.items():
            metric.setdefault(label, set()).add(value)
    return exposed


def check_references(expressions, exposed):
    problems, used = [], set()
    for where, expr in expressions:
        metrics, grouping = promql_check.references(expr)
        if not metrics:
            problems.append(f"{where}: selects no metric: {expr}")
        labels_in_scope = set(PROMETHEUS_LABELS)
        for metric, matchers in metrics.items():
            used.add(metric)
            if metric not in exposed:
                problems.append(f"{where}: metric {metric} is not in /metrics")
                continue
            labels_in_scope |= set(exposed[metric])
            for label, op, value in matchers:
                if label in PROMETHEUS_LABELS:
                    continue
                if label not in exposed[metric]:
                    problems.append(f"{where}: {metric} has no label {label}")
                elif label in VALUE_DOMAINS:
                    alternatives = value.split("|") if op in ("=~", "!~") else [value]
                    for alternative in alternatives:
                        if alternative not in VALUE_DOMAINS[label]:
                            problems.append(f"{where}: {label}=\"{alternative}\" is not a valid value")
                elif op == "=" and value not in exposed[metric][label]:
                    problems.append(f"{where}: {metric}{{{label}=\"{value}\"}} matches nothing "
                                    f"(values: {sorted(exposed[metric][label])})")
        for label in sorted(grouping - labels_in_scope):
            problems.append(f"{where}: groups by {label}, which none of {sorted(metrics)} has")
    if problems:
        obs.fail("\n  ".join(["PromQL references what /metrics does not have:"] + problems))
    return used


def main():
    if len(sys.argv) != 7:
        obs.fail(__doc__)
    dashboard, alerts, motiond_bin, motionctl, robots, examples = sys.argv[1:]
    work = obs.workdir("motiond-promql-")
    expressions = promql_check.load_expressions(dashboard, alerts)
    check_parse(expressions, work)

    motiond = obs.Motiond(motiond_bin, robots, work)
    workload = obs.Workload(motionctl, motiond, robots, examples, work)
    workload.every_method_once()
    samples, _, _ = obs.parse_metrics(motiond.metrics_text())
    exposed = exposed_metrics(samples)

    used = check_references(expressions, exposed)
    # The checker itself: each of these mistakes must be caught.
    for broken in ('sum(rate(motiond_solve_seconds_bucket{operation="IK"}[1m]))',
                   'sum by (grpc_methd) (rate(grpc_server_handled_total[1m]))',
                   'rate(grpc_server_handled_total{grpc_code=~"Internal|Unkown"}[1m])',
                   'motiond_solver_queue_length',
                   'sum without (solver) (motiond_solver_workers{operation="ik"})'):
        try:
            check_references([("self-test", broken)], exposed)
        except obs.TestFailure:
            continue
        obs.fail(f"the reference check missed the mistake in {broken}")
    dashboard_used = set()
    for _, expr in promql_check.dashboard_expressions(dashboard):
        dashboard_used |= set(promql_check.references(promql_check.substitute(expr))[0])
    missing = [m for m in DASHBOARD_MUST_USE if m not in dashboard_used]
    if missing:
        obs.fail(f"the dashboard does not show {missing}")
    print(f"ok: {len(expressions)} expressions reference {len(used)} metrics, all in /metrics "
          f"with the labels and values they match: {sorted(used)}")
    motiond.stop()
    print("promql_references: all checks passed")


if __name__ == "__main__":
    obs.run_main(main)
