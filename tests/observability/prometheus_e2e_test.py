#!/usr/bin/python3
"""End to end with a real Prometheus: motiond is scraped with the shipped
config and alert rules, a workload runs, and Prometheus's HTTP API answers.

Usage: prometheus_e2e_test.py PROMETHEUS_YML ALERTS_YML DASHBOARD_JSON MOTIOND MOTIONCTL ROBOTS_DIR EXAMPLES_DIR

Everything on 127.0.0.1, free ports, a temporary TSDB; Prometheus runs
deploy/prometheus/prometheus.yml with only its target replaced (motiond:9464
-> this motiond) and 1 s scrape and rule intervals, loading
deploy/prometheus/alerts.yml. Checks:
- Prometheus scrapes motiond (up == 1);
- the workload runs in two phases, each waited for in Prometheus, so rates
  have a before and an after: histogram_quantile(0.99, ... rate(
  motiond_solve_seconds_bucket{operation="ik"|"movel"}[5m])) is a finite
  positive number; grpc_server_handled_total by (method, code) equals the
  requests the client sent;
- every dashboard expression and every alert expression evaluates without
  error; the dashboard's have data (except the server-error ratios: this
  workload has no server errors);
- every alert rule is loaded and evaluated with health "ok";
- `motionctl stats --json` (its own HTTP client, parser and quantile
  estimate) agrees with Prometheus's histogram_quantile, sums and ratios on
  the same samples.
"""
import json
import math
import os
import shutil
import subprocess
import sys
import urllib.error
import urllib.parse

import yaml

import obs_support as obs
import promql_check

MOTION = 'grpc_service=~"motion\\\\.v1\\\\..+"'


class Prometheus:
    def __init__(self, config, work):
        for attempt in range(5):
            self.port = obs.free_port()
            self.log = os.path.join(work, f"prometheus-{attempt}.log")
            self.proc = obs.start("prometheus", [
                "prometheus", f"--config.file={config}",
                f"--storage.tsdb.path={os.path.join(work, f'tsdb-{attempt}')}",
                f"--web.listen-address=127.0.0.1:{self.port}",
                "--storage.tsdb.retention.time=1h", "--log.level=info"], self.log)
            ready = obs.poll("Prometheus to be ready", self._ready)
            if ready == "exited":
                if "address already in use" in open(self.log).read():
                    continue
                obs.fail(f"prometheus exited with {self.proc.returncode}")
            return
        obs.fail("Prometheus could not bind a port in 5 attempts")

    def _ready(self):
        if self.proc.poll() is not None:
            return "exited"
        return obs.http_get(f"http://127.0.0.1:{self.port}/-/ready", timeout=5) is not None

    def api(self, path, **params):
        url = f"http://127.0.0.1:{self.port}/api/v1/{path}"
        if params:
            url += "?" + urllib.parse.urlencode(params)
        try:
            body = obs.http_get(url, timeout=30)
        except urllib.error.HTTPError as e:  # 400 with a JSON error body
            body = e.read().decode()
        answer = json.loads(body)
        if answer.get("status") != "success":
            raise obs.TestFailure(f"{path} {params}: {answer.get('errorType')}: {answer.get('error')}")
        return answer["data"]

    def query(self, expr):
        return self.api("query", query=expr)

    def vector(self, expr):
        """{frozenset(labels): float} of an instant query."""
        data = self.query(expr)
        if data["resultType"] != "vector":
            obs.fail(f"{expr}: result type {data['resultType']}")
        return {frozenset(r["metric"].items()): float(r["value"][1]) for r in data["result"]}

    def scalar(self, expr):
        values = list(self.vector(expr).values())
        return values[0] if len(values) == 1 else None


def write_config(shipped_config, shipped_alerts, target, work):
    with open(shipped_config) as f:
        config = yaml.safe_load(f)
    jobs = [j for j in config["scrape_configs"] if j["job_name"] == "motiond"]
    targets = [t for j in jobs for sc in j.get("static_configs", []) for t in sc["targets"]]
    if targets != ["motiond:9464"]:
        obs.fail(f"shipped prometheus.yml scrapes {targets}, expected the compose target motiond:9464")
    jobs[0]["static_configs"] = [{"targets": [target]}]
    config["global"].update({"scrape_interval": "1s", "scrape_timeout": "1s",
                             "evaluation_interval": "1s"})
    for rule_file in config["rule_files"]:
        shutil.copy(os.path.join(os.path.dirname(shipped_config), rule_file),
                    os.path.join(work, rule_file))
    if not os.path.samefile(os.path.join(os.path.dirname(shipped_config), config["rule_files"][0]),
                            shipped_alerts):
        obs.fail(f"prometheus.yml loads {config['rule_files']}, not {shipped_alerts}")
    path = os.path.join(work, "prometheus.yml")
    with open(path, "w") as f:
        yaml.safe_dump(config, f)
    result = subprocess.run(["promtool", "check", "config", path], capture_output=True, text=True,
                            timeout=60)
    if result.returncode != 0:
        obs.fail(f"promtool check config (test copy):\n{result.stdout}{result.stderr}")
    return path


def wait_scraped(prometheus, motiond, phase):
    """Until Prometheus holds motiond's current motion.v1 request total."""
    samples, _, _ = obs.parse_metrics(motiond.metrics_text())
    total = sum(obs.handled_counts(samples).values())
    expr = f'sum(grpc_server_handled_total{{job="motiond", {MOTION}}})'
    obs.poll(f"Prometheus to scrape the {phase} ({total:.0f} requests)",
             lambda: prometheus.scalar(expr) == total, interval=0.25)
    print(f"ok: {phase}: Prometheus has all {total:.0f} requests")


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def check_quantiles(prometheus):
    for operation in ("ik", "movel"):
        expr = (f'histogram_quantile(0.99, sum by (le) (rate(motiond_solve_seconds_bucket'
                f'{{job="motiond", operation="{operation}"}}[5m])))')
        value = prometheus.scalar(expr)
        if value is None or not math.isfinite(value) or not 0 < value <= 10:
            obs.fail(f"{expr} = {value}, expected a number of seconds")
        print(f"ok: p99 {operation} solve time {value * 1e3:.3f} ms  ({expr})")


def check_handled(prometheus, workload):
    got = {}
    for labels, value in prometheus.vector(
            f'sum by (grpc_method, grpc_code) (grpc_server_handled_total{{job="motiond", {MOTION}}})').items():
        labels = dict(labels)
        got[(labels["grpc_method"], labels["grpc_code"])] = value
    if got != workload.sent:
        obs.fail(f"Prometheus: grpc_server_handled_total {sorted(got.items())}\n"
                 f"   sent:                              {sorted(workload.sent.items())}")
    print(f"ok: grpc_server_handled_total in Prometheus = the {workload.total()} requests sent")


def check_expressions(prometheus, dashboard, alerts):
    promql_check.GRAFANA_VARIABLES["$__rate_interval"] = "5m"  # covers the whole test
    empty = []
    dashboard_expressions = [(w, promql_check.substitute(e))
                             for w, e in promql_check.dashboard_expressions(dashboard)]
    for where, expr in dashboard_expressions:
        result = prometheus.query(expr)["result"]  # raises on a parse or evaluation error
        # The server-error ratios select codes this workload never causes.
        if not result and "Internal" not in expr:
            empty.append(f"{where}: {expr}")
    if empty:
        obs.fail("dashboard panels without data after the workload:\n  " + "\n  ".join(empty))
    alert_expressions = promql_check.alert_expressions(alerts)
    for where, expr in alert_expressions:
        prometheus.query(expr)
    print(f"ok: {len(dashboard_expressions)} dashboard expressions evaluate and have data; "
          f"{len(alert_expressions)} alert expressions evaluate")
    with open(dashboard) as f:
        for variable in json.load(f)["templating"]["list"]:
            if variable["type"] == "query":
                label = variable["query"]["query"].rsplit(",", 1)[1].strip(" )")
                values = prometheus.api(f"label/{label}/values", **{"match[]": "motiond_build_info"})
                if not values:
                    obs.fail(f"variable ${variable['name']}: no values for {label}")


def check_rules(prometheus, alerts):
    with open(alerts) as f:
        names = sorted(r["alert"] for g in yaml.safe_load(f)["groups"] for r in g["rules"])

    def evaluated():
        rules = [r for g in prometheus.api("rules")["groups"] for r in g["rules"]]
        if sorted(r["name"] for r in rules) != names:
            obs.fail(f"Prometheus loaded rules {sorted(r['name'] for r in rules)}, expected {names}")
        bad = [r for r in rules if r.get("health") == "err"]
        if bad:
            obs.fail("rules failing to evaluate: " + "; ".join(f"{r['name']}: {r.get('lastError')}" for r in bad))
        return all(r.get("health") == "ok" for r in rules)

    obs.poll("every alert rule to be evaluated", evaluated, interval=0.5)
    print(f"ok: all {len(names)} alert rules loaded and evaluated, health ok")


def check_stats(prometheus, motionctl, motiond):
    result = subprocess.run([motionctl, "stats", f"--metrics={motiond.metrics_address}", "--json"],
                            capture_output=True, text=True, timeout=60)
    if result.returncode != 0:
        obs.fail(f"motionctl stats --json: exit {result.returncode}\n{result.stdout}{result.stderr}")
    stats = json.loads(result.stdout)

    def as_float(v):
        return float("nan") if v is None else float(v)

    mismatches = []
    requests = prometheus.vector('sum by (grpc_service, grpc_method, grpc_code) (grpc_server_handled_total{job="motiond"})')
    expected = {(f"{dict(k)['grpc_service']}/{dict(k)['grpc_method']}", dict(k)["grpc_code"]): v
                for k, v in requests.items()}
    got = {(r["method"], r["code"]): r["count"] for r in stats["requests"]}
    if got != expected:
        mismatches.append(f"requests: stats {sorted(got.items())} != Prometheus {sorted(expected.items())}")
    for key, histogram, by in (("solve_latency", "motiond_solve_seconds", "operation"),
                               ("rpc_latency", "grpc_server_handling_seconds", "grpc_service, grpc_method")):
        for q, field in ((0.5, "p50_seconds"), (0.99, "p99_seconds")):
            prom = prometheus.vector(f'histogram_quantile({q}, sum by (le, {by}) ({histogram}_bucket{{job="motiond"}}))')
            prom = {("/".join(dict(k)[label.strip()] for label in by.split(","))): v for k, v in prom.items()}
            mine = {r["operation" if key == "solve_latency" else "method"]: as_float(r[field])
                    for r in stats[key]}
            if set(mine) != set(prom) or not all(close(mine[k], prom[k]) for k in prom):
                mismatches.append(f"{key} {field}: stats {mine} != Prometheus {prom}")
    ratio = prometheus.scalar('sum(motiond_ik_solves_total{job="motiond", result="ok"}) / sum(motiond_ik_solves_total{job="motiond"})')
    if not close(as_float(stats["ik"]["success_ratio"]), ratio):
        mismatches.append(f"IK success: stats {stats['ik']} != Prometheus {ratio}")
    for field, metric in (("robots", "motiond_registry_robots"), ("bytes", "motiond_registry_bytes")):
        if not close(as_float(stats["registry"][field]), prometheus.scalar(f'{metric}{{job="motiond"}}')):
            mismatches.append(f"registry {field}: stats {stats['registry'][field]}")
    for field, metric in (("workers", "motiond_solver_workers"),
                          ("queue_capacity", "motiond_solver_queue_capacity")):
        if not close(as_float(stats["pool"][field]), prometheus.scalar(f'{metric}{{job="motiond"}}')):
            mismatches.append(f"pool {field}: stats {stats['pool'][field]}")
    if mismatches:
        obs.fail("motionctl stats disagrees with Prometheus:\n  " + "\n  ".join(mismatches))
    table = subprocess.run([motionctl, "stats", f"--metrics={motiond.metrics_address}"],
                           capture_output=True, text=True, timeout=60)
    if table.returncode != 0 or "IK success" not in table.stdout or "ComputeIk" not in table.stdout:
        obs.fail(f"motionctl stats (table): exit {table.returncode}\n{table.stdout}{table.stderr}")
    print("ok: motionctl stats agrees with Prometheus (requests, p50/p99 solve and RPC latency, "
          "IK success, registry, pool)\n" + table.stdout)


def main():
    if len(sys.argv) != 8:
        obs.fail(__doc__)
    shipped_config, alerts, dashboard, motiond_bin, motionctl, robots, examples = sys.argv[1:]
    work = obs.workdir("motiond-prometheus-")
    motiond = obs.Motiond(motiond_bin, robots, work)
    config = write_config(shipped_config, alerts, motiond.metrics_address, work)
    prometheus = Prometheus(config, work)
    obs.poll("Prometheus to scrape motiond (up == 1)",
             lambda: prometheus.scalar('up{job="motiond"}') == 1, interval=0.25)
    print(f"ok: Prometheus 127.0.0.1:{prometheus.port} scrapes motiond {motiond.metrics_address}")

    workload = obs.Workload(motionctl, motiond, robots, examples, work)
    workload.every_method_once()
    wait_scraped(prometheus, motiond, "first phase")
    workload.bulk(24)
    wait_scraped(prometheus, motiond, "second phase")

    check_quantiles(prometheus)
    check_handled(prometheus, workload)
    check_expressions(prometheus, dashboard, alerts)
    check_rules(prometheus, alerts)
    check_stats(prometheus, motionctl, motiond)
    motiond.stop()
    print("prometheus_e2e: all checks passed")


if __name__ == "__main__":
    obs.run_main(main)
