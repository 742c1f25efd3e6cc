#!/usr/bin/python3
"""deploy/Dockerfile, checked and its runtime stage run without a Docker engine.

Usage: dockerfile_test.py DOCKERFILE README BUILD_DIR HOST_MOTIONCTL

Static: both stages start from debian:bookworm-slim; the build stage's RUN lines
are exactly the commands of the README's "Build and install" block (so the two
cannot drift); the runtime stage has no RUN/ADD and one COPY, of the install
prefix those commands wrote; numeric non-root USER; exec-form ENTRYPOINT
(motiond is PID 1); EXPOSE covers the ports CMD listens on; OCI labels.

Run: the same `cmake --install` commands (with BUILD_DIR) fill a root that holds
nothing but glibc, as the image holds nothing but the base image and the prefix.
The image's ENTRYPOINT + CMD (addresses moved to 127.0.0.1 and free ports) then
run chrooted as the image's USER, as PID 1 of a new PID namespace, on a
read-only root: health SERVING, the bundled robots preloaded from the documented
folder, FK from the host's motionctl and the image's own motionctl (the compose
healthcheck), /metrics served, SIGTERM from outside -> exit 0. Needs root
(chroot, namespaces); skipped (exit 77) otherwise.
"""
import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

from check_runner import CheckRunner, fatal, run

HERE = os.path.dirname(os.path.abspath(__file__))
README_MARKER = "<!-- dockerfile-build-commands"
UR5_ZERO = "xyz   0.817250   0.191450  -0.005491 m"


def parse_dockerfile(path):
    """[(stage_name, base, [(INSTRUCTION, args)])], with global ARG defaults applied."""
    with open(path) as f:
        text = re.sub(r"\\\n\s*", " ", f.read())
    global_args, stages = {}, []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        instruction, _, rest = line.partition(" ")
        instruction = instruction.upper()
        if instruction == "FROM":
            words = rest.split()
            base = re.sub(r"\$\{(\w+)\}", lambda m: global_args.get(m.group(1), ""), words[0])
            name = words[2] if len(words) > 2 and words[1].upper() == "AS" else str(len(stages))
            stages.append((name, base, []))
        elif not stages and instruction == "ARG":
            key, _, value = rest.partition("=")
            global_args[key] = value
        else:
            stages[-1][2].append((instruction, rest.strip()))
    return stages


def readme_build_commands(readme):
    with open(readme) as f:
        text = f.read()
    start = text.index(README_MARKER)
    block = text[text.index("```sh\n", start) + 6:]
    block = block[:block.index("```")]
    return [line.strip() for line in block.splitlines()
            if line.strip() and not line.strip().startswith("#")]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def flag(args, name):
    values = [a.split("=", 1)[1] for a in args if a.startswith(f"--{name}=")]
    assert len(values) == 1, f"--{name} given {len(values)} times in {args}"
    return values[0]


def glibc_files():
    """The host's libc6 package files that a loader needs (no docs, no locales)."""
    listing = run(["dpkg-query", "-L", f"libc6:{run(['dpkg', '--print-architecture']).strip()}"])
    return [p for p in listing.splitlines()
            if not p.startswith(("/usr/share", "/etc")) and os.path.lexists(p) and not os.path.isdir(p)]


def main():
    if len(sys.argv) != 5:
        fatal(__doc__)
    dockerfile, readme, build_dir, host_motionctl = sys.argv[1:]
    checks = CheckRunner("dockerfile")
    stages = parse_dockerfile(dockerfile)
    build_name, build_base, build_steps = stages[0]
    runtime_name, runtime_base, runtime_steps = stages[-1]
    readme_cmds = readme_build_commands(readme)
    install_cmds = [c for c in readme_cmds if c.startswith("cmake --install ")]
    prefixes = {shlex.split(c)[shlex.split(c).index("--prefix") + 1] for c in install_cmds}
    prefix = next(iter(prefixes)) if len(prefixes) == 1 else None
    runtime = {}
    for instruction, args in runtime_steps:
        runtime.setdefault(instruction, []).append(args)

    with checks.case("two stages, both on debian:bookworm-slim"):
        assert len(stages) == 2, [s[0] for s in stages]
        assert build_base == runtime_base == "debian:bookworm-slim", (build_base, runtime_base)
    with checks.case("build stage RUNs exactly the README's bootstrap/build/install commands, in order"):
        runs = [args for instruction, args in build_steps if instruction == "RUN"]
        assert readme_cmds and runs == readme_cmds, f"\nDockerfile: {runs}\nREADME:     {readme_cmds}"
        assert readme_cmds[0].startswith("bash scripts/bootstrap.sh"), readme_cmds[0]
        assert len(install_cmds) == 2 and prefix, install_cmds
    with checks.case("runtime stage: no RUN or ADD, one COPY of the install prefix from the build stage"):
        assert set(runtime) <= {"ARG", "LABEL", "COPY", "USER", "EXPOSE", "STOPSIGNAL",
                                "ENTRYPOINT", "CMD", "ENV", "WORKDIR"}, sorted(runtime)
        assert runtime["COPY"] == [f"--from={build_name} {prefix} {prefix}"], runtime["COPY"]
    entrypoint = json.loads(runtime["ENTRYPOINT"][0])
    cmd = json.loads(runtime["CMD"][0])
    with checks.case("non-root numeric USER, exec-form ENTRYPOINT motiond (PID 1), STOPSIGNAL SIGTERM"):
        uid, _, gid = runtime["USER"][0].partition(":")
        assert uid.isdigit() and int(uid) > 0 and (not gid or gid.isdigit()), runtime["USER"]
        assert entrypoint == [f"{prefix}/bin/motiond"], entrypoint
        assert runtime.get("STOPSIGNAL") == ["SIGTERM"]
    with checks.case("EXPOSE the gRPC and metrics ports CMD listens on; robots under the documented path"):
        ports = {int(flag(cmd, f).rsplit(":", 1)[1]) for f in ("listen", "metrics_listen")}
        exposed = {int(p.split("/")[0]) for e in runtime["EXPOSE"] for p in e.split()}
        assert ports <= exposed, (ports, exposed)
        assert all(flag(cmd, f).startswith("0.0.0.0:") for f in ("listen", "metrics_listen"))
        robots = flag(cmd, "robots_dir")
        assert robots == f"{prefix}/share/motiond/robots", robots
        with open(readme) as f:
            assert robots in f.read(), "README does not document the robots path"
    with checks.case("OCI labels: title, description, version"):
        labels = " ".join(runtime["LABEL"])
        for key in ("title", "description", "version"):
            assert f"org.opencontainers.image.{key}=" in labels, key
    with checks.case(".dockerignore keeps build trees and caches out of the build context"):
        with open(os.path.join(os.path.dirname(readme), ".dockerignore")) as f:
            ignored = f.read().split()
        assert {".git", ".cache", "build*", "dist*"} <= set(ignored), ignored

    if os.geteuid() != 0:
        print("dockerfile: not root, skipping the runtime-stage run (chroot, namespaces)")
        sys.exit(77 if not checks.failed else checks.finish())

    work = tempfile.mkdtemp(prefix="motiond-image-")
    root = os.path.join(work, "root")
    proc = None
    try:
        with checks.case("cmake --install (both commands) fills only bin/, lib/, share/motiond/robots"):
            for c in install_cmds:
                words = shlex.split(c)
                words[words.index("--install") + 1] = build_dir
                words[words.index("--prefix") + 1] = root + prefix
                run(words)
            files = sorted(os.path.relpath(os.path.join(d, f), root + prefix)
                           for d, _, fs in os.walk(root + prefix) for f in fs)
            assert {"bin/motiond", "bin/motionctl"} <= set(files), files
            others = [f for f in files if not (
                f in ("bin/motiond", "bin/motionctl") or re.match(r"lib/[^/]+\.so[.\d]*$", f)
                or re.match(r"share/motiond/robots/[^/]+\.urdf$", f))]
            assert not others, f"unexpected files in the prefix: {others}"
            libs = [f for f in files if f.startswith("lib/")]
            glibc = [f for f in libs if re.match(r"lib/(libc|libm|libdl|librt|libpthread|ld-linux[^/]*)\.so", f)]
            assert not glibc, f"glibc bundled: {glibc}"
            real = [f for f in files if not os.path.islink(os.path.join(root + prefix, f))]
            print(f"  prefix: 2 binaries, {sum(f.startswith('lib/') for f in real)} shared libraries, "
                  f"{sum(f.endswith('.urdf') for f in files)} robots, "
                  f"{sum(os.path.getsize(os.path.join(root + prefix, f)) for f in real) >> 20} MiB")

        for path in glibc_files():
            dest = root + path
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            shutil.copy2(path, dest, follow_symlinks=False)
        for d in ("proc", "tmp"):
            os.makedirs(os.path.join(root, d), exist_ok=True)

        grpc_port, metrics_port = free_port(), free_port()
        args = [a.replace("0.0.0.0:50051", f"127.0.0.1:{grpc_port}")
                 .replace("0.0.0.0:9464", f"127.0.0.1:{metrics_port}") for a in cmd]
        user = runtime["USER"][0]
        # A new mount + PID namespace: the root is bind-mounted read-only (as
        # Kubernetes' readOnlyRootFilesystem), /proc is the namespace's own, and
        # the shell execs chroot which execs motiond: PID 1, as in the container.
        script = (f"mount --bind {root} {root} && mount -t proc proc {root}/proc && "
                  f"mount -o remount,bind,ro {root} && "
                  f"exec chroot --userspec={user} {root} {shlex.join(entrypoint + args)}")
        log_path = os.path.join(work, "motiond.log")
        log = open(log_path, "w")
        proc = subprocess.Popen(["unshare", "--pid", "--fork", "--kill-child", "--mount", "--propagation", "private",
                                 "sh", "-c", script], stdout=log, stderr=subprocess.STDOUT)
        deadline = time.time() + 60
        while time.time() < deadline and "listening on" not in open(log_path).read():
            if proc.poll() is not None:
                break
            time.sleep(0.1)
        logged = open(log_path).read()

        with checks.case("image ENTRYPOINT + CMD start: PID 1 in its namespace, image USER, read-only root"):
            assert "listening on" in logged, logged[-2000:]
            child = int(open(f"/proc/{proc.pid}/task/{proc.pid}/children").read().split()[0])
            status = open(f"/proc/{child}/status").read()
            nspid = re.search(r"^NSpid:\s+(.*)$", status, re.M).group(1).split()
            uids = re.search(r"^Uid:\s+(.*)$", status, re.M).group(1).split()
            assert nspid[-1] == "1", f"NSpid {nspid}"
            assert uids == [user.split(":")[0]] * 4, f"Uid {uids}"
            assert os.path.basename(os.readlink(f"/proc/{child}/exe")) == "motiond"
            mounts = open(f"/proc/{child}/mountinfo").read()
            assert re.search(r"^\S+ \S+ \S+ \S+ / ro[, ]", mounts, re.M), "root is not read-only"
        with checks.case("grpc.health.v1 SERVING; bundled robots preloaded from the documented folder"):
            run(["/usr/bin/python3", os.path.join(HERE, "grpc_health_check.py"),
                 f"127.0.0.1:{grpc_port}", "--timeout=20"])
            n_robots = len([f for f in os.listdir(root + flag(cmd, "robots_dir")) if f.endswith(".urdf")])
            assert logged.count("preloaded ") == n_robots, f"{logged.count('preloaded ')} of {n_robots}"
        with checks.case("host motionctl: FK of the preloaded UR5 at zero = published pose"):
            out = run([host_motionctl, f"--target=127.0.0.1:{grpc_port}", "fk", "ur5",
                       "0", "0", "0", "0", "0", "0"])
            assert UR5_ZERO in out, out
        with checks.case("the image's own motionctl (compose healthcheck) runs in the container"):
            # As `docker exec`: motiond's mount and PID namespaces (its /proc, which
            # the loader reads to expand $ORIGIN), its root, its user.
            child = int(open(f"/proc/{proc.pid}/task/{proc.pid}/children").read().split()[0])
            out = run(["nsenter", f"--target={child}", "--mount", "--pid",
                       "chroot", f"--userspec={user}", root, f"{prefix}/bin/motionctl",
                       f"--target=127.0.0.1:{grpc_port}", "--timeout=5", "robots"])
            assert "ur5 " in out and "sha256:" in out, out
        with checks.case("/metrics answers on the metrics port"):
            with urllib.request.urlopen(f"http://127.0.0.1:{metrics_port}/metrics", timeout=10) as r:
                body = r.read().decode()
                assert r.status == 200 and "# TYPE" in body, body[:300]
        with checks.case("SIGTERM from outside the namespace (as docker stop): motiond exits 0"):
            child = int(open(f"/proc/{proc.pid}/task/{proc.pid}/children").read().split()[0])
            os.kill(child, 15)
            rc = proc.wait(timeout=30)
            proc = None
            assert rc == 0, f"exit code {rc}"
            assert "motiond stopped" in open(log_path).read()
    finally:
        if proc is not None:
            proc.kill()
            proc.wait()
        subprocess.run(["rm", "-rf", work])
    sys.exit(checks.finish())


if __name__ == "__main__":
    main()
