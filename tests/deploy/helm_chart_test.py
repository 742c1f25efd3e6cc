#!/usr/bin/python3
"""Helm chart helm/motiond: lint, render, and check what the manifests say.

Usage: helm_chart_test.py HELM CHART_DIR CI_VALUES ROBOTS_DIR

Two renders: the default values, and CI_VALUES (TLS secret, ServiceMonitor, 3
fixed replicas, an extra robot). In both: the probes are gRPC health checks on
the port motiond listens on and the Services target; pod and container security
contexts are locked down; the robots ConfigMap is mounted exactly where
--robots_dir points and holds the repository's URDFs byte for byte (robot_id is
their SHA-256); a headless Service selects the same pods; resource requests are
set. Then what differs: autoscaler + disruption budget by default; replicas,
ServiceMonitor and the TLS mount with CI_VALUES. NOTES.txt is rendered too.
"""
import hashlib
import os
import shutil
import sys
import tempfile

import yaml

from check_runner import CheckRunner, fatal, run

RELEASE = "motiond-test"
NAMESPACE = "robots"


def render(helm, chart, values):
    extra = ["-f", values] if values else []
    run([helm, "lint", "--strict", chart, "--namespace", NAMESPACE, *extra])
    out = run([helm, "template", RELEASE, chart, "--namespace", NAMESPACE, *extra])
    docs = [d for d in yaml.safe_load_all(out) if d]
    by_kind = {}
    for d in docs:
        by_kind.setdefault(d["kind"], []).append(d)
    return by_kind


def render_notes(helm, chart, values):
    """NOTES.txt is not printed by `helm template`: render it through a copy of
    the chart that includes it into a manifest."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, "motiond")
        shutil.copytree(chart, copy, symlinks=False)
        with open(os.path.join(copy, "templates", "zz-notes.yaml"), "w") as f:
            f.write('notes: {{ include "motiond/templates/NOTES.txt" . | toJson }}\n')
        extra = ["-f", values] if values else []
        out = run([helm, "template", RELEASE, copy, "--namespace", NAMESPACE,
                   "--show-only", "templates/zz-notes.yaml", *extra])
        return yaml.safe_load(out)["notes"]


def one(by_kind, kind, predicate=lambda d: True):
    found = [d for d in by_kind.get(kind, []) if predicate(d)]
    assert len(found) == 1, f"expected one {kind}, found {len(found)}"
    return found[0]


def arg_value(args, flag):
    values = [a.split("=", 1)[1] for a in args if a.startswith(f"--{flag}=")]
    assert len(values) == 1, f"--{flag} given {len(values)} times in {args}"
    return values[0]


def check_render(checks, label, by_kind, robots_dir, extra_robots):
    deployment = one(by_kind, "Deployment")
    pod = deployment["spec"]["template"]
    pod_labels = pod["metadata"]["labels"]
    container = pod["spec"]["containers"][0]
    args = container["args"]
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    services = by_kind.get("Service", [])
    cluster_ip = one(by_kind, "Service", lambda s: s["spec"].get("clusterIP") != "None")
    headless = one(by_kind, "Service", lambda s: s["spec"].get("clusterIP") == "None")

    with checks.case(f"{label}: one container, motiond listens on the gRPC container port"):
        assert len(pod["spec"]["containers"]) == 1
        assert arg_value(args, "listen") == f"0.0.0.0:{ports['grpc']}", args
        assert arg_value(args, "metrics_listen") == f"0.0.0.0:{ports['metrics']}", args
        assert deployment["spec"]["selector"]["matchLabels"].items() <= pod_labels.items()

    tls = any(a.startswith("--tls_cert=") for a in args)
    what = "TCP connects (TLS: kubelet's gRPC probe is plaintext)" if tls else "gRPC health checks"
    with checks.case(f"{label}: startup/liveness/readiness probes are {what} on the service port"):
        svc_port = next(p for p in cluster_ip["spec"]["ports"] if p["name"] == "grpc")
        assert svc_port["targetPort"] in ("grpc", ports["grpc"]), svc_port
        handler = "tcpSocket" if tls else "grpc"
        for kind in ("startupProbe", "livenessProbe", "readinessProbe"):
            probe = container.get(kind)
            assert probe, f"no {kind}"
            handlers = set(probe) & {"httpGet", "tcpSocket", "exec", "grpc"}
            assert handlers == {handler}, f"{kind}: {probe}"
            assert probe[handler]["port"] == ports["grpc"] == svc_port["port"], f"{kind}: {probe}"
            assert probe[handler].get("service", "") == "", "motiond reports health for service ''"

    with checks.case(f"{label}: securityContext non-root, read-only root fs, no escalation, capabilities dropped"):
        psc = pod["spec"]["securityContext"]
        csc = container["securityContext"]
        assert psc["runAsNonRoot"] is True and psc["runAsUser"] > 0, psc
        assert csc["readOnlyRootFilesystem"] is True, csc
        assert csc["allowPrivilegeEscalation"] is False, csc
        assert csc.get("privileged") is not True, csc
        assert "ALL" in csc["capabilities"]["drop"] and not csc["capabilities"].get("add"), csc
        assert psc.get("seccompProfile", {}).get("type") == "RuntimeDefault", psc
        assert pod["spec"].get("automountServiceAccountToken") is False

    with checks.case(f"{label}: robots ConfigMap is mounted where --robots_dir points, byte for byte"):
        mount_dir = arg_value(args, "robots_dir")
        mount = [m for m in container["volumeMounts"] if m["mountPath"] == mount_dir]
        assert len(mount) == 1, f"no volumeMount at {mount_dir}"
        assert mount[0].get("readOnly") is True
        volume = next(v for v in pod["spec"]["volumes"] if v["name"] == mount[0]["name"])
        cm = one(by_kind, "ConfigMap",
                 lambda c: c["metadata"]["name"] == volume["configMap"]["name"])
        bundled = sorted(f for f in os.listdir(robots_dir) if f.endswith(".urdf"))
        assert sorted(cm["data"]) == sorted(bundled + extra_robots), sorted(cm["data"])
        for name in bundled:
            with open(os.path.join(robots_dir, name), "rb") as f:
                expected = f.read()
            got = cm["data"][name].encode()
            assert hashlib.sha256(got).hexdigest() == hashlib.sha256(expected).hexdigest(), \
                f"{name}: ConfigMap text differs from robots/{name} (robot_id would differ)"
        annotations = pod["metadata"].get("annotations", {})
        assert "checksum/robots" in annotations, "pods do not roll when robots change"

    with checks.case(f"{label}: ClusterIP and headless Services select the motiond pods"):
        assert len(services) == 2, [s["metadata"]["name"] for s in services]
        assert cluster_ip["spec"].get("type", "ClusterIP") == "ClusterIP"
        for svc in (cluster_ip, headless):
            assert svc["spec"]["selector"].items() <= pod_labels.items(), svc["spec"]["selector"]
            grpc_port = next(p for p in svc["spec"]["ports"] if p["name"] == "grpc")
            assert grpc_port["port"] == ports["grpc"] and grpc_port.get("appProtocol") == "grpc"
        assert headless["spec"]["clusterIP"] == "None"
        assert headless["spec"].get("publishNotReadyAddresses") is not True
        assert [p["name"] for p in headless["spec"]["ports"]] == ["grpc"]
        assert headless["metadata"]["name"] == f"{cluster_ip['metadata']['name']}-headless"

    with checks.case(f"{label}: resource requests and limits set, --workers matches the CPU limit"):
        res = container["resources"]
        for part in ("requests", "limits"):
            assert res[part].get("cpu") and res[part].get("memory"), res
        workers = int(arg_value(args, "workers"))
        limit = str(res["limits"]["cpu"])
        if limit.isdigit():
            assert workers == int(limit), f"--workers={workers}, CPU limit {limit}"

    return deployment, cluster_ip, headless


def main():
    if len(sys.argv) != 5:
        fatal(__doc__)
    helm, chart, ci_values, robots_dir = sys.argv[1:]
    checks = CheckRunner("helm_chart")

    renders = {}
    for label, values in (("default", None), ("ci-values", ci_values)):
        with checks.case(f"{label}: helm lint --strict and helm template succeed"):
            renders[label] = render(helm, chart, values)
    if len(renders) != 2:
        sys.exit(checks.finish())

    with open(ci_values) as f:
        ci = yaml.safe_load(f)

    d, svc, headless = check_render(checks, "default", renders["default"], robots_dir, [])
    r = renders["default"]
    with checks.case("default: CPU HorizontalPodAutoscaler owns the replica count"):
        hpa = one(r, "HorizontalPodAutoscaler")
        assert hpa["spec"]["scaleTargetRef"] == {
            "apiVersion": "apps/v1", "kind": "Deployment", "name": d["metadata"]["name"]}
        assert [m["resource"]["name"] for m in hpa["spec"]["metrics"]] == ["cpu"]
        assert hpa["spec"]["minReplicas"] >= 2 and hpa["spec"]["maxReplicas"] >= hpa["spec"]["minReplicas"]
        assert "replicas" not in d["spec"], "Deployment.replicas would fight the autoscaler"
    with checks.case("default: PodDisruptionBudget covers the pods; no ServiceMonitor, no TLS"):
        pdb = one(r, "PodDisruptionBudget")
        pod_labels = d["spec"]["template"]["metadata"]["labels"]
        assert pdb["spec"]["selector"]["matchLabels"].items() <= pod_labels.items()
        assert "ServiceMonitor" not in r
        assert not any("tls" in a for a in d["spec"]["template"]["spec"]["containers"][0]["args"])

    d, svc, headless = check_render(checks, "ci-values", renders["ci-values"], robots_dir,
                                    sorted(ci["robots"]["extra"]))
    r = renders["ci-values"]
    container = d["spec"]["template"]["spec"]["containers"][0]
    with checks.case("ci-values: 3 replicas, no autoscaler, disruption budget kept"):
        assert d["spec"]["replicas"] == 3 == ci["replicaCount"]
        assert "HorizontalPodAutoscaler" not in r
        one(r, "PodDisruptionBudget")
    with checks.case("ci-values: ServiceMonitor scrapes the metrics port of the ClusterIP Service only"):
        sm = one(r, "ServiceMonitor")
        assert sm["apiVersion"] == "monitoring.coreos.com/v1"
        selector = sm["spec"]["selector"]["matchLabels"]
        assert selector.items() <= svc["metadata"]["labels"].items(), "does not select the Service"
        assert not selector.items() <= headless["metadata"]["labels"].items(), \
            "also selects the headless Service: every pod would be scraped twice"
        port_names = [p["name"] for p in svc["spec"]["ports"]]
        assert [e["port"] for e in sm["spec"]["endpoints"]] == ["metrics"] and "metrics" in port_names
        assert sm["spec"]["endpoints"][0]["path"] == "/metrics"
        assert sm["metadata"]["labels"]["release"] == ci["serviceMonitor"]["labels"]["release"]
    with checks.case("ci-values: TLS secret mounted read-only and passed to motiond"):
        volume = next(v for v in d["spec"]["template"]["spec"]["volumes"] if "secret" in v)
        assert volume["secret"]["secretName"] == ci["tls"]["secretName"]
        mount = next(m for m in container["volumeMounts"] if m["name"] == volume["name"])
        assert mount["readOnly"] is True
        args = container["args"]
        assert arg_value(args, "tls_cert") == f"{mount['mountPath']}/tls.crt"
        assert arg_value(args, "tls_key") == f"{mount['mountPath']}/tls.key"
        assert arg_value(args, "tls_client_ca") == f"{mount['mountPath']}/ca.crt"
        assert arg_value(args, "log_level") == ci["logLevel"]

    with checks.case("NOTES.txt names the Service, the headless Service and the round-robin policy"):
        notes = render_notes(helm, chart, None)
        default_d, default_svc, default_headless = (
            one(renders["default"], "Deployment"),
            one(renders["default"], "Service", lambda s: s["spec"].get("clusterIP") != "None"),
            one(renders["default"], "Service", lambda s: s["spec"].get("clusterIP") == "None"))
        assert f"{default_svc['metadata']['name']}.{NAMESPACE}.svc.cluster.local:50051" in notes, notes
        assert f"dns:///{default_headless['metadata']['name']}.{NAMESPACE}.svc.cluster.local:50051" in notes
        assert "round_robin" in notes and "port-forward" in notes
        assert default_d["metadata"]["name"] in notes

    sys.exit(checks.finish())


if __name__ == "__main__":
    main()
