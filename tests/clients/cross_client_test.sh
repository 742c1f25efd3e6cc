#!/usr/bin/env bash
# The same task in the three clients against one real motiond: C++
# (clients/examples/plan_glue.cc), Python (clients/python/examples/plan_glue.py)
# and TypeScript (clients/node/examples/plan_glue.ts) plan the README's glue
# program. Their samples (time, q, qd, qdd) must be the same doubles bit for
# bit, their printed summaries identical, and the README must show that
# summary as it is printed.
# Usage: cross_client_test.sh MOTIOND PLAN_GLUE PYTHON_PACKAGE_DIR SOURCE_DIR
set -euo pipefail
motiond=$1 plan_glue=$2 python_dir=$3 source=$4
work=$(mktemp -d)
trap 'kill -9 $pid 2>/dev/null || true; rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

source "$source/tests/e2e/start_motiond.sh"
start_motiond "$work/log" --workers=2
target=127.0.0.1:$port

"$plan_glue" "$source" "$target" --csv="$work/cpp.csv" >"$work/cpp.out"
PYTHONPATH=$python_dir PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 \
  "$source/clients/python/examples/plan_glue.py" "$target" --csv="$work/py.csv" >"$work/py.out"
(cd "$source/clients/node" && npm run build --silent >"$work/tsc.log" 2>&1) ||
  { cat "$work/tsc.log"; fail "the TypeScript client does not build"; }
node "$source/clients/node/dist/examples/plan_glue.js" "$target" --csv="$work/ts.csv" >"$work/ts.out"

cat "$work/cpp.out"
diff "$work/cpp.out" "$work/py.out" || fail "Python printed another summary than C++"
diff "$work/cpp.out" "$work/ts.out" || fail "TypeScript printed another summary than C++"

# Each file's numbers parsed back to doubles (every writer round-trips) and
# compared as their 8 bytes, so -0 and 0 differ too.
/usr/bin/python3 - "$work/cpp.csv" "$work/py.csv" "$work/ts.csv" <<'PY'
import struct, sys
def rows(path):
    with open(path) as f:
        return [[struct.pack("<d", float(v)) for v in line.split(",")] for line in f if line.strip()]
cpp, py, ts = (rows(p) for p in sys.argv[1:])
assert len(cpp) > 3000, len(cpp)
for name, other in (("python", py), ("typescript", ts)):
    assert len(other) == len(cpp), f"{name}: {len(other)} samples, C++ {len(cpp)}"
    for k, (a, b) in enumerate(zip(cpp, other)):
        assert a == b, f"{name}: sample {k} differs from C++: {a} vs {b}"
print(f"{len(cpp)} samples x {len(cpp[0])} doubles bit-identical in C++, Python and TypeScript")
PY

# The README shows the summary exactly as printed.
while IFS= read -r line; do
  grep -qxF -- "$line" "$source/README.md" || fail "README.md lacks the printed line: $line"
done <"$work/cpp.out"
echo PASS
