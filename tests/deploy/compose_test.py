#!/usr/bin/python3
"""deploy/compose.yaml: motiond + Prometheus + Grafana, checked without Docker.

Usage: compose_test.py COMPOSE_FILE DOCKERFILE COMPOSE_SCHEMA

No Docker engine runs on the build machines, so this checks what can be checked
statically: the file is valid against the Compose specification's JSON schema;
every file or folder it mounts or builds from exists in the repository; the
Prometheus config it mounts passes `promtool check config`, its rule files pass
`promtool check rules` and it scrapes motiond's metrics port by service name;
Grafana's provisioning (mounted from the repository) has a Prometheus datasource
pointing at the prometheus service and a dashboard provider whose folder,
through the mounts, holds the project's dashboard (valid JSON, datasources that
exist); motiond's ports and robots folder agree with the Dockerfile.
"""
import glob
import json
import os
import re
import sys

import jsonschema
import yaml

from check_runner import CheckRunner, fatal, run


def dockerfile_runtime(dockerfile):
    """EXPOSEd ports and the CMD list of the last stage."""
    with open(dockerfile) as f:
        text = re.sub(r"\\\n", " ", f.read())
    last_stage = text.split("\nFROM ")[-1]
    exposed = {int(p.split("/")[0]) for line in last_stage.splitlines()
               if line.startswith("EXPOSE ") for p in line.split()[1:]}
    cmd = json.loads(next(line[4:] for line in last_stage.splitlines() if line.startswith("CMD ")))
    return exposed, cmd


def flag(args, name):
    values = [a.split("=", 1)[1] for a in args if a.startswith(f"--{name}=")]
    assert len(values) == 1, f"--{name} given {len(values)} times in {args}"
    return values[0]


class Mounts:
    """Container path -> repository path through a service's bind mounts."""

    def __init__(self, compose_dir, service):
        self.binds = []
        for volume in service.get("volumes", []):
            if isinstance(volume, str):
                parts = volume.split(":")
                source, target = parts[0], parts[1]
            else:
                if volume.get("type") != "bind":
                    continue
                source, target = volume["source"], volume["target"]
            if source.startswith((".", "/")):
                self.binds.append((os.path.normpath(os.path.join(compose_dir, source)), target))

    def host_path(self, container_path):
        for source, target in sorted(self.binds, key=lambda b: -len(b[1])):
            if container_path == target or container_path.startswith(target.rstrip("/") + "/"):
                return os.path.join(source, os.path.relpath(container_path, target))
        raise AssertionError(f"{container_path} is not on a bind mount {self.binds}")


def main():
    if len(sys.argv) != 4:
        fatal(__doc__)
    compose_file, dockerfile, schema_file = sys.argv[1:]
    compose_dir = os.path.dirname(os.path.abspath(compose_file))
    checks = CheckRunner("compose")

    with open(compose_file) as f:
        compose = yaml.safe_load(f)
    with checks.case("compose.yaml is valid against the Compose specification schema"):
        with open(schema_file) as f:
            schema = json.load(f)
        errors = sorted(jsonschema.Draft201909Validator(schema).iter_errors(compose),
                        key=lambda e: list(e.path))
        assert not errors, "; ".join(f"{list(e.path)}: {e.message}" for e in errors[:5])
    services = compose["services"]
    with checks.case("services: motiond, prometheus, grafana"):
        assert {"motiond", "prometheus", "grafana"} <= set(services), list(services)

    with checks.case("every bind-mounted file or folder and the build context exist in the repository"):
        for name, service in services.items():
            for source, target in Mounts(compose_dir, service).binds:
                assert os.path.exists(source), f"{name}: {source} (-> {target}) does not exist"
        build = services["motiond"]["build"]
        context = os.path.normpath(os.path.join(compose_dir, build["context"]))
        assert os.path.isfile(os.path.join(context, build["dockerfile"])), build
        assert os.path.samefile(os.path.join(context, build["dockerfile"]), dockerfile)

    motiond = services["motiond"]
    exposed, image_cmd = dockerfile_runtime(dockerfile)
    metrics_port = int(flag(motiond["command"], "metrics_listen").rsplit(":", 1)[1])
    with checks.case("motiond: listens on 0.0.0.0, publishes and EXPOSEs the gRPC and metrics ports"):
        grpc_port = int(flag(motiond["command"], "listen").rsplit(":", 1)[1])
        for f in ("listen", "metrics_listen"):
            assert flag(motiond["command"], f).startswith("0.0.0.0:"), "unreachable from other containers"
        published = {int(str(p).rsplit(":", 1)[1]) for p in motiond["ports"]}
        assert {grpc_port, metrics_port} <= published, motiond["ports"]
        assert {grpc_port, metrics_port} <= exposed, f"Dockerfile EXPOSE {exposed}"
    with checks.case("motiond: robots folder is the image's documented one; hardened"):
        assert flag(motiond["command"], "robots_dir") == flag(image_cmd, "robots_dir")
        assert motiond.get("read_only") is True and "ALL" in motiond.get("cap_drop", [])
        prefix = flag(image_cmd, "robots_dir").split("/share/motiond/robots")[0]
        test = motiond["healthcheck"]["test"]
        assert test[0] == "CMD" and test[1] == f"{prefix}/bin/motionctl", test

    prometheus = services["prometheus"]
    prom_mounts = Mounts(compose_dir, prometheus)
    config_path = prom_mounts.host_path(flag(prometheus["command"], "config.file"))
    with open(config_path) as f:
        prom_config = yaml.safe_load(f)
    with checks.case(f"promtool check config {os.path.relpath(config_path, compose_dir)}"):
        run(["promtool", "check", "config", config_path])
    with checks.case("promtool check rules on every rule file the config loads, all mounted"):
        rule_files = []
        for pattern in prom_config.get("rule_files", []):
            matches = glob.glob(os.path.join(os.path.dirname(config_path), pattern))
            assert matches, f"rule_files {pattern}: nothing in the mounted folder"
            rule_files += matches
        assert rule_files, "no alert rules loaded"
        run(["promtool", "check", "rules", *rule_files])
    with checks.case("Prometheus scrapes motiond by service name on its metrics port"):
        targets = [t for job in prom_config["scrape_configs"]
                   for sc in job.get("static_configs", []) for t in sc.get("targets", [])]
        assert f"motiond:{metrics_port}" in targets, \
            f"targets {targets}: in the compose network motiond is motiond:{metrics_port}"

    grafana = services["grafana"]
    graf_mounts = Mounts(compose_dir, grafana)
    provisioning = graf_mounts.host_path("/etc/grafana/provisioning")
    datasources = []
    with checks.case("Grafana datasource provisioning points at the prometheus service"):
        for path in sorted(glob.glob(os.path.join(provisioning, "datasources", "*.y*ml"))):
            with open(path) as f:
                datasources += yaml.safe_load(f).get("datasources", [])
        prom = [d for d in datasources if d["type"] == "prometheus"]
        assert prom, "no Prometheus datasource provisioned"
        prom_port = 9090
        assert any(d["url"].rstrip("/") == f"http://prometheus:{prom_port}" for d in prom), prom
    with checks.case("Grafana dashboard provider's folder holds the project's dashboard"):
        providers = []
        for path in sorted(glob.glob(os.path.join(provisioning, "dashboards", "*.y*ml"))):
            with open(path) as f:
                providers += yaml.safe_load(f).get("providers", [])
        assert providers, "no dashboard provider"
        dashboards = []
        for provider in providers:
            folder = graf_mounts.host_path(provider["options"]["path"])
            found = sorted(glob.glob(os.path.join(folder, "*.json")))
            assert found, f"provider {provider['name']}: no dashboard in {folder}"
            dashboards += found
        uids = {d.get("uid") for d in datasources}
        for path in dashboards:
            with open(path) as f:
                dashboard = json.load(f)
            assert dashboard.get("title") and dashboard.get("panels"), f"{path}: no title or panels"
            refs = re.findall(r'"datasource":\s*\{[^{}]*"uid":\s*"([^"$]+)"', json.dumps(dashboard))
            builtin = {"-- Grafana --", "-- Mixed --", "-- Dashboard --", "grafana"}
            unknown = set(refs) - uids - builtin
            assert not unknown, f"{path}: datasource uids {unknown} are not provisioned ({uids})"
        home = grafana.get("environment", {}).get("GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH")
        if home:
            assert os.path.isfile(graf_mounts.host_path(home)), f"home dashboard {home} missing"

    sys.exit(checks.finish())


if __name__ == "__main__":
    main()
