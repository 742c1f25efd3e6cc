#!/usr/bin/env bash
# End to end: the real motiond binary with the bundled robots, driven by the
# real motionctl over loopback, then SIGTERM must exit 0.
# Usage: motionctl_e2e_test.sh MOTIOND MOTIONCTL ROBOTS_DIR
set -euo pipefail
motiond=$1 motionctl=$2 robots=$3
work=$(mktemp -d)
trap 'kill -9 $pid 2>/dev/null || true; rm -rf "$work"' EXIT

source "$(dirname "$0")/start_motiond.sh"
start_motiond "$work/log" --robots_dir="$robots" --workers=2
ctl() { "$motionctl" --target=127.0.0.1:$port "$@"; }
fail() { echo "FAIL: $*"; cat "$work/log"; exit 1; }

# Every bundled robot is preloaded and listed.
ctl robots >"$work/robots"
for name in ur5 ur10 ur5e_robot panda iiwa14 kuka_lbr_iiwa_14_r820 abb_irb2400 abb_irb120_3_58 \
            fanuc_m10ia fanuc_lrmate200id planar_2r quirks; do
  grep -q "^$name " "$work/robots" || fail "robot $name not listed"
done

# UR5 at q = 0: the published DH zero pose, (0.81725, 0.19145, -0.005491) in
# the URDF base_link (README of the robots folder).
ctl fk ur5 0 0 0 0 0 0 >"$work/fk"
grep -q "xyz   0.817250   0.191450  -0.005491 m" "$work/fk" || { cat "$work/fk"; fail "ur5 zero pose"; }

# planar 2R closed form: q = (pi/2, -pi/2) -> (0.2, 0.1, 0), yaw 0.
ctl fk planar_2r 1.5707963267948966 -1.5707963267948966 --json >"$work/fk.json"
/usr/bin/python3 - "$work/fk.json" <<'PY'
import json, math, sys
r = json.load(open(sys.argv[1]))
p = r["flange"]["position"]
assert abs(p["x"] - 0.2) < 1e-12 and abs(p["y"] - 0.1) < 1e-12 and abs(p["z"]) < 1e-12, p
q = r["flange"]["orientation"]
assert abs(abs(q["w"]) - 1) < 1e-12, q
PY

# A URDF file works directly (id computed by the client; inline fallback).
ctl fk "$robots/quirks.urdf" 0 0 0 0 | grep -q "xyz   0.500000   0.000000   0.450000 m" \
  || fail "quirks zero pose via file"

# Register is idempotent and the id is the SHA-256 of the file.
expected="sha256:$(sha256sum "$robots/ur5.urdf" | cut -d' ' -f1)"
ctl register "$robots/ur5.urdf" | grep -q "^id       $expected$" || fail "register id"

# Bad input is a clean error naming the field, exit code 2.
set +e
ctl fk ur5 0 0 0 2>"$work/err"; rc=$?
set -e
[[ $rc -eq 2 ]] || fail "wrong joint count exit code $rc"
grep -q "joints: expected 6 values" "$work/err" || fail "wrong joint count message"

ctl jacobian panda 0 0 0 -1.5 0 1.5 0 | grep -q "manipulability" || fail "jacobian"

# A program plans ok, every segment within its limits; --limits (the
# robot's real, slower shoulder) makes the first MoveJ longer.
examples="$robots/../clients/examples"
ctl plan "$examples/ur5_glue_path.json" >"$work/plan" || fail "glue path plan"
ctl plan "$examples/ur5_glue_path.json" --limits="$examples/ur5_slow_limits.json" \
  >"$work/plan_limited" || fail "glue path plan with --limits"
/usr/bin/python3 - "$work/plan" "$work/plan_limited" <<'PY'
import sys
def approach(path):
    rows = [l.split() for l in open(path) if l.startswith("approach")]
    assert rows and rows[0][2] == "yes", open(path).read()
    return float(rows[0][3].rstrip("s")), [float(x) for x in rows[0][5:8]]
plain, ratios = approach(sys.argv[1])
limited, limited_ratios = approach(sys.argv[2])
assert all(r <= 1.0 + 1e-3 for r in ratios + limited_ratios), (ratios, limited_ratios)
assert limited > plain * 1.2, (plain, limited)
PY

# Collision checking: the UR5 at home is clear of the example cell (exit 0),
# the glue path runs through its fixture (COLLISION naming it, exit 3).
ctl check ur5 0 -1.5708 1.5708 -1.5708 -1.5708 0 --scene="$examples/ur5_cell_scene.json" \
  >"$work/check" || fail "home pose check"
grep -q "^collision-free$" "$work/check" || fail "home pose not collision-free"
set +e
ctl plan "$examples/ur5_glue_path.json" --scene="$examples/ur5_cell_scene.json" >"$work/hit"
rc=$?
set -e
[[ $rc -eq 3 ]] || fail "plan through the fixture: exit $rc, expected 3"
grep -q "COLLISION .*collides with fixture" "$work/hit" || fail "no COLLISION with the fixture"

# A cell: two UR5 arms reaching into the same space together collide (exit
# 3, contacts naming both), and the suggested start for the second clears it.
set +e
ctl cell "$examples/ur5_pair_cell.json" --find_start_times >"$work/cell"
rc=$?
set -e
[[ $rc -eq 3 ]] || { cat "$work/cell"; fail "cell exit $rc, expected 3"; }
grep -q "collision-free: NO" "$work/cell" || fail "cell not in collision"
grep -q "^contact left/forearm_link - right/forearm_link" "$work/cell" || fail "cell contact"
grep -q "^suggested start times: left 0.000s right " "$work/cell" || fail "cell start times"
ctl cell "$examples/ur5_pair_cell.json" --json --clearance >"$work/cell.json" || [[ $? -eq 3 ]]
/usr/bin/python3 - "$work/cell.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert len(r["clearance"]) == len(r["clearance_time"]) > 100, len(r["clearance"])
assert abs(min(r["clearance"]) - r["min_clearance"]) < 1e-9, (min(r["clearance"]), r["min_clearance"])
PY

# A robot whose link is a mesh: registered with --meshes, its id is the one
# the README computes with sha256sum, and the link is checked as the mesh.
mkdir -p "$work/meshes/parts"
/usr/bin/python3 - "$work/meshes/parts/block.stl" <<'PY'
import struct, sys
h = (0.1, 0.1, 0.1)
tris = []
for axis in range(3):
    for side in (-1.0, 1.0):
        u, v = (axis + 1) % 3, (axis + 2) % 3
        def corner(a, b):
            p = [0.0, 0.0, 0.0]
            p[axis], p[u], p[v] = side * h[axis], a * h[u], b * h[v]
            return p
        tris += [(corner(-1, -1), corner(1, -1), corner(1, 1)),
                 (corner(-1, -1), corner(1, 1), corner(-1, 1))]
with open(sys.argv[1], "wb") as f:
    f.write(b" " * 80 + struct.pack("<I", len(tris)))
    for t in tris:
        f.write(struct.pack("<3f", 0, 0, 0))
        for p in t:
            f.write(struct.pack("<3f", *p))
        f.write(b"\0\0")
PY
cat >"$work/block_arm.urdf" <<'URDF'
<?xml version="1.0"?>
<robot name="block_arm">
  <link name="base"/>
  <link name="arm"><collision><origin xyz="0.5 0 0"/><geometry><mesh filename="package://parts/block.stl"/></geometry></collision></link>
  <joint name="turn" type="revolute"><parent link="base"/><child link="arm"/><axis xyz="0 0 1"/><limit lower="-3" upper="3" velocity="1" effort="1"/></joint>
</robot>
URDF
expected_id="sha256:$( { sha256sum "$work/block_arm.urdf" | cut -c1-64
                        echo "package://parts/block.stl"
                        sha256sum "$work/meshes/parts/block.stl" | cut -c1-64; } | sha256sum | cut -c1-64)"
ctl register "$work/block_arm.urdf" --meshes="$work/meshes" >"$work/register"
grep -q "^id       $expected_id$" "$work/register" || { cat "$work/register"; fail "mesh robot id"; }
ctl robot "$expected_id" >"$work/block_robot"
grep -q "^  arm  *urdf  *1 shape" "$work/block_robot" || { cat "$work/block_robot"; fail "mesh link"; }
cat >"$work/post.json" <<'JSON'
{"objects": [{"id": "post", "pose": {"position": {"x": 0.65, "y": 0, "z": 0}, "orientation": {"w": 1}},
              "shape": {"box": {"size": {"x": 0.2, "y": 0.2, "z": 0.2}}}}]}
JSON
set +e
ctl check "$expected_id" 0 --scene="$work/post.json" >"$work/block_check"
rc=$?
set -e
[[ $rc -eq 3 ]] || { cat "$work/block_check"; fail "block in the post: exit $rc, expected 3"; }
grep -q "arm  *touches post  *0.0500 m deep" "$work/block_check" ||
  { cat "$work/block_check"; fail "block depth"; }

# A 90 degree roll: the quaternion (sin 45, 0, 0, cos 45) and the matrix
# with rows (1 0 0), (0 0 -1), (0 1 0); roll/pitch/yaw must say their unit.
ctl pose 0 0 0.5 90 0 0 --deg >"$work/pose" || fail "pose"
grep -q "^quat  0.707106781 0.000000000 0.000000000 0.707106781" "$work/pose" ||
  { cat "$work/pose"; fail "pose quaternion"; }
grep -q "0.000000   1.000000   0.000000   0.500000$" "$work/pose" ||
  { cat "$work/pose"; fail "pose matrix"; }
set +e
ctl pose 0 0 0.5 90 0 0 2>"$work/err"; rc=$?
set -e
[[ $rc -eq 1 ]] && grep -q "needs --deg or --rad" "$work/err" || fail "pose without a unit"

# A planned trajectory written to CSV passes check-trajectory; the same with
# one sample of wrist_3 moved by 0.1 rad (25 rad/s over 4 ms, far above its
# limit) is refused naming that joint and point (exit 3).
ctl plan "$examples/ur5_glue_path.json" --csv="$work/glue.csv" >/dev/null || fail "plan --csv"
ctl check-trajectory ur5 "$work/glue.csv" >"$work/audit" || { cat "$work/audit"; fail "audit"; }
grep -q "^ok: within every limit" "$work/audit" || { cat "$work/audit"; fail "audit verdict"; }
/usr/bin/python3 - "$work/glue.csv" "$work/broken.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
column = rows[0].index("q_wrist_3_joint")
rows[501][column] = repr(float(rows[501][column]) + 0.1)  # data row 500 = point 500
csv.writer(open(sys.argv[2], "w", newline="")).writerows(rows)
PY
set +e
ctl check-trajectory ur5 "$work/broken.csv" >"$work/broken"; rc=$?
set -e
[[ $rc -eq 3 ]] || { cat "$work/broken"; fail "broken trajectory: exit $rc, expected 3"; }
grep -q "VELOCITY_LIMIT  wrist_3_joint velocity .* at point 50[01] " "$work/broken" ||
  { cat "$work/broken"; fail "broken trajectory not named by joint and point"; }
ctl resample ur5 "$work/glue.csv" --dt=0.008 --csv="$work/coarse.csv" >"$work/resample" ||
  fail "resample"
# n samples 4 ms apart span n - 1 intervals: ceil((n - 1) / 2) intervals of 8 ms.
samples=$(($(wc -l <"$work/glue.csv") - 1))
coarse=$(((samples - 1 + 1) / 2 + 1))
grep -q "^$samples samples at 0.004 s -> $coarse samples at 0.008 s" "$work/resample" ||
  { cat "$work/resample"; fail "resample count ($samples -> $coarse expected)"; }
ctl info | grep -q "^max_trajectory_points  *100000 " || fail "info limits"

# --plot: a PNG that Debian's own decoder reads back, 1400 x 900, with the
# curves of every joint in its colour; the diagnostic red only in the
# picture of a plan that has diagnostics (the glue path through the
# fixture: collisions near 0.5 s and 4.8 s, two places on the time axis).
ctl plan "$examples/ur5_glue_path.json" --plot="$work/plan.png" >"$work/plot_out" ||
  fail "plan --plot"
grep -q "^plot written to $work/plan.png$" "$work/plot_out" || { cat "$work/plot_out"; fail "plot line"; }
set +e
ctl plan "$examples/ur5_glue_path.json" --scene="$examples/ur5_cell_scene.json" \
  --plot="$work/hit.png" >"$work/hit_plot"; rc=$?
set -e
[[ $rc -eq 3 ]] || fail "plan --plot through the fixture: exit $rc, expected 3"
grep -q "^plot written to $work/hit.png$" "$work/hit_plot" || fail "plot line of a failed plan"
/usr/bin/python3 - "$work/plan.png" "$work/hit.png" <<'PY'
import sys
try:
    from PIL import Image
    def load(path):
        with Image.open(path) as image:
            assert image.format == "PNG", image.format
            image = image.convert("RGB")
            w, h = image.size
            data = image.tobytes()
        return w, h, [[tuple(data[(y * w + x) * 3:(y * w + x) * 3 + 3]) for x in range(w)]
                      for y in range(h)]
except ImportError:  # matplotlib reads PNG with its own decoder too
    import matplotlib.image
    def load(path):
        a = (matplotlib.image.imread(path)[:, :, :3] * 255).round().astype(int)
        return a.shape[1], a.shape[0], [[tuple(p) for p in row] for row in a]

# matplotlib's tab10 without red and grey, in chain order (6 UR5 joints).
joints = [(31, 119, 180), (255, 127, 14), (44, 160, 44), (148, 103, 189), (140, 86, 75),
          (227, 119, 194)]
red = (214, 39, 40)
for path, diagnostics in ((sys.argv[1], False), (sys.argv[2], True)):
    w, h, rows = load(path)
    assert (w, h) == (1400, 900), (path, w, h)
    # Below the legend row: the curves, not only the legend's swatches.
    counts = {}
    for y in range(60, h):
        for p in rows[y]:
            counts[p] = counts.get(p, 0) + 1
    for j, colour in enumerate(joints):
        assert counts.get(colour, 0) > 300, (path, j, colour, counts.get(colour, 0))
    red_pixels = sum(row.count(red) for row in rows)
    if not diagnostics:
        assert red_pixels == 0, (path, red_pixels)
        continue
    columns = [x for x in range(w) if sum(rows[y][x] == red for y in range(h)) >= 300]
    assert columns, (path, "no vertical red line", red_pixels)
    assert columns[-1] - columns[0] > 150, (path, columns)
PY
set +e
ctl plan "$examples/ur5_glue_path.json" --plot="$work/no/such/dir/plan.png" >"$work/out" \
  2>"$work/err"; rc=$?
set -e
[[ $rc -eq 1 ]] || fail "--plot to an unwritable path: exit $rc, expected 1"
grep -q "^motionctl: cannot write $work/no/such/dir/plan.png$" "$work/err" ||
  { cat "$work/err"; fail "--plot unwritable message"; }
[[ ! -s "$work/out" ]] || { cat "$work/out"; fail "planned despite an unwritable --plot"; }

# SIGTERM: drain and exit 0.
kill -TERM $pid
set +e
wait $pid; rc=$?
set -e
[[ $rc -eq 0 ]] || fail "motiond exit code $rc after SIGTERM"
grep -q "motiond stopped" "$work/log" || fail "no clean stop in log"
echo "e2e: 1 passed, 0 failed"
