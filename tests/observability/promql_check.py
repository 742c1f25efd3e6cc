"""The PromQL expressions of the dashboard and the alert rules, and what they
reference (metric names, label names, label values), for the observability
tests. Parsing proper is done by promtool or a real Prometheus; the scanner
here only finds the names, on expressions those have already accepted.
"""
import json
import re

import yaml

# Grafana's variables, replaced by what a live dashboard would send.
GRAFANA_VARIABLES = {
    "$__rate_interval": "1m",
    "$__interval": "1m",
    "$__range": "1h",
    "${job}": "motiond",
    "$job": "motiond",
    "${instance}": ".*",
    "$instance": ".*",
}

# Functions, aggregations, keywords: identifiers that are not metrics.
KEYWORDS = {
    "by", "without", "on", "ignoring", "group_left", "group_right", "bool", "and", "or",
    "unless", "offset", "atan2", "inf", "nan", "start", "end",
}
LABEL_LIST_KEYWORDS = {"by", "without", "on", "ignoring", "group_left", "group_right"}


def dashboard_expressions(path):
    """[(where, expr)] of every panel target (rows included) and query variable."""
    with open(path) as f:
        dashboard = json.load(f)
    found = []

    def panels(items):
        for panel in items:
            yield panel
            yield from panels(panel.get("panels", []))

    for panel in panels(dashboard.get("panels", [])):
        for target in panel.get("targets", []):
            if target.get("expr"):
                found.append((f"panel '{panel.get('title')}' {target.get('refId')}", target["expr"]))
    for variable in dashboard.get("templating", {}).get("list", []):
        if variable.get("type") != "query":
            continue
        query = variable["query"]["query"] if isinstance(variable["query"], dict) else variable["query"]
        m = re.fullmatch(r"\s*label_values\((.*),\s*([a-zA-Z_]\w*)\)\s*", query)
        if m:  # label_values(<selector>, label): the selector is PromQL
            found.append((f"variable ${variable['name']}", f"count by ({m.group(2)}) ({m.group(1)})"))
        else:
            found.append((f"variable ${variable['name']}", query))
    return found


def alert_expressions(path):
    with open(path) as f:
        rules = yaml.safe_load(f)
    return [(f"rule {r.get('alert') or r.get('record')}", r["expr"])
            for group in rules["groups"] for r in group["rules"]]


def substitute(expr):
    for variable in sorted(GRAFANA_VARIABLES, key=len, reverse=True):
        expr = expr.replace(variable, GRAFANA_VARIABLES[variable])
    if "$" in expr:
        raise ValueError(f"unknown Grafana variable in {expr!r}")
    return expr


_TOKEN = re.compile(r"""
    (?P<space>\s+)
  | (?P<string>"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`)
  | (?P<range>\[[^\]]*\])
  | (?P<number>(?:0x[0-9a-fA-F]+|\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?))
  | (?P<ident>[a-zA-Z_:][a-zA-Z0-9_:]*)
  | (?P<op>=~|!~|!=|==|>=|<=|[-+*/%^(){},=<>])
""", re.VERBOSE)


def tokens(expr):
    out, pos = [], 0
    while pos < len(expr):
        m = _TOKEN.match(expr, pos)
        if not m:
            raise ValueError(f"cannot scan {expr[pos:pos + 20]!r} in {expr!r}")
        if m.lastgroup != "space":
            out.append((m.lastgroup, m.group()))
        pos = m.end()
    return out


def references(expr):
    """What an expression names: {metric: [(label, op, value)]}, and the label
    names of by/without/on/ignoring/group_* clauses."""
    toks = tokens(expr)
    metrics, grouping = {}, set()
    i = 0
    while i < len(toks):
        kind, text = toks[i]
        nxt = toks[i + 1][1] if i + 1 < len(toks) else None
        if kind == "ident" and text in LABEL_LIST_KEYWORDS and nxt == "(":
            j = i + 2
            while toks[j][1] != ")":
                if toks[j][0] == "ident":
                    grouping.add(toks[j][1])
                j += 1
            i = j + 1
            continue
        if kind == "ident" and (nxt in ("(", "by", "without") or text.lower() in KEYWORDS):
            i += 1  # a function, an aggregation (`sum by (...) (...)`) or a keyword
            continue
        if kind == "ident":  # a metric name, maybe with matchers
            matchers = metrics.setdefault(text, [])
            i += 1
            if i < len(toks) and toks[i][1] == "{":
                i += 1
                while toks[i][1] != "}":
                    if toks[i][1] == ",":
                        i += 1
                        continue
                    label, op, value = toks[i][1], toks[i + 1][1], toks[i + 2][1]
                    matchers.append((label, op, bytes(value[1:-1], "utf-8").decode("unicode_escape")))
                    i += 3
                i += 1
            continue
        if text == "{":
            raise ValueError(f"selector without a metric name in {expr!r}")
        i += 1
    return metrics, grouping


def load_expressions(dashboard, alerts):
    return [(where, substitute(expr)) for where, expr in
            dashboard_expressions(dashboard) + alert_expressions(alerts)]
