#!/usr/bin/env bash
# The DOFs carry the model's names (docs/outputs.md, "DOF names") and a frame's springs reach the
# results and the hysteresis plot (docs/outputs.md, "Springs of a frame"):
#  - response.csv's header: a frame's node and direction (t,n2_ux,n4_ux), a Tcl script's node
#    tags (t,n7_ux), a shear building whose stories are all experimental (t,floor1,floor2), a
#    structure of springs between DOFs (t,d1,d2);
#  - results.h5: the `names` of /displacement, /velocity, /acceleration; /springs of the frame:
#    its zero-length element (`s1`) and its two-node link's direction (`lk_ux`), checked against
#    the physics: the spring's deformation is the node's displacement (the other node is fixed),
#    the elastic-perfectly-plastic force is k d until |d| reaches fy / k and never exceeds fy, the
#    elastic link's force is k d; results.mat's names.displacement and names.springs.force
#    (scipy); the Python module's dof_names, d_NAME table columns, and a file of an earlier hysim
#    without names read as d1..dn (python3-h5py; skipped with a message without it);
#  - `hysim plot`: the spring panels in hysteresis.png's script, the DOF names on the axes.
# Usage: dof_names.sh PATH_TO_hysim
set -u
hysim=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$dir" || exit 1
header() { head -1 "$1/response.csv"; }

# a 2-D frame of two single-DOF oscillators: node 2 on a zero-length elastic-perfectly-plastic
# spring (k = 100, fy = 0.5: yields at 0.005 m), node 4 on an elastic two-node link (k = 40)
cat > frame.yaml <<'YAML'
hysim: 1
name: dof-names-frame
units: {force: kN, length: m, time: s}
materials:
  epp: {type: elastic_pp, E: 100, epsyP: 0.005}
  el: {type: elastic, k: 40}
structure:
  model:
    ndf: 2
    nodes:
      - {id: 1, x: 0, y: 0, fix: [1, 1]}
      - {id: 2, x: 0, y: 0, fix: [0, 1], mass: [1, 0]}
      - {id: 3, x: 1, y: 0, fix: [1, 1]}
      - {id: 4, x: 1, y: 0, fix: [0, 1], mass: [1, 0]}
    elements:
      - {type: zero_length, name: s1, nodes: [1, 2], dir: x, material: epp}
      - {type: two_node_link, name: lk, nodes: [3, 4], dirs: [x], materials: [el]}
    excitation: x
  damping: {none: true}
ground_motion:
  synthetic: {seed: 3, pga: 3.0, duration: 4, dt: 0.01}
analysis:
  integrator: {type: newmark}
  dt: 0.01
  duration: 4
output:
  mat: true
YAML
"$hysim" run frame.yaml -o frame --quiet > frame.log 2>&1 || fail "frame run: $(cat frame.log)"
[ "$(header frame)" = "t,n2_ux,n4_ux" ] || fail "frame header: $(header frame)"

# an OpenSees Tcl script: its node tags
cat > col.tcl <<'TCL'
model basic -ndm 2 -ndf 3
node 1 0 0
node 7 0 3
fix 1 1 1 1
mass 7 2 0 0
geomTransf Linear 1
element elasticBeamColumn 1 1 7 0.01 2e8 1e-4 1
TCL
cat > tcl.yaml <<'YAML'
hysim: 1
name: dof-names-tcl
units: {force: kN, length: m, time: s}
structure:
  model: {opensees: col.tcl, excitation: x}
  damping: {none: true}
ground_motion:
  synthetic: {seed: 3, pga: 1.0, duration: 1, dt: 0.01}
analysis:
  integrator: {type: newmark}
  dt: 0.01
  duration: 1
YAML
"$hysim" run tcl.yaml -o tcl --quiet > tcl.log 2>&1 || fail "Tcl run: $(cat tcl.log)"
[ "$(header tcl)" = "t,n7_ux" ] || fail "Tcl script header: $(header tcl)"

# every story experimental (the test file's `story: i`): a shear building, named by floor
src=${HS_SOURCE_DIR:?}
"$hysim" run "$src/examples/default.yaml" -o exp --quiet --set analysis.steps=20 > exp.log 2>&1 ||
    fail "experimental stories: $(tail -3 exp.log)"
[ "$(header exp)" = "t,floor1,floor2" ] || fail "experimental stories header: $(header exp)"

# springs between DOFs (no stories): the DOFs' numbers
cat > springs.yaml <<'YAML'
hysim: 1
name: dof-names-springs
units: {force: kip, length: in, time: s}
materials:
  k: {type: elastic, k: 2.8}
structure:
  dofs: 2
  mass: [0.01, 0.01]
  springs:
    - {from: ground, to: 2, material: k}
    - {from: 2, to: 1, material: k}
  damping: {none: true}
ground_motion:
  synthetic: {seed: 3, pga: 100.0, duration: 1, dt: 0.01}
analysis:
  integrator: {type: newmark}
  dt: 0.01
  duration: 1
YAML
"$hysim" run springs.yaml -o springs --quiet > springs.log 2>&1 || fail "springs run: $(cat springs.log)"
[ "$(header springs)" = "t,d1,d2" ] || fail "springs header: $(header springs)"
echo "dof_names.sh: response.csv headers: frame $(header frame), Tcl $(header tcl), experimental stories $(header exp), springs $(header springs)"

# hysim plot: the frame's springs as force-deformation panels, the DOFs named on the axes
if command -v gnuplot > /dev/null; then
    HS_TEST_PLOT_SCRIPT="$dir/frame.gp" "$hysim" plot frame > plot.log 2>&1 || fail "plot: $(cat plot.log)"
    awk '/hysteresis.png.part/ { on = 1 } /energy.png.part/ { on = 0 } on' frame.gp > hyst.gp
    for panel in s1 lk_ux; do
        grep -q "title '$panel'" hyst.gp || fail "hysteresis.png has no panel '$panel': $(grep -m3 title hyst.gp)"
    done
    grep -q "no springs recorded" hyst.gp && fail "hysteresis.png of the frame is empty"
    grep -q "^set ylabel 'n4_ux \[m\]'" frame.gp || fail "no axis n4_ux [m]: $(grep -m2 ylabel frame.gp)"
    echo "dof_names.sh: hysim plot draws the panels s1 and lk_ux, the axes n2_ux [m] and n4_ux [m]"
else
    echo "dof_names.sh: plot not drawn: no gnuplot (apt-get install gnuplot-nox)"
fi

py=/usr/bin/python3
if ! "$py" -c "import numpy, h5py" 2>/dev/null; then
    echo "dof_names.sh: results.h5 and Python checks skipped: $py lacks numpy or h5py (apt-get install python3-numpy python3-h5py)"
    exit 0
fi
cat > check.py <<'PY'
import shutil, sys
import h5py
import numpy as np
import hysim

run = hysim.load("frame")
names = ["n2_ux", "n4_ux"]
assert run.dof_names == names, run.dof_names
for path in ("displacement", "velocity", "acceleration"):
    assert run.names(path) == names, (path, run.names(path))
assert run.response.columns == ["t"] + names, run.response.columns
assert run.names("springs/force") == ["s1", "lk_ux"] == run.names("springs/deformation"), run.names("springs/force")
t = run.table()
assert t.columns[2:8] == ["d_n2_ux", "d_n4_ux", "v_n2_ux", "v_n4_ux", "a_n2_ux", "a_n4_ux"], t.columns

d, e, f = run["displacement"], run["springs/deformation"], run["springs/force"]
# each spring's other node is fixed: its deformation is the node's displacement
assert np.array_equal(e[:, 0], d[:, 0]), np.max(np.abs(e[:, 0] - d[:, 0]))
assert np.allclose(e[:, 1], d[:, 1], rtol=0, atol=1e-14 * np.max(np.abs(d[:, 1]))), np.max(np.abs(e[:, 1] - d[:, 1]))
# elastic-perfectly-plastic, k = 100, fy = 0.5: k d up to the first yield, never above fy
first = np.argmax(np.abs(d[:, 0]) >= 0.005)
assert first > 0 and np.max(np.abs(d[:, 0])) > 0.01, ("the spring should yield", first, np.max(np.abs(d[:, 0])))
assert np.allclose(f[:first, 0], 100 * d[:first, 0], rtol=1e-12, atol=1e-15), "epp force before the yield"
assert np.max(np.abs(f[:, 0])) <= 0.5 * (1 + 1e-12) and np.max(np.abs(f[:, 0])) >= 0.5 * (1 - 1e-12), np.max(np.abs(f[:, 0]))
# the elastic link: 40 d
assert np.allclose(f[:, 1], 40 * e[:, 1], rtol=1e-12, atol=1e-15), np.max(np.abs(f[:, 1] - 40 * e[:, 1]))
assert run.units("springs/force") == "kN" and run.units("springs/deformation") == "m"

# results.mat: the same names as cells
try:
    import scipy.io
except ImportError:
    print("dof_names.sh: results.mat not read: no scipy (python3-scipy)")
else:
    m = scipy.io.loadmat("frame/results.mat")
    got = [c[0] for c in m["names"][0, 0]["displacement"][0]]
    assert got == names, got
    springs = [c[0] for c in m["names"][0, 0]["springs"][0, 0]["force"][0]]
    assert springs == ["s1", "lk_ux"], springs
    assert np.array_equal(m["springs"][0, 0]["force"], f)

# a file of an earlier hysim (no names; response.csv's header t,d1,d2) reads as d1..dn
shutil.copytree("frame", "old")
with h5py.File("old/results.h5", "r+") as h:
    for path in ("displacement", "velocity", "acceleration"):
        del h[path].attrs["names"]
lines = open("old/response.csv").read().split("\n", 1)
open("old/response.csv", "w").write("t,d1,d2\n" + lines[1])
old = hysim.load("old")
assert old.dof_names == ["d1", "d2"] and old.names("velocity") == ["v1", "v2"], (old.dof_names, old.names("velocity"))
assert old.table().columns[2:4] == ["d1", "d2"], old.table().columns
assert np.array_equal(old.response["d2"], run.response["n4_ux"])
print(f"dof_names.sh: results.h5, results.mat and the Python module name the DOFs {names} and the "
      f"springs ['s1', 'lk_ux']; s1 yields at record {first} (peak |F| {np.max(np.abs(f[:, 0])):.15g} "
      f"kN = fy), the link's force is 40 d; a file without names reads as d1, d2")
PY
PYTHONPATH="$src/python" "$py" check.py || fail "the results.h5 / Python checks failed"
if command -v gnuplot > /dev/null; then
    "$hysim" plot old > plot_old.log 2>&1 || fail "plot of a file without names: $(cat plot_old.log)"
fi
echo "ok"
