#!/usr/bin/env python3
"""Checks the layering of core/ from its #include lines (no compiler needed).

- core/ includes no gRPC, protobuf or logging header;
- the folders of core/ include each other without a cycle;
- server/ and clients/ use core only through its public headers: nothing
  under a core/<folder>/internal/ directory.
Prints the folder graph; exits 1 on any violation.
"""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
include = re.compile(r'^\s*#\s*include\s*[<"]([^">]+)[">]', re.M)
forbidden = re.compile(r"^(grpc|grpcpp|google/protobuf|spdlog|prometheus|glog)/|\.pb\.h$")
errors = []
edges = {}

for path in sorted((root / "core").rglob("*")):
    if path.suffix not in (".h", ".cc"):
        continue
    rel = path.relative_to(root)
    folder = rel.parts[1] if len(rel.parts) > 2 else None
    for name in include.findall(path.read_text(errors="replace")):
        if forbidden.search(name):
            errors.append(f"{rel}: includes {name} (core must not depend on gRPC/protobuf/logging)")
        parts = name.split("/")
        if parts[0] == "core" and len(parts) > 2 and folder and parts[1] != folder:
            edges.setdefault(folder, set()).add(parts[1])

for side in ("server", "clients"):
    for path in sorted((root / side).rglob("*")):
        if path.suffix in (".h", ".cc"):
            for name in include.findall(path.read_text(errors="replace")):
                if name.startswith("core/") and "/internal/" in name:
                    errors.append(f"{path.relative_to(root)}: includes {name}, which is internal to core")

# A cycle is a folder reached again while it is on the current path.
state = {}
def visit(node, path):
    state[node] = 1
    for nxt in sorted(edges.get(node, ())):
        if state.get(nxt) == 1:
            errors.append("core folders include each other in a cycle: " +
                          " -> ".join(path[path.index(nxt):] + [nxt]) if nxt in path else nxt)
        elif state.get(nxt) is None:
            visit(nxt, path + [nxt])
    state[node] = 2
for node in sorted(edges):
    if state.get(node) is None:
        visit(node, [node])

for node in sorted(edges):
    print(f"{node} -> {', '.join(sorted(edges[node]))}")
for e in errors:
    print("FAIL:", e)
print(f"{0 if errors else 1} passed, {len(errors) and 1} failed")
sys.exit(1 if errors else 0)
